/**
 * Non-termination fixtures with recursion. For "no" methods the recursion never reaches a
 * base case for the witness; on a real JVM such a call ends with StackOverflowError.
 */
public class Recursion {

    // n - 2 keeps an odd n odd (also modulo 2^32), so the base case n == 0 is never reached.
    // expect: no  witness: 1
    static int downByTwo(int n) {
        if (n == 0) {
            return 0;
        }
        return downByTwo(n - 2) + 1;
    }

    // For positive n the method calls itself with the very same argument.
    // expect: no  witness: 1
    static int sameArg(int n) {
        if (n <= 0) {
            return 0;
        }
        return sameArg(n);
    }

    // ping(n) calls pong(n + 2), which calls ping(n - 2): n only moves by even amounts, odd n never hits 0.
    // expect: no  witness: 1
    static int ping(int n) {
        if (n == 0) {
            return 0;
        }
        return pong(n + 2);
    }

    // pong(n) calls ping(n - 4), which calls pong(n - 2): n only moves by even amounts, odd n never hits 0.
    // expect: no  witness: 1
    static int pong(int n) {
        if (n == 0) {
            return 1;
        }
        return ping(n - 4);
    }

    // Swapping the arguments of two different values never makes them equal.
    // expect: no  witness: 1, 2
    static int swapRec(int x, int y) {
        if (x == y) {
            return x;
        }
        return swapRec(y, x);
    }

    // From 50 the argument alternates 60, 50, 60, ...: never above 100.
    // expect: no  witness: 50
    static int bounce(int n) {
        if (n > 100) {
            return n;
        }
        if (n > 50) {
            return bounce(n - 10);
        }
        return bounce(n + 10);
    }

    // 0 / 2 == 0, so half(0) calls half(0) and never reaches the base case n == 1.
    // expect: no  witness: 0
    static int half(int n) {
        if (n == 1) {
            return 0;
        }
        return half(n / 2) + 1;
    }

    // (true, 0) -> (false, 1) -> (true, 0): n never becomes negative.
    // expect: no  witness: true, 0
    static void toggle(boolean b, int n) {
        if (n < 0) {
            return;
        }
        toggle(!b, b ? n + 1 : n - 1);
    }

    // a[0] == 0 points back to index 0, so the walk revisits index 0 forever.
    // expect: no  witness: new int[]{0}, 0
    static int walk(int[] a, int i) {
        if (i >= a.length) {
            return 0;
        }
        return walk(a, a[i]) + 1;
    }

    // -MIN_VALUE == MIN_VALUE, so the argument stays negative forever.
    // expect: no  witness: -2147483648
    static int absRec(int n) {
        if (n >= 0) {
            return n;
        }
        return absRec(-n);
    }

    // n * 2 shifts a bit out each time, so any n becomes 0 within 32 calls (depth at most 33).
    // expect: yes
    static int doubleRec(int n) {
        if (n == 0) {
            return 0;
        }
        return doubleRec(n * 2) + 1;
    }
}
