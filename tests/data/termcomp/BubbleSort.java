public class BubbleSort {

    // Outer: a.length - i decreases; inner: a.length - 1 - i - j decreases; swaps
    // change elements, never the length.
    // expect: terminating
    public static void sort(int[] a) {
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a.length - 1 - i; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                }
            }
        }
    }

    // Fill loop counted by the array length, then one call to sort.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[Random.random()];
        for (int i = 0; i < a.length; i++) {
            a[i] = Random.random();
        }
        sort(a);
    }
}
