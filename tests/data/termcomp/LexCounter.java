public class LexCounter {

    // Lexicographic ranking (x, y): while y > 0 only y decreases; otherwise x
    // decreases and y is reset to the new x. No single linear function of x, y works.
    // expect: terminating
    public static int run(int x, int y) {
        int steps = 0;
        while (x > 0) {
            if (y > 0) {
                y = y - 1;
            } else {
                x = x - 1;
                y = x;
            }
            steps++;
        }
        return steps;
    }

    // Straight-line code around one call to run.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int x = Random.random();
        int y = Random.random();
        run(x, y);
    }
}
