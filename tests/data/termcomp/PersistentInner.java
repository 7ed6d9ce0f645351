public class PersistentInner {

    // j is never reset: the inner loop runs at most n times in total. Outer loop:
    // n - i decreases; inner loop: i - j decreases with i fixed.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int j = 0;
        int work = 0;
        for (int i = 0; i < n; i++) {
            while (j < i) {
                j++;
                work++;
            }
        }
    }
}
