/**
 * Loop shapes over int and long parameters: constant code, counting loops, nesting, sequences,
 * strides, two moving indices, break/continue, do-while, switches, long counters, preconditions,
 * early returns and exception handlers inside loops.
 */
public class Basic {

    // expect: O(1)
    static int constant(int n) {
        int x = n * 3 + 1;
        if (x > 10) {
            x -= 10;
        }
        return x;
    }

    // expect: O(n)
    static int linear(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    // expect: O(n)
    static int countDown(int n) {
        int c = 0;
        for (int i = n; i > 0; i--) {
            c += 2;
        }
        return c;
    }

    // expect: O(m*n)
    static int nested(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                c++;
            }
        }
        return c;
    }

    // expect: O(n^2)
    static int triangular(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j < n; j++) {
                c += j;
            }
        }
        return c;
    }

    // expect: O(n^3)
    static int cubic(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                for (int k = 0; k < n; k++) {
                    c++;
                }
            }
        }
        return c;
    }

    // expect: O(m + n)
    static int sequential(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c++;
        }
        for (int j = 0; j < m; j++) {
            c += 2;
        }
        return c;
    }

    // `i += 3` wraps past Integer.MAX_VALUE when n > MAX_VALUE - 2.
    // expect: O(n) for inputs within limits
    static int stepThree(int n) {
        int c = 0;
        for (int i = 0; i < n; i += 3) {
            c++;
        }
        return c;
    }

    // expect: O(n)
    static int twoPointers(int n) {
        int i = 0;
        int j = n;
        int c = 0;
        while (i < j) {
            i++;
            j--;
            c++;
        }
        return c;
    }

    // expect: O(hi + lo)
    static int converge(int lo, int hi) {
        int c = 0;
        while (lo < hi) {
            lo++;
            hi--;
            c++;
        }
        return c;
    }

    // expect: O(n)
    static int breakEarly(int n, int stop) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (i == stop) {
                break;
            }
            c += i;
        }
        return c;
    }

    // expect: O(n)
    static int skipEven(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (i % 2 == 0) {
                continue;
            }
            c += i;
        }
        return c;
    }

    // `n--` wraps from Integer.MIN_VALUE to MAX_VALUE on the first iteration.
    // expect: O(n) for inputs within limits
    static int doWhile(int n) {
        int c = 0;
        do {
            n--;
            c++;
        } while (n > 0);
        return c;
    }

    // expect: O(n)
    static int switchInLoop(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            switch (i % 4) {
                case 0:
                    c += 1;
                    break;
                case 1:
                    c += 3;
                    break;
                case 2:
                    c -= 1;
                    break;
                default:
                    c *= 2;
            }
        }
        return c;
    }

    // expect: O(n)
    static long longSum(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    // expect: O(m*n)
    static long longNested(long n, long m) {
        long c = 0;
        for (long i = n; i > 0; i--) {
            for (long j = 0; j < m; j++) {
                c += i ^ j;
            }
        }
        return c;
    }

    // expect: O(n)
    static int guardedNotEqual(int n) {
        if (n <= 0) {
            return 0;
        }
        int c = 0;
        int i = n;
        while (i != 0) {
            i--;
            c++;
        }
        return c;
    }

    // `i += k` wraps past Integer.MAX_VALUE when n and k are large.
    // expect: O(n) for inputs within limits
    static int guardedStride(int n, int k) {
        if (k <= 0) {
            return -1;
        }
        int c = 0;
        for (int i = 0; i < n; i += k) {
            c++;
        }
        return c;
    }

    // expect: O(n)
    static int firstSquareAbove(int n, int target) {
        for (int i = 0; i < n; i++) {
            if (i * i > target) {
                return i;
            }
        }
        return -1;
    }

    // expect: O(n)
    static int divideAll(int n, int d) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            try {
                c += 100 / d + i;
            } catch (ArithmeticException e) {
                c--;
            }
        }
        return c;
    }

    // expect: O(n)
    static int whileTrueWithBreak(int n) {
        int i = 0;
        while (true) {
            if (i >= n) {
                break;
            }
            i++;
        }
        return i;
    }
}
