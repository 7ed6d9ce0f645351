/**
 * Loops with several paths that no single linear function ranks: each path is ranked by one
 * component of a lexicographic ranking function, the earlier components not increasing on it.
 * They terminate. When no component increases on any path, the iterations are at most the sum of
 * what each component allows (`grid`); when a later component is reset (`rows`), they are not
 * bounded yet. A loop whose paths undo each other has no such function.
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

    // expect: terminating
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
}
