/**
 * Non-termination fixtures whose loops depend on heap values (array lengths, array elements,
 * fields) that the loop does not change. Instance methods are run on a fresh
 * {@code new HeapLoops()}, whose fields all hold their default values (0 / false); the static
 * field {@code step} is never assigned, so it is always 0.
 */
public class HeapLoops {

    int count;
    boolean done;
    int ticks;
    int mask;

    static int step;

    // The array length never changes, so a.length > 1 stays true for an array of length 2.
    // expect: no  witness: new int[2]
    static int lengthSpin(int[] a) {
        int c = 0;
        while (a.length > 1) {
            c = c + 1;
        }
        return c;
    }

    // i moves in steps of 2 from 0, so it never equals an odd array length.
    // expect: no  witness: new int[3]
    static int oddLength(int[] a) {
        int n = a.length;
        int i = 0;
        while (i != n) {
            i = i + 2;
        }
        return i;
    }

    // a[0] is read each iteration but never written: x stays even and never equals the odd a[0].
    // expect: no  witness: new int[]{1}
    static int firstElem(int[] a) {
        int x = 0;
        while (x != a[0]) {
            x = x + 2;
        }
        return x;
    }

    // On a fresh object this.count == 0, so n = n + count never moves n towards 10.
    // expect: no  witness: 0
    int drain(int n) {
        while (n < 10) {
            n = n + this.count;
        }
        return n;
    }

    // The static field step is never assigned (it is 0), so x stays 0 and never reaches 10.
    // expect: no  witness: 0
    static int stepLoop(int x) {
        int s = step;
        while (x != 10) {
            x = x + s;
        }
        return x;
    }

    // When a[0] > key the continue skips i++, so the search is stuck at index 0.
    // expect: no  witness: new int[]{5}, 0
    static int search(int[] a, int key) {
        int i = 0;
        while (i < a.length) {
            if (a[i] == key) {
                return i;
            }
            if (a[i] > key) {
                continue;
            }
            i = i + 1;
        }
        return -1;
    }

    // With a single zero element the running sum stays 0 < 100 (i % 1 is always 0).
    // expect: no  witness: new long[1]
    static long sumUntil(long[] a) {
        long s = 0L;
        int i = 0;
        while (s < 100L) {
            s = s + a[i % a.length];
            i = i + 1;
        }
        return s;
    }

    // The loop writes a[0] = 0 and reads it back into i, so i stays 0 < a.length forever.
    // expect: no  witness: new int[1]
    static int fill(int[] a) {
        int i = 0;
        while (i < a.length) {
            a[i] = i;
            i = a[0];
        }
        return i;
    }

    // On a fresh object this.done is false and the loop only writes this.ticks.
    // expect: no  witness: 0
    void waitFlag(int t) {
        while (!this.done) {
            t = t + 1;
            this.ticks = t;
        }
    }

    // For two distinct arrays both first elements grow by 1, keeping their difference 1.
    // expect: no  witness: new int[]{0}, new int[]{1}
    static int alias(int[] a, int[] b) {
        while (a[0] != b[0]) {
            a[0] = a[0] + 1;
            b[0] = b[0] + 1;
        }
        return a[0];
    }

    // Either some element equals 7 (return) or i runs past the end (ArrayIndexOutOfBoundsException).
    // expect: yes
    static int scanForSeven(int[] a) {
        int i = 0;
        while (true) {
            if (a[i] == 7) {
                return i;
            }
            i = i + 1;
        }
    }

    // a.length - i reaches 0 after a.length iterations, and 100 / 0 throws ArithmeticException.
    // expect: yes
    static int reciprocalSum(int[] a) {
        int s = 0;
        int i = 0;
        while (true) {
            s = s + 100 / (a.length - i);
            i = i + 1;
        }
    }

    // Left shifts push every bit out, so x & this.mask becomes 0 within 32 steps for any mask.
    // expect: yes
    int shiftByMask(int x) {
        while ((x & this.mask) != 0) {
            x = x << 1;
        }
        return x;
    }

    // Writing to increasing indices runs past the end of any array within a.length + 1 steps.
    // expect: yes
    static void bumpAll(int[] a) {
        int i = 0;
        while (true) {
            a[i] = a[i] + 1;
            i = i + 1;
        }
    }
}
