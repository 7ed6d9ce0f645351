/**
 * Loops ranked in phases (Ben-Amram and Genaim): `y` decreases first, then `x`, which grows
 * while `y` is positive. A sum that may wrap around is followed by its cases; the case where
 * `x + y` wraps leaves `x` negative, so no iteration follows it.
 */
public class Multiphase {
    // expect: O(1)
    Multiphase() {
    }

    // expect: O(x + y)
    static int phases(int x, int y) {
        int steps = 0;
        while (x >= 0) {
            x = x + y;
            y = y - 1;
            steps++;
        }
        return steps;
    }

    // expect: O(x + z)
    static int countdown(int x, int z) {
        int steps = 0;
        while (x > 0) {
            x = x - z;
            z = z + 1;
            steps++;
        }
        return steps;
    }
}
