public class SumAcc {

    // Tail recursion with an accumulator: n decreases by 1, n <= 0 is the base case.
    // expect: terminating
    public static int sum(int n, int acc) {
        if (n <= 0) {
            return acc;
        }
        return sum(n - 1, acc + n);
    }

    // Straight-line code around one call to sum.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        sum(Random.random(), 0);
    }
}
