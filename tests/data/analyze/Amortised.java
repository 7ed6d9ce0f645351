/**
 * Inner loops whose counter persists across the outer loop's iterations: together they run at
 * most as often as the counter can move, whatever sign it starts with, so the nest costs the sum
 * of the two ranges, not their product.
 */
public class Amortised {
    // expect: O(1)
    Amortised() {
    }

    // The inner loop runs y down to zero once; when y starts below zero it never runs.
    // expect: O(x + y)
    static int drainOnce(int x, int y) {
        int steps = 0;
        while (x > 0) {
            while (y > 0) {
                y--;
                steps++;
            }
            x--;
            steps++;
        }
        return steps;
    }

    // The inner loop climbs y up to m once; when m is below zero it never runs.
    // expect: O(m + n)
    static int climbOnce(int n, int m) {
        int x = 0, y = 0, steps = 0;
        while (x < n) {
            while (y < m) {
                y++;
                steps++;
            }
            x++;
            steps++;
        }
        return steps;
    }

    // The inner loop follows the outer counter: j never passes i, which never passes n.
    // expect: O(n)
    static int follow(int n) {
        int j = 0, steps = 0;
        for (int i = 0; i < n; i++) {
            while (j < i) {
                j++;
                steps++;
            }
        }
        return steps;
    }

    // The inner counter restarts on every outer iteration: the nest is a product.
    // expect: O(m*n)
    static int restart(int n, int m) {
        int steps = 0;
        for (int x = 0; x < n; x++) {
            for (int y = 0; y < m; y++) {
                steps++;
            }
        }
        return steps;
    }

    // The inner loop climbs y towards m, stopping early where a bit of the seed is clear: its
    // guard on the outer loop's values (y < m) is only implied by where the climb ends.
    // expect: O(m + n)
    static int climbWhileSet(int n, int m, int seed) {
        int x = 0, y = 0, steps = 0;
        while (x < n) {
            while (y < m && ((seed >>> (steps & 31)) & 1) != 0) {
                y++;
                steps++;
            }
            x++;
            steps++;
        }
        return steps;
    }

    // A window over the array: lo only moves forward and never passes hi + 1.
    // expect: O(|a|)
    static int window(int[] a, int limit) {
        int lo = 0, sum = 0, widest = 0;
        for (int hi = 0; hi < a.length; hi++) {
            sum += a[hi];
            while (sum > limit && lo <= hi) {
                sum -= a[lo];
                lo++;
            }
            widest = Math.max(widest, hi - lo + 1);
        }
        return widest;
    }
}
