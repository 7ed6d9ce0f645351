public class BreakLoop {

    // The first break fires once i reaches n; n - i decreases and i < n rules out overflow.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int limit = Random.random();
        int i = 0;
        while (true) {
            if (i >= n) {
                break;
            }
            if (i == limit) {
                break;
            }
            i++;
        }
    }
}
