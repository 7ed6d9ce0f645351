public class CountUp {

    // n - i decreases by 1; i < n <= Integer.MAX_VALUE, so i + 1 never overflows.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int i = 0;
        int sum = 0;
        while (i < n) {
            sum = sum + i;
            i = i + 1;
        }
    }
}
