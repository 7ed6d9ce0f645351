/**
 * Loops whose progress rests on a heap value read twice (tested, then used), on a value computed
 * anew on every iteration from inputs the loop never changes, or on an array cell only the loop
 * writes.
 */
public class HeapRereads {

    // A jump table: each cell, tested non-negative, moves the index past itself.
    // expect: O(|a|)
    static int jumps(int[] a) {
        int i = 0;
        int steps = 0;
        while (i < a.length) {
            if (a[i] < 0) {
                break;
            }
            i = i + 1 + a[i];
            steps++;
        }
        return steps;
    }

    // The bound n * m is recomputed on every iteration, the same each time: at most |n|·|m|
    // iterations, also when the product wraps.
    // expect: O(m*n)
    static int product(int n, int m) {
        int c = 0;
        for (int i = 0; i < n * m; i++) {
            c++;
        }
        return c;
    }

    // A counter kept in an array cell that only the loop writes.
    // expect: terminating
    static int countDownCell(int[] cell) {
        int steps = 0;
        while (cell[0] > 0) {
            cell[0]--;
            steps++;
        }
        return steps;
    }
}
