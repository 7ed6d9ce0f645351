public class Halving {

    // x > 1 implies x / 2 < x, and x / 2 >= 1, so x strictly decreases.
    // expect: terminating
    public static int log2(int x) {
        int c = 0;
        while (x > 1) {
            x = x / 2;
            c++;
        }
        return c;
    }

    // Straight-line code around one call to log2.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        log2(Random.random());
    }
}
