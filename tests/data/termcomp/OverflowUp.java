public class OverflowUp {

    // i only grows while positive; after at most 2^31 steps i++ wraps from
    // Integer.MAX_VALUE to Integer.MIN_VALUE and the guard fails.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int i = Random.random();
        while (i > 0) {
            i++;
        }
    }
}
