public class DoWhileDown {

    // The body runs once even for x <= 0; x - 3 may wrap for x near Integer.MIN_VALUE
    // and give a large positive x, but from then on x > 0 drops by 3 without wrapping.
    // expect: terminating
    public static int steps(int x) {
        int c = 0;
        do {
            x = x - 3;
            c++;
        } while (x > 0);
        return c;
    }

    // Straight-line code around one call to steps.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        steps(Random.random());
    }
}
