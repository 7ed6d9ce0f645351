public class RecArraySum {

    // a.length - i decreases; i < a.length rules out overflow of i + 1. A negative i
    // ends with ArrayIndexOutOfBoundsException, a null array with NullPointerException.
    // expect: terminating
    public static int sum(int[] a, int i) {
        if (i >= a.length) {
            return 0;
        }
        return a[i] + sum(a, i + 1);
    }

    // The fill loop is counted by the array length, then one call to sum.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[Random.random()];
        for (int i = 0; i < a.length; i++) {
            a[i] = Random.random();
        }
        sum(a, 0);
    }
}
