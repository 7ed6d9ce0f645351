/**
 * Logarithmic costs of values no input bounds: the logarithm of such a value is at most that of
 * the largest value its type allows (about 31 for an `int`). The JDK's `Integer.toString` (a
 * library summary) divides a value it negated, which its input bounds only one way; a caller
 * passing an array's element bounds nothing of it at all.
 */
public class TypeRanges {
    // The number of decimal digits of i.
    // expect: O(log(i))
    static int digits(int i) {
        int n = 1;
        if (i > 0) {
            i = -i;
        }
        while (i <= -10) {
            i = i / 10;
            n++;
        }
        return n;
    }

    // expect: O(log(i))
    static String decimal(int i) {
        return Integer.toString(i);
    }

    // Each element's digits: a bounded number of divisions each, whatever the array holds.
    // expect: O(|values|)
    static int allDigits(int[] values) {
        int total = 0;
        for (int k = 0; k < values.length; k++) {
            total += digits(values[k]);
        }
        return total;
    }
}
