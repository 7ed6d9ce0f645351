public class NestedTriangle {

    // Outer loop: n - i decreases; inner loop: i - j decreases and i is fixed inside it.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int count = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                count++;
            }
        }
    }
}
