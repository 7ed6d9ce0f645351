/**
 * Loops with several paths that no single linear function ranks: each path is ranked by one
 * component of a lexicographic ranking function, the earlier components not increasing on it.
 * They terminate. When no component increases on any path, the iterations are at most the sum of
 * what each component allows (`grid`). When a later component is raised by a path of an earlier
 * one, each such raise adds what it may raise it by, bounded in the entry values: a reset to a
 * parameter (`rows`, `odometer`), to what an earlier counter holds (`triangle`), or a step by a
 * constant (`refill`). A loop whose paths undo each other has no such function.
 */
public class Lexicographic {
    // expect: O(1)
    Lexicographic() {
    }

    // expect: O(m + n + x + y)
    static int grid(int x, int n, int y, int m) {
        int steps = 0;
        while (x < n) {
            if (y < m) {
                y++;
            } else {
                x++;
            }
            steps++;
        }
        return steps;
    }

    // x rows of m + 1 steps each after the first: x*(m + 1) + y + 1 iterations.
    // expect: O(m*x + y)
    static int rows(int x, int y, int m) {
        int steps = 0;
        while (x > 0) {
            if (y > 0) {
                y--;
            } else {
                x--;
                y = m;
            }
            steps++;
        }
        return steps;
    }

    // Loops forever once y reaches m while x < n.
    // expect: unbounded
    static int seesaw(int x, int n, int y, int m) {
        while (x < n) {
            if (y < m) {
                y++;
            } else {
                y--;
            }
        }
        return y;
    }

    // Each row is one shorter than the one before: about x^2/2 + y iterations.
    // expect: O(x^2 + y)
    static int triangle(int x, int y) {
        int steps = 0;
        while (x > 0) {
            if (y > 0) {
                y--;
            } else {
                x--;
                y = x;
            }
            steps++;
        }
        return steps;
    }

    // Three counters, the later ones reset to m when an earlier one falls.
    // expect: O(m*y + m^2*x + z)
    static int odometer(int x, int y, int z, int m) {
        int steps = 0;
        while (x > 0) {
            if (z > 0) {
                z--;
            } else if (y > 0) {
                y--;
                z = m;
            } else {
                x--;
                y = m;
                z = m;
            }
            steps++;
        }
        return steps;
    }

    // The inner counter gets 3 more each time it runs out: at most 4n + k + 1 iterations.
    // expect: O(k + n)
    static int refill(int n, int k) {
        int steps = 0;
        while (n > 0) {
            if (k > 0) {
                k--;
            } else {
                n--;
                k = k + 3;
            }
            steps++;
        }
        return steps;
    }
}
