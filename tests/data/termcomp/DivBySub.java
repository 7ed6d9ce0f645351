public class DivBySub {

    // While x >= y > 0, x stays positive and drops by y >= 1 each iteration;
    // x - y >= 0 cannot overflow.
    // expect: terminating
    public static int div(int x, int y) {
        int q = 0;
        while (x >= y && y > 0) {
            x = x - y;
            q = q + 1;
        }
        return q;
    }

    // Straight-line code around one call to div.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int x = Random.random();
        int y = Random.random();
        div(x, y);
    }
}
