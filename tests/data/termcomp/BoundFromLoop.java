public class BoundFromLoop {

    // The first loop is counted by n; the bound m of the second loop is fixed once it
    // starts (it may have wrapped negative, then the loop is skipped): m - k decreases.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        int m = 0;
        for (int i = 0; i < n; i++) {
            m = m + i;
        }
        int k = 0;
        while (k < m) {
            k++;
        }
    }
}
