/**
 * Non-termination fixtures with nested loops: the outer or an inner loop runs forever.
 */
public class Nested {

    // The inner loop counts j up to i and i = j leaves i unchanged; i stays 0 < n forever.
    // expect: no  witness: 5
    static int innerCopies(int n) {
        int i = 0;
        while (i < n) {
            int j = 0;
            while (j < i) {
                j = j + 1;
            }
            i = j;
        }
        return i;
    }

    // In the first outer iteration the inner loop starts at odd m and steps by 2, missing 0.
    // expect: no  witness: 1, 1
    static int innerOdd(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            int j = m;
            while (j != 0) {
                j = j - 2;
            }
            c = c + 1;
        }
        return c;
    }

    // The inner loop always ends with y == 0, so x = x + y never changes a positive x.
    // expect: no  witness: 3
    static int innerRestores(int x) {
        while (x > 0) {
            int y = x;
            while (y > 0) {
                y = y - 1;
            }
            x = x + y;
        }
        return x;
    }

    // The inner loop sets i = -1 at j == n - 1, so the outer i++ brings i back to 0 every time.
    // expect: no  witness: 2
    static int resetOuter(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (j == n - 1) {
                    i = -1;
                }
                c = c + 1;
            }
        }
        return c;
    }

    // The outer body adds 2 and the inner loop subtracts 1 twice: i stays 0 < 5.
    // expect: no  witness: 0, 5
    static int cancel(int i, int n) {
        while (i < n) {
            i = i + 2;
            for (int k = 0; k < 2; k++) {
                i = i - 1;
            }
        }
        return i;
    }

    // At i == 0 the inner loop searches for the odd target 2 * 0 + x with an even j: never found.
    // expect: no  witness: 1, 1
    static int innerTarget(int n, int x) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            int j = 0;
            while (j != i * 2 + x) {
                j = j + 2;
            }
            c = c + j;
        }
        return c;
    }

    // x cycles through 0, 1, 2 (three +1 steps, then -3) and the labeled break needs x == 10.
    // expect: no  witness: 0, 10
    static int labeled(int x, int target) {
        outer:
        while (true) {
            for (int k = 0; k < 3; k++) {
                if (x == target) {
                    break outer;
                }
                x = x + 1;
            }
            x = x - 3;
        }
        return x;
    }

    // The inner loop drives j to 0 and i = j - 1 makes the outer i++ restore i == 0 < n.
    // expect: no  witness: 1L
    static long nestedLong(long n) {
        long c = 0L;
        for (long i = 0L; i < n; i++) {
            long j = i;
            while (j > 0L) {
                j = j - 1L;
            }
            i = j - 1L;
            c = c + 1L;
        }
        return c;
    }

    // The first outer iteration (i == 0) passes, the second starts the inner loop at odd j == 1.
    // expect: no  witness: 2
    static int secondIteration(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            int j = i;
            while (j != 0) {
                j = j - 2;
            }
            c = c + 1;
        }
        return c;
    }
}
