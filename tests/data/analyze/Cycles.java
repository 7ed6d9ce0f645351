/**
 * Cycles entered at several places, none of which lies on every cycle: methods that call each
 * other through one interface call only they make, whose dispatch is the one procedure on every
 * cycle (a chain of decorators, recursing over the path length of {@code this}; two step methods
 * recursing over an int).
 */
public class Cycles {
    interface Rule {
        int estimate();
    }

    interface NumberRule extends Rule {
    }

    static final class Digits implements NumberRule {
        // expect: O(1)
        Digits() {
        }

        // expect: O(1)
        public int estimate() {
            return 2;
        }
    }

    static final class Padded implements NumberRule {
        final NumberRule inner;

        // expect: O(1)
        Padded(NumberRule inner) {
            this.inner = inner;
        }

        // expect: O(|this|)
        public int estimate() {
            return 1 + inner.estimate();
        }
    }

    static final class Twice implements NumberRule {
        final NumberRule inner;

        // expect: O(1)
        Twice(NumberRule inner) {
            this.inner = inner;
        }

        // expect: O(|this|)
        public int estimate() {
            int e = inner.estimate();
            return e < 1000 ? 2 * e : e;
        }
    }

    interface Step {
        int run(int n);
    }

    interface Inner extends Step {
    }

    static final class Down implements Inner {
        // expect: O(1)
        Down() {
        }

        // expect: O(n)
        public int run(int n) {
            if (n <= 0) {
                return 0;
            }
            return 1 + next(n).run(n - 1);
        }
    }

    static final class Skip implements Inner {
        // expect: O(1)
        Skip() {
        }

        // expect: O(n)
        public int run(int n) {
            if (n <= 1) {
                return n;
            }
            return 2 + next(n).run(n - 2);
        }
    }

    // expect: O(1)
    static Inner next(int n) {
        if (n % 3 == 0) {
            return new Skip();
        }
        return new Down();
    }

    // expect: O(n)
    static int steps(int n) {
        Step first = next(n);
        return first.run(n);
    }

    // expect: O(1)
    Cycles() {
    }
}
