public class DigitSum {

    // Division truncates towards zero, so |n| strictly decreases until n == 0,
    // also for negative n.
    // expect: terminating
    public static int digits(int n) {
        int s = 0;
        while (n != 0) {
            s = s + n % 10;
            n = n / 10;
        }
        return s;
    }

    // Straight-line code around one call to digits.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int x = Random.random();
        digits(x * 1234567);
    }
}
