/**
 * Loops that drive an object the method makes and keeps to itself: a cursor, a counter, a
 * builder. No other code can see the object, so its fields are the method's own variables, and
 * the loop is bounded by what the constructor and the calls store in them.
 */
public class Cursors {
    /** A cursor over the range [0, size). */
    static class Range {
        int pos;
        int size;

        // expect: O(1)
        Range(int size) {
            this.size = size;
        }

        // expect: O(1)
        boolean hasNext() {
            return pos < size;
        }

        // expect: O(1)
        int next() {
            return pos++;
        }

        // expect: O(1)
        boolean isEmpty() {
            return !hasNext();
        }
    }

    /** A counter that counts down by a step. */
    static class Countdown {
        private long left;
        private final int step;

        // expect: O(1)
        Countdown(long left, int step) {
            this.left = left;
            this.step = step < 1 ? 1 : step;
        }

        // expect: O(1)
        boolean done() {
            return left <= 0;
        }

        // expect: O(1)
        void tick() {
            left -= step;
        }
    }

    // The classic iterator loop over an object made here.
    // expect: O(n)
    static int sum(int n) {
        Range r = new Range(n);
        int s = 0;
        while (r.hasNext()) {
            s += r.next();
        }
        return s;
    }

    // A test through another method of the object (a call on `this` inside the copied code).
    // expect: O(n)
    static int count(int n) {
        Range r = new Range(n);
        int c = 0;
        while (!r.isEmpty()) {
            r.next();
            c++;
        }
        return c;
    }

    // Two cursors: the inner one is made anew on every outer iteration.
    // expect: O(m*n)
    static long nested(int n, int m) {
        Range outer = new Range(n);
        long c = 0;
        while (outer.hasNext()) {
            outer.next();
            Range inner = new Range(m);
            while (inner.hasNext()) {
                inner.next();
                c++;
            }
        }
        return c;
    }

    // A counter with a private field and a step of at least one.
    // expect: O(n)
    static int countdown(int n, int step) {
        Countdown d = new Countdown(n, step);
        int ticks = 0;
        while (!d.done()) {
            d.tick();
            ticks++;
        }
        return ticks;
    }

    /** A cursor whose fields its superclass declares. */
    static class Bounds {
        int pos;
        int limit;

        // expect: O(1)
        boolean more() {
            return pos < limit;
        }
    }

    /** Its own code names the inherited fields through itself, `Bounds`'s code through `Bounds`. */
    static final class Stepper extends Bounds {
        // expect: O(1)
        Stepper(int limit) {
            this.limit = limit;
        }

        // expect: O(1)
        int step() {
            return this.pos++;
        }
    }

    // The two names of each field resolve to one field, so the object is still made variables.
    // expect: O(n)
    static int inherited(int n) {
        Stepper s = new Stepper(n);
        int sum = 0;
        while (s.more()) {
            sum += s.step();
        }
        return sum;
    }

    /** A class whose field a subclass hides. */
    static class Shadowed {
        int pos;
        int limit;

        // expect: O(1)
        boolean more() {
            return pos < limit;
        }
    }

    /** Its own `pos` hides `Shadowed.pos`: `step()` never moves what `more()` reads. */
    static final class Hider extends Shadowed {
        int pos;

        // expect: O(1)
        Hider(int limit) {
            this.limit = limit;
        }

        // expect: O(1)
        void step() {
            this.pos++;
        }
    }

    // Two fields named `pos`, not one: `more()` stays true for a positive limit, and only the
    // counter ends the loop.
    // expect: O(1)
    static int hidden(int n) {
        Hider h = new Hider(n);
        int c = 0;
        while (h.more() && c < 1000) {
            h.step();
            c++;
        }
        return c;
    }

    static Range shared;

    // The cursor escapes into a static field, where other code could move it: it stays an
    // object, and the loop is not bounded by the inputs.
    // expect: unbounded
    static int escaped(int n) {
        Range r = new Range(n);
        shared = r;
        int c = 0;
        while (r.hasNext()) {
            r.next();
            c++;
        }
        return c;
    }
}
