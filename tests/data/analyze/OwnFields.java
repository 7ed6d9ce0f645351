/**
 * Loops whose counter is a field of an object the loop does not change: when only the loop's own
 * stores through that object write the field, it is a loop variable (a ghost), and a value stored
 * just before the loop is where it starts. Element stores at another constant index leave an
 * element the loop reads alone.
 */
public class OwnFields {
    /** A counter with fields a loop runs on. */
    static final class Counter {
        int left;
        int pos;
        int limit;

        // The field counts down from whatever it held on entry: the loop's bound is that value.
        // expect: O(this.left)
        int drain() {
            int k = 0;
            while (this.left > 0) {
                this.left--;
                k++;
            }
            return k;
        }

        // Another counter's field.
        // expect: O(c.left)
        static int drainOther(Counter c) {
            int k = 0;
            while (c.left > 0) {
                c.left--;
                k++;
            }
            return k;
        }
    }

    /** A buffer with a size and a cursor, the loops' bounds. */
    static final class Buffer {
        int size;
        int[] data;
        int pos;

        // Up to the size, which the loop only reads; the elements it reads bound it by the
        // array's length too, within the size of `this`.
        // expect: O(|this|)
        int sum() {
            int s = 0;
            for (int i = 0; i < size; i++) {
                s += data[i];
            }
            return s;
        }

        // The cursor runs from its position at entry up to the size.
        // expect: O(this.pos + this.size)
        int skipAll() {
            int k = 0;
            while (pos < size) {
                pos++;
                k++;
            }
            return k;
        }

        // The size, read once before the loop.
        // expect: O(this.size)
        int countLocal() {
            int n = size;
            int k = 0;
            for (int i = 0; i < n; i++) {
                k++;
            }
            return k;
        }

        // A call first, which may write the fields: the entry values bound nothing.
        // expect: terminating
        int afterReset() {
            reset();
            int k = 0;
            while (pos < size) {
                pos++;
                k++;
            }
            return k;
        }

        // expect: O(1)
        void reset() {
            pos = 0;
        }

        // A store into a field of that name first, through another object that may be this one.
        // expect: terminating
        int afterOtherStore(Buffer other) {
            other.size = 100;
            int k = 0;
            while (pos < size) {
                pos++;
                k++;
            }
            return k;
        }
    }

    // expect: O(1)
    OwnFields() {
    }


    // The field starts at a parameter.
    // expect: O(n)
    static int countDown(int n) {
        Counter c = new Counter();
        c.left = n;
        int k = 0;
        while (c.left > 0) {
            c.left = c.left - 1;
            k++;
        }
        return k;
    }

    // A cursor field runs up to another field that the loop only reads, both set from parameters.
    // expect: O(from + to)
    static int scan(int from, int to) {
        Counter c = new Counter();
        c.pos = from;
        c.limit = to;
        int k = 0;
        while (c.pos < c.limit) {
            c.pos++;
            k++;
        }
        return k;
    }

    // Steps of two.
    // expect: O(n)
    static int countByTwo(int n) {
        Counter c = new Counter();
        c.left = n;
        int k = 0;
        while (c.left > 0) {
            c.left -= 2;
            k++;
        }
        return k;
    }

    // Two counters, the same one when which == 0: a store into b.left may write a.left (with
    // a == b the loop runs until the cap), so a.left is no loop variable and only the cap on k
    // bounds the loop.
    // expect: O(1)
    static int aliased(int n, int which) {
        Counter a = new Counter();
        Counter b = which == 0 ? a : new Counter();
        a.left = n;
        int k = 0;
        while (a.left > 0 && k < 1000) {
            a.left--;
            b.left = n;
            k++;
        }
        return k;
    }

    // The bound is element 0; the loop writes element 1 only.
    // expect: O(n)
    static int firstCell(int n) {
        int[] a = new int[2];
        a[0] = n;
        int k = 0;
        for (int i = 0; i < a[0]; i++) {
            a[1] = a[1] + i;
            k++;
        }
        return k;
    }

    // A byte element narrows what is stored: a[0] is n's low byte, not n, so the loop's start
    // is not n (and no bound in n is claimed).
    // expect: terminating
    static int byteCell(int n) {
        byte[] a = new byte[2];
        a[0] = (byte) n;
        int k = 0;
        for (int i = 0; i < a[0]; i++) {
            k++;
        }
        return k;
    }
}
