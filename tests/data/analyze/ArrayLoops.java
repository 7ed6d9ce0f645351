/**
 * Traversals of int arrays: sum, maximum, in-place reversal, copy, bubble sort, binary search,
 * pairs, merging two sorted arrays, and a loop guarded by the array's length.
 */
public class ArrayLoops {

    // expect: O(|a|)
    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // expect: O(|a|)
    static int max(int[] a) {
        if (a.length == 0) {
            return Integer.MIN_VALUE;
        }
        int best = a[0];
        for (int i = 1; i < a.length; i++) {
            if (a[i] > best) {
                best = a[i];
            }
        }
        return best;
    }

    // expect: O(|a|)
    static void reverse(int[] a) {
        int i = 0;
        int j = a.length - 1;
        while (i < j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }

    // expect: O(|a|)
    static int[] copy(int[] a) {
        int[] b = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i];
        }
        return b;
    }

    // expect: O(|a|^2)
    static void bubbleSort(int[] a) {
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j + 1 < a.length - i; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                }
            }
        }
    }

    // `lo + hi` can exceed Integer.MAX_VALUE for huge arrays, and `>>> 1` repairs it: in every case
    // of the sum, the midpoint halves the range, so the bound holds for every array.
    // expect: O(log(|a|))
    static int binarySearch(int[] a, int key) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (a[mid] > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    // expect: O(|a|^2)
    static int countInversions(int[] a) {
        int c = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = i + 1; j < a.length; j++) {
                if (a[i] > a[j]) {
                    c++;
                }
            }
        }
        return c;
    }

    // expect: O(|a| + |b|)
    static int[] merge(int[] a, int[] b) {
        int[] out = new int[a.length + b.length];
        int i = 0;
        int j = 0;
        int k = 0;
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
        return out;
    }

    // expect: O(|a|)
    static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }

    // expect: O(|a|)
    static int sumBackwards(int[] a) {
        int s = 0;
        int i = a.length;
        while (--i >= 0) {
            s += a[i];
        }
        return s;
    }

    // expect: O(n)
    // (Runs min(n, |a|) times: the guard's n - i ranks it as well as the access's |a| - i, and
    // neither is known to be the smaller; O(|a|) would be as true.)
    static int prefixUpTo(int[] a, int n) {
        int s = 0;
        for (int i = 0; i < n && i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // expect: O(|a|)
    static void fill(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            a[i] = v + i;
        }
    }

    // A count read from the array, clamped by a parameter in a branch before the loop: the
    // branch's guard, known where the count is read, bounds the loop by n.
    // expect: O(n)
    static int clampedCount(int[] a, int n) {
        int k = a.length > 0 ? a[0] : 0;
        int s = 0;
        if (k <= n) {
            for (int i = 0; i < k; i++) {
                s += i;
            }
        }
        return s;
    }
}
