/**
 * Methods that do not terminate for some inputs: none of them may get a bound. `nonterminating`
 * marks those whose loop provably never exits once it is reached.
 */
public class Nonterminating {

    // expect: nonterminating
    static int spinWhenPositive(int n) {
        if (n > 0) {
            while (true) {
            }
        }
        return n;
    }

    // expect: nonterminating
    static int forever(int n) {
        for (;;) {
            n++;
        }
    }

    // expect: nonterminating
    static int guardedStuckCounter(int n) {
        int c = 0;
        if (n > 0) {
            int i = 0;
            while (i < n) {
                c++;
            }
        }
        return c;
    }

    // Loops forever when n > 0: i never changes.
    // expect: unbounded
    static int stuckCounter(int n) {
        int i = 0;
        int c = 0;
        while (i < n) {
            c++;
        }
        return c;
    }

    // Loops forever when n is odd (i stays even, also after wrapping around).
    // expect: unbounded
    static int stepTwoUntilEqual(int n) {
        int c = 0;
        for (int i = 0; i != n; i += 2) {
            c++;
        }
        return c;
    }

    // Loops forever when n is odd.
    // expect: unbounded
    static int countDownByTwoToZero(int n) {
        int c = 0;
        while (n != 0) {
            n -= 2;
            c++;
        }
        return c;
    }

    // Collatz: x = 0 stays 0, x = -1 cycles through -2.
    // expect: unbounded
    static int collatz(int x) {
        int c = 0;
        while (x != 1) {
            x = x % 2 == 0 ? x / 2 : 3 * x + 1;
            c++;
        }
        return c;
    }

    // Loops forever when a != b.
    // expect: unbounded
    static int swapUntilEqual(int a, int b) {
        int c = 0;
        while (a != b) {
            int t = a;
            a = b;
            b = t;
            c++;
        }
        return c;
    }

    // Loops forever when k == 0 and n > 0.
    // expect: unbounded
    static int unguardedStride(int n, int k) {
        int c = 0;
        for (int i = 0; i < n; i += k) {
            c++;
        }
        return c;
    }

    // Recurses without end for negative n.
    // expect: unbounded
    static int downToZero(int n) {
        if (n == 0) {
            return 0;
        }
        return 1 + downToZero(n - 1);
    }

    // With Java's 32-bit ints, i <= Integer.MAX_VALUE always holds: n = MAX_VALUE loops forever.
    // The bound holds only for n away from MAX_VALUE.
    // expect: O(n) for inputs within limits
    static int upToInclusive(int n) {
        int c = 0;
        for (int i = 0; i <= n; i++) {
            c++;
        }
        return c;
    }

    // An int counter doubled past 2^30 wraps to MIN_VALUE and then sticks at 0: n > 2^30 loops forever.
    // The bound holds only for n up to 2^30.
    // expect: O(log(n)) for inputs within limits
    static int intDoubling(int n) {
        int c = 0;
        for (int i = 1; i < n; i *= 2) {
            c++;
        }
        return c;
    }
}
