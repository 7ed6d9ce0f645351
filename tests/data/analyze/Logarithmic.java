/**
 * Logarithmic loops (halving by division and by shift, doubling up to a bound), n·log n nests,
 * and inner loops that advance the outer loop's index (amortised linear).
 */
public class Logarithmic {

    // expect: O(log(n))
    static int halve(int n) {
        int c = 0;
        while (n > 0) {
            n /= 2;
            c++;
        }
        return c;
    }

    // expect: O(log(n))
    static int shiftRight(int n) {
        int c = 0;
        while (n > 0) {
            n >>= 1;
            c++;
        }
        return c;
    }

    // expect: O(log(n))
    static int halveAboveOne(int n) {
        int c = 0;
        while (n > 1) {
            n = n / 2;
            c += 3;
        }
        return c;
    }

    // expect: O(log(n))
    static int longHalve(long n) {
        int c = 0;
        while (n > 0) {
            n >>= 1;
            c++;
        }
        return c;
    }

    // The counter is a long, so doubling it cannot overflow before it passes any int n.
    // expect: O(log(n))
    static int doubling(int n) {
        int c = 0;
        for (long i = 1; i < n; i *= 2) {
            c++;
        }
        return c;
    }

    // expect: O(log(n))
    static int halvingCounter(int n) {
        int c = 0;
        for (int i = n; i > 0; i /= 2) {
            c += i;
        }
        return c;
    }

    // expect: O(n*log(n))
    static int linearTimesHalving(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = n; j > 0; j /= 2) {
                c++;
            }
        }
        return c;
    }

    // expect: O(n*log(n))
    static int halvingTimesLinear(int n) {
        int c = 0;
        for (int i = n; i > 0; i >>= 1) {
            for (int j = 0; j < n; j++) {
                c++;
            }
        }
        return c;
    }

    // expect: O(m*log(n))
    static int logOfOther(int n, int m) {
        int c = 0;
        for (int i = 0; i < m; i++) {
            int k = n;
            while (k > 0) {
                k /= 2;
                c++;
            }
        }
        return c;
    }

    // The inner loop moves the outer index: n steps in all.
    // expect: O(n)
    static int chunks(int n) {
        int i = 0;
        int c = 0;
        while (i < n) {
            i++;
            while (i < n && i % 4 != 0) {
                i++;
            }
            c++;
        }
        return c;
    }

    // expect: O(|a|)
    static int runs(int[] a) {
        int i = 0;
        int c = 0;
        while (i < a.length) {
            int j = i + 1;
            while (j < a.length && a[j] == a[i]) {
                j++;
            }
            c++;
            i = j;
        }
        return c;
    }
}
