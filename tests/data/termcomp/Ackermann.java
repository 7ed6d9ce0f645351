public class Ackermann {

    // Lexicographic (m, n): each call either lowers m, or keeps m and lowers n;
    // the inner call's result only feeds a call with smaller m.
    // expect: terminating
    public static int ack(int m, int n) {
        if (m <= 0) {
            return n + 1;
        }
        if (n <= 0) {
            return ack(m - 1, 1);
        }
        return ack(m - 1, ack(m, n - 1));
    }

    // Straight-line code around one call to ack.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int m = Random.random();
        int n = Random.random();
        ack(m, n);
    }
}
