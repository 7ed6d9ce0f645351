public class GcdSub {

    // Non-positive arguments return at once; afterwards both values stay positive
    // and a + b drops by the smaller one (at least 1) in every iteration.
    // expect: terminating
    public static int gcd(int a, int b) {
        if (a <= 0 || b <= 0) {
            return 0;
        }
        while (a != b) {
            if (a > b) {
                a = a - b;
            } else {
                b = b - a;
            }
        }
        return a;
    }

    // Straight-line code around one call to gcd.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int a = Random.random();
        int b = Random.random();
        gcd(a, b);
    }
}
