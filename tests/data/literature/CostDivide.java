/**
 * Cost-analysis literature: divide and conquer, recurrences and logarithmic loops, as in the
 * recurrence-solving side of cost analysis (Albert, Arenas, Genaim, Puebla, "Closed-form upper
 * bounds in static cost analysis", JAR 2011, and the COSTA / PUBS benchmarks): binary search,
 * merge sort, sums over halves, fast exponentiation, halving and doubling loops, exponential
 * recursion, Karatsuba's recurrence, Ackermann's function.
 *
 * Midpoints are written so that they are exact: `(lo + hi) >>> 1` for nonnegative ends (the
 * JDK's), `lo + ((hi - lo) >>> 1)` for any `lo < hi` (the difference read as unsigned).
 */
public class CostDivide {

    // Bisection over an integer range (Knuth, TAOCP vol. 3, 6.2.1): the range [lo, hi) of up to
    // 2^32 - 1 values halves on every call, so log2(hi - lo) + 1 calls; lo may be negative.
    // expect: O(log(hi) + log(lo))
    static int bisect(int lo, int hi, int target) {
        if (lo >= hi) {
            return lo;
        }
        int mid = lo + ((hi - lo) >>> 1);
        if (mid < target) {
            return bisect(mid + 1, hi, target);
        }
        return bisect(lo, mid, target);
    }

    // Recursive binary search over a[lo, hi) with the JDK midpoint (lo + hi) >>> 1, exact for
    // lo >= 0 (guarded). Then hi - lo <= hi, so the least class is O(log(hi)), not the
    // O(log(hi) + log(lo)) of an unconstrained lo.
    // expect: O(log(hi))
    static int binarySearchRec(int[] a, int lo, int hi, int key) {
        if (lo < 0 || lo >= hi) {
            return -1;
        }
        int mid = (lo + hi) >>> 1;
        if (a[mid] == key) {
            return mid;
        }
        if (a[mid] < key) {
            return binarySearchRec(a, mid + 1, hi, key);
        }
        return binarySearchRec(a, lo, mid, key);
    }

    // java.util.Arrays.binarySearch0: lo and hi stay in [0, |a| - 1] while lo <= hi, so the
    // unsigned midpoint is exact and hi - lo halves.
    // expect: O(log(|a|))
    static int jdkBinarySearch(int[] a, int key) {
        int lo = 0, hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = a[mid];
            if (v < key) {
                lo = mid + 1;
            } else if (v > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    // Bloch 2006, "Nearly all binary searches and mergesorts are broken": (lo + hi) / 2 wraps
    // negative when |a| > 2^30, but then a[mid] throws, which ends the method; otherwise the
    // midpoint is exact. Still O(log(|a|)) for every input.
    // expect: O(log(|a|))
    static int blochBinarySearch(int[] a, int key) {
        int lo = 0, hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            int v = a[mid];
            if (v < key) {
                lo = mid + 1;
            } else if (v > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    // Integer square root by bisection (Warren, Hacker's Delight, 11-1): lo + hi + 1 <= 2^32 - 1
    // so the unsigned midpoint is exact, mid * mid is taken in long, and hi - lo halves.
    // expect: O(log(n))
    static int isqrt(int n) {
        if (n < 0) {
            return -1;
        }
        int lo = 0, hi = n;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if ((long) mid * mid <= n) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    // Recursive sum over halves (Albert et al., JAR 2011, divide and conquer with two calls on
    // halves): 2|a| - 1 calls.
    // expect: O(|a|)
    static int sumAll(int[] a) {
        return sumRange(a, 0, a.length);
    }

    // The helper: T(d) = T(floor(d/2)) + T(ceil(d/2)) + 1 for d = hi - lo (up to 2^32 - 1, lo may
    // be negative: the midpoint is exact for any lo < hi), so 2(hi - lo) - 1 calls.
    // expect: O(hi + lo)
    static int sumRange(int[] a, int lo, int hi) {
        if (lo >= hi) {
            return 0;
        }
        if (lo + 1 == hi) {
            return a[lo];
        }
        int mid = lo + ((hi - lo) >>> 1);
        return sumRange(a, lo, mid) + sumRange(a, mid, hi);
    }

    // Merge sort (COSTA benchmarks, MergeSort) on the whole array: T(n) = 2T(n/2) + O(n).
    // expect: O(|a|*log(|a|))
    static int mergeSort(int[] a) {
        return sortRange(a, new int[a.length], 0, a.length);
    }

    // Merge sort of the n elements from lo: halves of sizes n/2 and n - n/2 (both < n for
    // n >= 2), then a linear merge; depth log2(n).
    // expect: O(n*log(n))
    static int sortRange(int[] a, int[] tmp, int lo, int n) {
        if (n < 2) {
            return 0;
        }
        int h = n >>> 1;
        int c = sortRange(a, tmp, lo, h);
        c += sortRange(a, tmp, lo + h, n - h);
        return c + merge(a, tmp, lo, h, n - h);
    }

    // The merge of the runs a[lo, lo + n1) and a[lo + n1, lo + n1 + n2) through tmp: every step
    // of the three loops advances i or j, and the copy-back runs k = i + j times (tmp[k] throws
    // before k could wrap).
    // expect: O(n1 + n2)
    static int merge(int[] a, int[] tmp, int lo, int n1, int n2) {
        int i = 0, j = 0, k = 0;
        while (i < n1 && j < n2) {
            if (a[lo + i] <= a[lo + n1 + j]) {
                tmp[k++] = a[lo + i++];
            } else {
                tmp[k++] = a[lo + n1 + j++];
            }
        }
        while (i < n1) {
            tmp[k++] = a[lo + i++];
        }
        while (j < n2) {
            tmp[k++] = a[lo + n1 + j++];
        }
        for (int t = 0; t < k; t++) {
            a[lo + t] = tmp[t];
        }
        return k;
    }

    // Quicksort (Hoare 1962; Lomuto's partition) on the whole array: quadratic in the worst case
    // (a sorted array).
    // expect: O(|a|^2)
    static int quickSort(int[] a) {
        return quickSortRange(a, 0, a.length - 1);
    }

    // The helper on a[lo..hi], guarded to 0 <= lo < hi < |a|: the pivot's final place i is in
    // [lo, hi], so both parts are smaller; (hi - lo)^2 work at most, and lo >= 0 makes that at
    // most hi^2, the least class in the vocabulary.
    // expect: O(hi^2)
    static int quickSortRange(int[] a, int lo, int hi) {
        if (lo < 0 || hi >= a.length || lo >= hi) {
            return 0;
        }
        int pivot = a[hi];
        int i = lo, c = 0;
        for (int j = lo; j < hi; j++) {
            if (a[j] < pivot) {
                int t = a[i];
                a[i] = a[j];
                a[j] = t;
                i++;
            }
            c++;
        }
        int t = a[i];
        a[i] = a[hi];
        a[hi] = t;
        return c + quickSortRange(a, lo, i - 1) + quickSortRange(a, i + 1, hi);
    }

    // Fast exponentiation by squaring (Knuth, TAOCP vol. 2, 4.6.3), iterative: e loses a bit per
    // step.
    // expect: O(log(e))
    static long power(long x, int e) {
        long r = 1;
        while (e > 0) {
            if ((e & 1) != 0) {
                r *= x;
            }
            x *= x;
            e >>= 1;
        }
        return r;
    }

    // Fast exponentiation, recursive: T(e) = T(e / 2) + 1.
    // expect: O(log(e))
    static long powerRec(long x, int e) {
        if (e <= 0) {
            return 1;
        }
        long h = powerRec(x, e / 2);
        return (e & 1) == 0 ? h * h : h * h * x;
    }

    // The halving loop `while (n > 1) n /= 2;` of the cost-analysis papers.
    // expect: O(log(n))
    static int halve(int n) {
        int c = 0;
        while (n > 1) {
            n /= 2;
            c++;
        }
        return c;
    }

    // Counting bits by unsigned shifts: for n >= 0 it takes bitlength(n) <= log2(n) + 1 steps;
    // for n < 0 the first shift makes it positive and it takes exactly 32 (a constant). Over
    // 32-bit ints that is O(1) too; the vocabulary's reading of a halving loop is O(log(n)).
    // expect: O(log(n))
    static int bitCount(int n) {
        int c = 0;
        while (n != 0) {
            c += n & 1;
            n >>>= 1;
        }
        return c;
    }

    // The doubling loop `for (i = 1; i < n; i *= 2)`: for n > 2^30, i reaches 2^30, doubles to
    // MIN (still < n), then to 0, and stays 0 < n forever. Witness n == 1073741825.
    // expect: nonterminating
    static int doubling(int n) {
        int c = 0;
        for (int i = 1; i < n; i *= 2) {
            c++;
        }
        return c;
    }

    // The safe doubling loop: i <= n / 2 <= 2^30 - 1 keeps 2i below 2^31.
    // expect: O(log(n))
    static int doublingHalf(int n) {
        int c = 0;
        for (int i = 1; i <= n / 2; i *= 2) {
            c++;
        }
        return c;
    }

    // The doubling loop with a long counter against an int bound: i < n <= 2^31 - 1, so 2i never
    // wraps a long.
    // expect: O(log(n))
    static int doublingLong(int n) {
        int c = 0;
        for (long i = 1; i < n; i *= 2) {
            c++;
        }
        return c;
    }

    // Towers of Hanoi (COSTA / PUBS benchmarks): T(n) = 2T(n - 1) + 1.
    // expect: O(2^n)
    static int hanoi(int n) {
        if (n <= 0) {
            return 0;
        }
        return hanoi(n - 1) + 1 + hanoi(n - 1);
    }

    // Naive Fibonacci (COSTA / PUBS benchmarks): T(n) = T(n - 1) + T(n - 2) + 1 <= 2^n.
    // expect: O(2^n)
    static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    // Karatsuba and Ofman 1962, the recurrence T(n) = 3T(n/2) + n: n^log2(3) is not in the
    // vocabulary, and O(n^2) is the least class in it that bounds n^1.585.
    // expect: O(n^2)
    static int karatsuba(int n) {
        if (n <= 1) {
            return 1;
        }
        int h = n / 2;
        int c = karatsuba(h) + karatsuba(h) + karatsuba(n - h);
        for (int i = 0; i < n; i++) {
            c++;
        }
        return c;
    }

    // Ackermann's function (the classic terminating, not primitive recursive example): ranked
    // lexicographically by (m, n) on naturals (negative inputs return; n + 1 wrapping at MAX
    // yields a negative n, which returns), but no polynomial or exponential bound.
    // expect: terminating
    static int ackermann(int m, int n) {
        if (m < 0 || n < 0) {
            return 0;
        }
        if (m == 0) {
            return n + 1;
        }
        if (n == 0) {
            return ackermann(m - 1, 1);
        }
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    // Euclid's subtractive gcd (a standard cost example): both stay positive and a + b drops by
    // at least one per step; (n, 1) takes n - 1 steps, so neither O(a) nor O(b) alone.
    // expect: O(a + b)
    static int gcd(int a, int b) {
        if (a <= 0 || b <= 0) {
            return 0;
        }
        while (a != b) {
            if (a > b) {
                a -= b;
            } else {
                b -= a;
            }
        }
        return a;
    }
}
