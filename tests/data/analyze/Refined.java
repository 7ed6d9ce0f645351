/**
 * Loops whose single invariant at the head loses what each branch keeps: the states after each
 * transition, kept apart and computed from where the loop is entered, show which transitions
 * a run can take from where (a wrap of `x + 1` that no run reaches drops out).
 */
public class Refined {
    // expect: O(1)
    Refined() {
    }

    // Gopan and Reps (CAV 2006): y climbs with x up to 50, then falls below zero; 102 iterations.
    // The head's invariant does not bound x (so x + 1 might wrap), but y = x before the turn and
    // x + y = 102 after it.
    // expect: O(1)
    static int climbThenFall() {
        int x = 0;
        int y = 0;
        while (true) {
            if (x <= 50) {
                y++;
            } else {
                y--;
            }
            if (y < 0) {
                break;
            }
            x++;
        }
        return x;
    }

    // The same with the turn at n (0 to 1000): 2n + 3 iterations.
    // expect: O(n)
    static int climbThenFallAt(int n) {
        if (n < 0 || n > 1000) {
            return 0;
        }
        int x = 0;
        int y = 0;
        while (true) {
            if (x <= n) {
                y++;
            } else {
                y--;
            }
            if (y < 0) {
                break;
            }
            x++;
        }
        return x;
    }
}
