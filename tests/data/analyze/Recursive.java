/**
 * Recursion (linear, halving, branching, mutual, over an array index) and loops that call helpers
 * with loops of their own.
 */
public class Recursive {

    // expect: O(n)
    static int linearRec(int n) {
        if (n <= 0) {
            return 0;
        }
        return 1 + linearRec(n - 1);
    }

    // expect: O(log(n))
    static int halvingRec(int n) {
        if (n > 0) {
            return 1 + halvingRec(n / 2);
        }
        return 0;
    }

    // expect: O(2^n)
    static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    // expect: O(log(e))
    static long power(long b, int e) {
        if (e <= 0) {
            return 1;
        }
        long half = power(b, e / 2);
        if (e % 2 == 0) {
            return half * half;
        }
        return half * half * b;
    }

    // expect: O(n)
    static boolean isEven(int n) {
        if (n <= 0) {
            return true;
        }
        return isOdd(n - 1);
    }

    // expect: O(n)
    static boolean isOdd(int n) {
        if (n <= 0) {
            return false;
        }
        return isEven(n - 1);
    }

    // |a| - i calls, and none past the first unless i >= 0: at most |a|.
    // expect: O(|a|)
    static int sumFrom(int[] a, int i) {
        if (i < 0 || i >= a.length) {
            return 0;
        }
        return a[i] + sumFrom(a, i + 1);
    }

    // expect: O(|a|)
    static int recursiveSum(int[] a) {
        return sumFrom(a, 0);
    }

    // expect: O(n)
    static int helper(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    // expect: O(m*n)
    static int helperInLoop(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += helper(m);
        }
        return c;
    }

    // expect: O(n^2)
    static int growingHelperInLoop(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += helper(i);
        }
        return c;
    }

    // expect: O(n*log(n))
    static int halvingInLoop(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += halvingRec(n);
        }
        return c;
    }

    // `2 * n` wraps around for |n| >= 2^30, and then the second call's cost is not a function of n.
    // expect: O(n) for inputs within limits
    static int twoHelpers(int n) {
        return helper(n) + helper(2 * n) + linearRec(n);
    }

    // expect: O(n^2)
    static int recursionAroundLoop(int n) {
        if (n <= 0) {
            return 0;
        }
        return helper(n) + recursionAroundLoop(n - 1);
    }
}
