/**
 * Traps: methods that look non-terminating but terminate (return or throw) for every input
 * on the JVM, mostly because ints wrap or because an exception leaves the loop.
 */
public class Traps {

    // x + 1 wraps from Integer.MAX_VALUE to MIN_VALUE, so a positive x turns negative (at most 2^31 steps).
    // expect: yes
    static int incWrap(int x) {
        while (x > 0) {
            x = x + 1;
        }
        return x;
    }

    // Each doubling shifts a bit out of the top, so any x becomes 0 within 32 steps.
    // expect: yes
    static int doubling(int x) {
        int c = 0;
        while (x != 0) {
            x = x * 2;
            c = c + 1;
        }
        return c;
    }

    // The unsigned shift fills with zeros, so any x becomes 0 within 32 steps (unlike >>).
    // expect: yes
    static int unsignedShift(int x) {
        while (x != 0) {
            x = x >>> 1;
        }
        return x;
    }

    // Division rounds towards zero (-1 / 2 == 0), so any x becomes 0 within 32 steps.
    // expect: yes
    static int halve(int x) {
        while (x != 0) {
            x = x / 2;
        }
        return x;
    }

    // A positive odd x wraps to a negative odd value, whose remainder is -1, ending the loop.
    // expect: yes
    static int oddModulo(int x) {
        while (x % 2 == 1) {
            x = x + 2;
        }
        return x;
    }

    // x + 1 visits every int value, so x == 12345 is reached within 2^32 steps.
    // expect: yes
    static int rareExit(int x) {
        while (true) {
            x = x + 1;
            if (x == 12345) {
                return x;
            }
        }
    }

    // 3 is odd, hence invertible modulo 2^32: i - 3k == 0 has a solution k below 2^32 for every n.
    // expect: yes
    static int stepThree(int n) {
        int c = 0;
        for (int i = n; i != 0; i = i - 3) {
            c = c + 1;
        }
        return c;
    }

    // x & (x - 1) clears the lowest set bit, so x becomes 0 within 32 steps and 1000 / 0 throws.
    // expect: yes
    static int divideUntilZero(int x) {
        int s = 0;
        while (true) {
            s = s + 1000 / x;
            x = x & (x - 1);
        }
    }

    // x > y means x reaches MAX_VALUE first and wraps to MIN_VALUE while y + 1 > MIN_VALUE.
    // expect: yes
    static int chase(int x, int y) {
        while (x > y) {
            x = x + 1;
            y = y + 1;
        }
        return x;
    }

    // Odd x reaches 1 within 30 squarings (units mod 2^32 have exponent 2^30); even x reaches 0.
    // expect: yes
    static int squareToOne(int x) {
        while (x != 0 && x != 1) {
            x = x * x;
        }
        return x;
    }

    // Doubling both values sends both to 0 within 32 steps, where they are equal.
    // expect: yes
    static int bothDouble(int x, int y) {
        while (x != y) {
            x = x * 2;
            y = y * 2;
        }
        return x;
    }

    // x & (x << 1) moves the lowest set bit up by at least one, so x becomes 0 within 32 steps.
    // expect: yes
    static int andShift(int x) {
        while (x != 0) {
            x = x & (x << 1);
        }
        return x;
    }

    // If b is false it is flipped to true in the first iteration, so the break fires by the second.
    // expect: yes
    static int flipOnce(boolean b) {
        int c = 0;
        while (true) {
            if (b) {
                break;
            }
            b = !b;
            c = c + 1;
        }
        return c;
    }

    // i & 7 reaches an index in 3..7 within 4 steps, and the array has length 3: out of bounds.
    // expect: yes
    static int maskedIndex(int n) {
        int[] a = new int[3];
        int i = n;
        while (true) {
            a[i & 7] = i;
            i = i + 1;
        }
    }

    // Both paths end: counting up reaches 10, counting down wraps from MIN_VALUE to MAX_VALUE >= 10.
    // expect: yes
    static int eitherWay(int x, boolean up) {
        while (x < 10) {
            if (up) {
                x = x + 1;
            } else {
                x = x - 1;
            }
        }
        return x;
    }

    // 7 is odd, so x + 7k runs through every int value and meets y within 2^32 steps.
    // expect: yes
    static int oddStepHit(int x, int y) {
        while (x != y) {
            x = x + 7;
        }
        return x;
    }

    // i counts up through every int value (wrapping), so i != n fails within 2^32 steps.
    // expect: yes
    static int countUp(int n) {
        int c = 0;
        for (int i = 0; i != n; i++) {
            c = c + 2;
        }
        return c;
    }

    // Adding 10^9 to a positive int wraps to a negative value within three steps.
    // expect: yes
    static int bigSteps(int x) {
        while (x > 0) {
            x = x + 1000000000;
        }
        return x;
    }

    // d counts down from 10 to 0 whatever x is, and then 100 / d throws ArithmeticException.
    // expect: yes
    static int divisorCountdown(int x) {
        int d = 10;
        while (true) {
            x = x + 100 / d;
            d = d - 1;
        }
    }
}
