/**
 * Cost-analysis literature: the array programs of the COSTA / PUBS line of work (Albert, Arenas,
 * Genaim, Puebla, Zanardini, "Cost analysis of Java bytecode", ESOP 2007; "COSTA: design and
 * implementation of a cost and termination analyzer for Java bytecode", FMCO 2007; Albert,
 * Arenas, Genaim, Puebla, "Closed-form upper bounds in static cost analysis", JAR 2011): loops
 * over arrays, the quadratic sorts, loops over two arrays, and loops whose bound is read from the
 * heap. An index out of bounds throws, which ends the method (and only shortens it).
 */
public class CostCosta {

    /** An input read from the heap: no parameter bounds it. */
    static int limit;

    // COSTA (ESOP 2007) style array traversal.
    // expect: O(|a|)
    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // COSTA benchmark style linear search with an early exit.
    // expect: O(|a|)
    static int linearSearch(int[] a, int key) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == key) {
                return i;
            }
        }
        return -1;
    }

    // In-place reversal with two indices meeting in the middle: ranked by j - i.
    // expect: O(|a|)
    static int reverse(int[] a) {
        int i = 0, j = a.length - 1;
        while (i < j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        return i;
    }

    // PUBS (Albert et al., JAR 2011) style triangular nest over an array: counting inversions.
    // expect: O(|a|^2)
    static int inversions(int[] a) {
        int c = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < i; j++) {
                if (a[j] > a[i]) {
                    c++;
                }
            }
        }
        return c;
    }

    // COSTA benchmarks, BubbleSort with the shrinking inner range.
    // expect: O(|a|^2)
    static int bubbleSort(int[] a) {
        int swaps = 0;
        for (int i = 0; i < a.length - 1; i++) {
            for (int j = 0; j < a.length - 1 - i; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                    swaps++;
                }
            }
        }
        return swaps;
    }

    // Bubble sort that stops after a pass without swaps: the outer loop's termination depends on
    // the array's contents (pass k puts the k-th largest in place, so at most |a| + 1 passes).
    // expect: O(|a|^2)
    static int bubbleSortFlag(int[] a) {
        int passes = 0;
        int swapped = 1;
        while (swapped != 0) {
            swapped = 0;
            for (int j = 0; j + 1 < a.length; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                    swapped = 1;
                }
            }
            passes++;
        }
        return passes;
    }

    // COSTA benchmarks, insertion sort: the inner loop walks j down from i - 1.
    // expect: O(|a|^2)
    static int insertionSort(int[] a) {
        int moves = 0;
        for (int i = 1; i < a.length; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= 0 && a[j] > x) {
                a[j + 1] = a[j];
                j--;
                moves++;
            }
            a[j + 1] = x;
        }
        return moves;
    }

    // COSTA benchmarks, selection sort.
    // expect: O(|a|^2)
    static int selectionSort(int[] a) {
        int swaps = 0;
        for (int i = 0; i < a.length; i++) {
            int min = i;
            for (int j = i + 1; j < a.length; j++) {
                if (a[j] < a[min]) {
                    min = j;
                }
            }
            int t = a[i];
            a[i] = a[min];
            a[min] = t;
            swaps++;
        }
        return swaps;
    }

    // PUBS / COSTA two-array nest (the shape of a matrix-style product of two vectors).
    // expect: O(|a|*|b|)
    static int crossProduct(int[] a, int[] b) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                s += a[i] * b[j];
            }
        }
        return s;
    }

    // Merging two sorted arrays (the merge step of COSTA's MergeSort benchmark): i + j grows by
    // one per step of the first loop, and each tail loop finishes one array.
    // expect: O(|a| + |b|)
    static int mergeSorted(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        int i = 0, j = 0, k = 0;
        while (i < a.length && j < b.length) {
            if (a[i] <= b[j]) {
                out[k++] = a[i++];
            } else {
                out[k++] = b[j++];
            }
        }
        while (i < a.length) {
            out[k++] = a[i++];
        }
        while (j < b.length) {
            out[k++] = b[j++];
        }
        return k;
    }

    // COSTA benchmarks, MatMult on n-by-n matrices stored row-major in flat arrays: the three
    // loops are bounded by n whatever the arrays hold (a short array only throws earlier).
    // expect: O(n^3)
    static int matMult(int[] a, int[] b, int[] c, int n) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int s = 0;
                for (int k = 0; k < n; k++) {
                    s += a[i * n + k] * b[k * n + j];
                }
                c[i * n + j] = s;
            }
        }
        return n;
    }

    // COSTA (FMCO 2007), a loop bounded by a value read from the heap: i < a[0] <= MAX never
    // wraps, so it ends, but no parameter size bounds a[0].
    // expect: terminating
    static int loopToElement(int[] a) {
        int c = 0;
        for (int i = 0; i < a[0]; i++) {
            c++;
        }
        return c;
    }

    // COSTA (FMCO 2007), a loop bounded by a static field: it ends (i++ below limit never
    // wraps), with a cost no parameter bounds.
    // expect: terminating
    static int loopToField(int from) {
        int c = 0;
        for (int i = from; i < limit; i++) {
            c++;
        }
        return c;
    }

    // Skipping over an array by the (positive) values it holds, at least one step each time: at
    // most |a| iterations; an i + s that wraps negative throws at the next a[i].
    // expect: O(|a|)
    static int skipScan(int[] a) {
        int i = 0, c = 0;
        while (i < a.length) {
            int s = a[i];
            i += s > 0 ? s : 1;
            c++;
        }
        return c;
    }

    // Array-driven jumps (COSTA's termination analysis needs the step to be positive): with
    // a == {0}, i stays 0 and the loop never ends.
    // expect: nonterminating
    static int jumpScan(int[] a) {
        int i = 0, c = 0;
        while (i >= 0 && i < a.length) {
            i += a[i];
            c++;
        }
        return c;
    }

    // ESOP 2007 style counting loop with a non-strict guard: with n == Integer.MAX_VALUE, i <= n
    // always holds (i wraps from MAX to MIN), so it never ends.
    // expect: nonterminating
    static int countUpTo(int n) {
        int s = 0;
        for (int i = 0; i <= n; i++) {
            s += i;
        }
        return s;
    }

    // The same non-strict guard over a long counter and an int bound: i <= n <= MAX < Long.MAX,
    // so i never wraps and the loop runs n + 1 times.
    // expect: O(n)
    static long countUpToLong(int n) {
        long s = 0;
        for (long i = 0; i <= n; i++) {
            s += i;
        }
        return s;
    }
}
