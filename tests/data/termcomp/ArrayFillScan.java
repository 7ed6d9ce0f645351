public class ArrayFillScan {

    // a.length - i decreases; the array length cannot change.
    // expect: terminating
    public static int max(int[] a) {
        int best = a[0];
        for (int i = 1; i < a.length; i++) {
            if (a[i] > best) {
                best = a[i];
            }
        }
        return best;
    }

    // The fill loop is counted by the length of the freshly allocated array.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[Random.random()];
        for (int i = 0; i < a.length; i++) {
            a[i] = Random.random();
        }
        max(a);
    }
}
