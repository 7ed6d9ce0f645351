public class MultPow {

    // b decreases by 1 while positive.
    // expect: terminating
    public static int mult(int a, int b) {
        int r = 0;
        while (b > 0) {
            r = r + a;
            b--;
        }
        return r;
    }

    // e - i decreases; each iteration calls the terminating mult.
    // expect: terminating
    public static int pow(int base, int e) {
        int r = 1;
        for (int i = 0; i < e; i++) {
            r = mult(r, base);
        }
        return r;
    }

    // Straight-line code around one call to pow.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int b = Random.random();
        int e = Random.random();
        pow(b, e);
    }
}
