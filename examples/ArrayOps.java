/**
 * Array algorithms whose cost depends on the array length.
 *
 * Each method reads or writes an int array in a loop; jresa expresses the
 * bounds in terms of the array length.
 */
public class ArrayOps {

    /** Sum of all elements: one pass over the array. */
    public static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    /** Largest element (expects a non-empty array): one pass. */
    public static int max(int[] a) {
        int m = a[0];
        for (int i = 1; i < a.length; i++) {
            if (a[i] > m) {
                m = a[i];
            }
        }
        return m;
    }

    /** Reverses the array in place: a.length / 2 swaps. */
    public static void reverse(int[] a) {
        int i = 0;
        int j = a.length - 1;
        while (i < j) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
    }

    /** Bubble sort in place: quadratic number of comparisons. */
    public static void bubbleSort(int[] a) {
        for (int i = 0; i < a.length - 1; i++) {
            for (int j = 0; j < a.length - 1 - i; j++) {
                if (a[j] > a[j + 1]) {
                    int t = a[j];
                    a[j] = a[j + 1];
                    a[j + 1] = t;
                }
            }
        }
    }

    /** Binary search in a sorted array: logarithmic number of iterations. */
    public static int binarySearch(int[] a, int key) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < key) {
                lo = mid + 1;
            } else if (a[mid] > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /** Linear search with an early return: at most a.length iterations. */
    public static int indexOf(int[] a, int x) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == x) {
                return i;
            }
        }
        return -1;
    }

    private static String show(int[] a) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < a.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(a[i]);
        }
        return sb.append(']').toString();
    }

    public static void main(String[] args) {
        int[] a = {5, 3, 9, 1, 7, 2};
        System.out.println("a               = " + show(a));
        System.out.println("sum(a)          = " + sum(a));
        System.out.println("max(a)          = " + max(a));
        System.out.println("indexOf(a, 9)   = " + indexOf(a, 9));
        System.out.println("indexOf(a, 4)   = " + indexOf(a, 4));
        reverse(a);
        System.out.println("reverse(a)      = " + show(a));
        bubbleSort(a);
        System.out.println("bubbleSort(a)   = " + show(a));
        System.out.println("binarySearch 7  = " + binarySearch(a, 7));
        System.out.println("binarySearch 4  = " + binarySearch(a, 4));
    }
}
