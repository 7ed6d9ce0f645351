/**
 * Loops and recursions whose steps go through calls of small methods (the program's own and the
 * JDK's): whether they end depends on what the callee returns, or on what it throws.
 */
public class Calls {

    // expect: yes
    static int plusTwo(int v) {
        return v + 2;
    }

    // expect: yes
    static boolean isZero(int v) {
        return v == 0;
    }

    // expect: yes
    static int checkedDecrement(int v) {
        if (v < 0) {
            throw new IllegalStateException("below zero");
        }
        return v - 1;
    }

    // Adding 2 through a helper keeps an odd x odd, so the helper never sees 0.
    // expect: no  witness: 1
    static int oddThroughHelpers(int x) {
        int n = 0;
        while (!isZero(x)) {
            x = plusTwo(x);
            n++;
        }
        return n;
    }

    // Math.abs(MIN_VALUE) is MIN_VALUE, still negative, and the loop never changes x.
    // expect: no  witness: -2147483648
    static int absStaysNegative(int x) {
        int n = 0;
        while (Math.abs(x) < 0) {
            n++;
        }
        return n;
    }

    // The getter returns a field that nothing writes: a positive level keeps the loop running.
    // expect: no  witness: Gauge{level = 1}
    static int whileLevelPositive(Gauge g) {
        int n = 0;
        while (g.level() > 0) {
            n++;
        }
        return n;
    }

    // The argument moves by 2 through a helper: an odd n never reaches the base case.
    // expect: no  witness: 1
    static int recurseThroughHelper(int n) {
        if (n == 0) {
            return 0;
        }
        return recurseThroughHelper(plusTwo(n)) + 1;
    }

    // The helper throws once x is below zero, so every input ends, by an exception.
    // expect: yes
    static int checkedCountdown(int x) {
        while (true) {
            x = checkedDecrement(x);
        }
    }

    // Adding 1 wraps around to 0 for every x, which the helper then sees.
    // expect: yes
    static int wrapsToZero(int x) {
        int n = 0;
        while (!isZero(x)) {
            x = x + 1;
            n++;
        }
        return n;
    }

    // A string of one char has length 1, so the loop never runs (a static String method whose
    // argument is not a string).
    // expect: yes
    static int oneCharString(char c) {
        int n = 0;
        while (String.valueOf(c).length() != 1) {
            n++;
        }
        return n;
    }

    // Math.abs of anything but MIN_VALUE is not negative, and MIN_VALUE is replaced by 0 first.
    // expect: yes
    static int absAfterClamp(int x) {
        if (x == Integer.MIN_VALUE) {
            x = 0;
        }
        int n = 0;
        while (Math.abs(x) < 0) {
            n++;
        }
        return n;
    }
}

/** A value behind a getter; the class is final, so a call of the getter has one target. */
final class Gauge {
    int level;

    int level() {
        return level;
    }
}
