/**
 * Loops that step their counter through a helper whose arithmetic may wrap for some input, but not
 * for any value the loop passes it: after `x > y`, `y` is below `Integer.MAX_VALUE`, so `y + 1`
 * does not wrap. The JVM ranges of the caller's values bound what it passes, and the helper's
 * result is then exact. Every bound holds for every input.
 */
public class HelperSteps {
    // expect: O(1)
    static int next(int v) {
        return v + 1;
    }

    // `v`, or `v + 1` when `up` is positive.
    // expect: O(1)
    static int round(int v, int up) {
        return up > 0 ? v + 1 : v;
    }

    // expect: O(x + y)
    static int countUp(int x, int y) {
        while (x > y) {
            y = next(y);
        }
        return y;
    }

    // expect: O(x + y)
    static int roundUp(int x, int y) {
        while (x > y) {
            y = round(y, 1);
        }
        return y;
    }

    // expect: O(1)
    static int previous(int v) {
        return v - 1;
    }

    // After `x > y`, `x` is above `Integer.MIN_VALUE`, so `x - 1` does not wrap.
    // expect: O(x + y)
    static int countDown(int x, int y) {
        while (x > y) {
            x = previous(x);
        }
        return x;
    }
}
