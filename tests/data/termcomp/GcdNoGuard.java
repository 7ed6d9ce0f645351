public class GcdNoGuard {

    // Without a positivity check, a == 0 < b makes b = b - 0 forever.
    // Input: a = 0, b = 1.
    // expect: nonterminating
    public static int gcd(int a, int b) {
        while (a != b) {
            if (a > b) {
                a = a - b;
            } else {
                b = b - a;
            }
        }
        return a;
    }

    // An empty first argument gives a = 0, and gcd(0, 1) loops.
    // Input: args = {"", "a"}.
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int a = Random.random();
        int b = Random.random();
        gcd(a, b);
    }
}
