public class GcdMod {

    // |a % b| < |b| for b != 0, so |b| strictly decreases along the recursion
    // until it reaches the base case b == 0.
    // expect: terminating
    public static int gcd(int a, int b) {
        if (b == 0) {
            return a;
        }
        return gcd(b, a % b);
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
