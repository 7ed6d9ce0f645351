/**
 * Divide and conquer over index ranges: recursion that branches on two halves of a range (at most
 * `2·(2·n + 1)` calls for a range of `n`), and recursive binary search, each behind the wrapper
 * that users call, with the midpoint written both ways the JDK writes it.
 */
public class Halving {
    // expect: O(|a|) for inputs within limits
    static int sumAll(int[] a) {
        return sum(a, 0, a.length);
    }

    // expect: O(hi + lo) for inputs within limits
    static int sum(int[] a, int lo, int hi) {
        if (hi - lo <= 1) {
            return lo < hi ? a[lo] : 0;
        }
        int mid = (lo + hi) / 2;
        return sum(a, lo, mid) + sum(a, mid, hi);
    }

    // Within the array's indices, no midpoint wraps: a bound for every input.
    // expect: O(log(|a|))
    static int find(int[] a, int key) {
        return search(a, 0, a.length, key);
    }

    // expect: O(log(hi) + log(lo)) for inputs within limits
    static int search(int[] a, int lo, int hi, int key) {
        if (lo >= hi) {
            return -1;
        }
        int mid = lo + (hi - lo) / 2;
        if (a[mid] == key) {
            return mid;
        }
        if (a[mid] < key) {
            return search(a, mid + 1, hi, key);
        }
        return search(a, lo, mid, key);
    }

    // expect: O(log(|a|))
    static int findUnsigned(int[] a, int key) {
        return searchUnsigned(a, 0, a.length, key);
    }

    // `(lo + hi) >>> 1` is the midpoint even where `lo + hi` wraps, but only for ranges inside the
    // array's indices, which nothing here says: a negative `lo + hi` gives a midpoint above `hi`,
    // and the range grows. Only an array shorter than the midpoint of a negative sum (2^30, once the
    // inputs are 2^30 from the limits) stops that at the array access.
    // expect: O(log(hi) + log(lo)) for inputs within limits
    static int searchUnsigned(int[] a, int lo, int hi, int key) {
        if (lo >= hi) {
            return -1;
        }
        int mid = (lo + hi) >>> 1;
        if (a[mid] == key) {
            return mid;
        }
        if (a[mid] < key) {
            return searchUnsigned(a, mid + 1, hi, key);
        }
        return searchUnsigned(a, lo, mid, key);
    }
}
