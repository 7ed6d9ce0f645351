/**
 * Non-termination fixtures whose loop guards depend on long values (64-bit wrapping).
 */
public class LongLoops {

    // With y == 0 the update leaves x == 1 unchanged, so x > 0 holds forever.
    // expect: no  witness: 1L, 0L
    static long addZeroL(long x, long y) {
        while (x > 0L) {
            x = x + y;
        }
        return x;
    }

    // Subtracting 2 keeps x odd modulo 2^64, so an odd x never reaches 0.
    // expect: no  witness: 3L
    static long subTwoL(long x) {
        while (x != 0L) {
            x = x - 2L;
        }
        return x;
    }

    // -Long.MIN_VALUE == Long.MIN_VALUE, so x stays negative forever.
    // expect: no  witness: -9223372036854775808L
    static long minAbsL(long x) {
        while (x < 0L) {
            x = -x;
        }
        return x;
    }

    // Incrementing both preserves the wrapped difference a - b, which stays 1.
    // expect: no  witness: 1L, 0L
    static long keepDiffL(long a, long b) {
        while (a - b > 0L) {
            a = a + 1L;
            b = b + 1L;
        }
        return a;
    }

    // s starts at the widened int 2 and moves in steps of 4, so s stays 2 modulo 4, never 0.
    // expect: no  witness: 2
    static long widened(int x) {
        long s = x;
        while (s != 0L) {
            s = s + 4L;
        }
        return s;
    }

    // Swapping two different longs never makes them equal (period 2).
    // expect: no  witness: 1L, 2L
    static long swapL(long a, long b) {
        while (a != b) {
            long t = a;
            a = b;
            b = t;
        }
        return a;
    }

    // A zero step leaves i == 0 below n == 10 forever.
    // expect: no  witness: 0L, 10L, 0L
    static long stuckStep(long i, long n, long step) {
        while (i < n) {
            i = i + step;
        }
        return i;
    }

    // Adding 2 never changes bit 0, so an even x stays even forever.
    // expect: no  witness: 0L
    static long evenBitL(long x) {
        while ((x & 1L) == 0L) {
            x = x + 2L;
        }
        return x;
    }

    // x alternates 5, 2, 5, ... while d alternates 3, -3: x stays nonnegative.
    // expect: no  witness: 5L, 3L
    static long alternateL(long x, long d) {
        while (x >= 0L) {
            x = x - d;
            d = -d;
        }
        return x;
    }

    // The int counter wraps at Integer.MAX_VALUE, so it never reaches a bound above 2^31 - 1.
    // expect: no  witness: 4294967296L
    static int intCounterLongBound(long n) {
        int i = 0;
        while (i < n) {
            i = i + 1;
        }
        return i;
    }

    // Doubling a positive long shifts its bits out: it becomes negative or 0 within 63 steps.
    // expect: yes
    static long longDouble(long x) {
        while (x > 0L) {
            x = x * 2L;
        }
        return x;
    }

    // Each left shift drops the top bit; after at most 64 shifts x is 0.
    // expect: yes
    static long longShift(long x) {
        long c = 0L;
        while (x != 0L) {
            x = x << 1;
            c = c + 1L;
        }
        return c;
    }

    // Adding 2^62 to a positive long wraps it to a negative value within two steps.
    // expect: yes
    static long quarterStep(long x) {
        while (x > 0L) {
            x = x + 4611686018427387904L;
        }
        return x;
    }
}
