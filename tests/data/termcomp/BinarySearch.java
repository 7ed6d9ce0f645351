public class BinarySearch {

    // hi - lo decreases: mid lies in [lo, hi] and the next interval excludes mid.
    // expect: terminating
    public static int search(int[] a, int key) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = lo + (hi - lo) / 2;
            if (a[mid] == key) {
                return mid;
            }
            if (a[mid] < key) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return -1;
    }

    // Fill loop counted by the array length (a sorted array), then one search.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int[] a = new int[Random.random()];
        for (int i = 0; i < a.length; i++) {
            a[i] = 2 * i;
        }
        search(a, Random.random());
    }
}
