public class StepOverBound {

    // i stays even (also after wrap-around), so it never equals an odd n.
    // Input: args = {"aaa"} (n = 3).
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int steps = 0;
        for (int i = 0; i != n; i += 2) {
            steps++;
        }
    }
}
