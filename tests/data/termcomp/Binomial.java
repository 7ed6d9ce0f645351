public class Binomial {

    // Both recursive calls lower n by 1; a call with 0 < k < n has n >= 2, and n <= 1
    // always hits the base case.
    // expect: terminating
    public static int choose(int n, int k) {
        if (k <= 0 || k >= n) {
            return 1;
        }
        return choose(n - 1, k - 1) + choose(n - 1, k);
    }

    // Straight-line code around one call to choose.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int k = Random.random();
        choose(n, k);
    }
}
