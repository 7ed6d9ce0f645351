/**
 * Loops whose iterations go through phases that no single ranking function covers: which
 * transition may follow which splits them into components, each ranked on its own and bounded at
 * the values it starts from (the loop's entry, or what an earlier phase leaves).
 */
public class Phases {
    // expect: O(1)
    Phases() {
    }

    // Towards a target from either side: x - k falls above it, k - x below it, and no step
    // crosses it.
    // expect: O(k + x)
    static int toward(int k, int x) {
        int steps = 0;
        while (x != k) {
            if (x > k) {
                x = x - 1;
            } else {
                x = x + 1;
            }
            steps++;
        }
        return steps;
    }

    // A reset that happens at most once, then a climb from 0 (or from x) to m.
    // expect: O(m + x)
    static int resetThenClimb(int x, int m) {
        int steps = 0;
        if (m > 0) {
            while (x != m) {
                if (x > m) {
                    x = 0;
                } else {
                    x++;
                }
                steps++;
            }
        }
        return steps;
    }

    // Up to n, one turn, then down below zero: three phases (a flag, not a counter, tells them
    // apart).
    // expect: O(n + x)
    static int upThenDown(int x, int n) {
        int steps = 0;
        boolean up = true;
        while (x >= 0) {
            if (up) {
                if (x < n) {
                    x++;
                } else {
                    up = false;
                }
            } else {
                x--;
            }
            steps++;
        }
        return steps;
    }
}
