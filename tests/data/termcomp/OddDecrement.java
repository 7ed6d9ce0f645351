public class OddDecrement {

    // x - 2 keeps the parity of x, also across wrap-around (2^32 is even), so an odd
    // x never reaches 0.
    // Input: args = {"a"} (x = 1).
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int x = Random.random();
        while (x != 0) {
            x = x - 2;
        }
    }
}
