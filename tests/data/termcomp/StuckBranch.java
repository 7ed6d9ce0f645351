public class StuckBranch {

    // For odd x > 1 and y == 0 the odd branch leaves x unchanged.
    // Input: x = 3, y = 0.
    // expect: nonterminating
    public static int reduce(int x, int y) {
        int steps = 0;
        while (x > 1) {
            if (x % 2 == 0) {
                x = x / 2;
            } else {
                x = x + y;
            }
            steps++;
        }
        return steps;
    }

    // reduce(3, 0) loops.
    // Input: args = {"aaa", ""}.
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int x = Random.random();
        int y = Random.random();
        reduce(x, y);
    }
}
