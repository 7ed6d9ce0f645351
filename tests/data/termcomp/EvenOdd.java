public class EvenOdd {

    // Mutual recursion with isOdd: n decreases by 1 per call, n <= 0 is a base case.
    // expect: terminating
    public static boolean isEven(int n) {
        if (n <= 0) {
            return n == 0;
        }
        return isOdd(n - 1);
    }

    // Mutual recursion with isEven: n decreases by 1 per call, n <= 0 is a base case.
    // expect: terminating
    public static boolean isOdd(int n) {
        if (n <= 0) {
            return false;
        }
        return isEven(n - 1);
    }

    // Straight-line code around one call to isEven.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        isEven(Random.random());
    }
}
