/**
 * Searches from a start index, written the way the JDK and commons-lang write them: the start is
 * clamped into the array, so each search scans at most the array, whatever the start.
 */
public class Searches {

    // expect: O(|a|)
    static int indexOfFrom(int[] a, int v, int from) {
        if (from < 0) {
            from = 0;
        }
        for (int i = from; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    // expect: O(|a|)
    static int lastIndexOfFrom(int[] a, int v, int from) {
        if (from < 0) {
            return -1;
        } else if (from >= a.length) {
            from = a.length - 1;
        }
        for (int i = from; i >= 0; i--) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    // From the last index: `Integer.MAX_VALUE` as the start is clamped to the array's end.
    // expect: O(|a|)
    static int lastIndexOf(int[] a, int v) {
        return lastIndexOfFrom(a, v, Integer.MAX_VALUE);
    }

    // The longest common prefix of two arrays: at most the shorter one's length.
    // expect: O(|a|)
    static int commonPrefix(int[] a, int[] b) {
        int n = Math.min(a.length, b.length);
        int i = 0;
        while (i < n && a[i] == b[i]) {
            i++;
        }
        return i;
    }
}
