public class CountDownTwo {

    // n decreases by 2 while n > 0; n - 2 >= -1 cannot underflow.
    // expect: terminating
    public static int down(int n) {
        int steps = 0;
        while (n > 0) {
            n = n - 2;
            steps++;
        }
        return steps;
    }

    // Straight-line code around one call to down.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        down(Random.random());
    }
}
