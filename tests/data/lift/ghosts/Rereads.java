/** Repeated reads, values computed from invariant inputs, and an array cell the loop owns. */
public class Rereads {
    int step;

    static int jumps(int[] a) {
        int i = 0;
        while (i < a.length) {
            if (a[i] < 0) {
                break;
            }
            i = i + 1 + a[i];
        }
        return i;
    }

    int twice(int n) {
        if (this.step > 0) {
            return n + this.step;
        }
        return n;
    }

    static int product(int n, int m) {
        int c = 0;
        for (int i = 0; i < n * m; i++) {
            c++;
        }
        return c;
    }

    static int countDownCell(int[] cell) {
        int steps = 0;
        while (cell[0] > 0) {
            cell[0]--;
            steps++;
        }
        return steps;
    }
}
