/**
 * String concatenation (`invokedynamic` linked by `StringConcatFactory`). Its documented cost: the
 * `invokedynamic` instruction itself, plus the `String.valueOf(Object)` call (and so the `toString`)
 * of each reference argument that is not a `String`; joining strings, numbers, characters and
 * booleans counts nothing, and the result is one allocation. The profiler runs concatenations the
 * same way, and the validation VM counts the same.
 */
public class Concat {
    // expect: O(1)
    static String describe(int n) {
        return "n=" + n;
    }

    // expect: O(1)
    static String mixed(long m, int n) {
        return n + ":" + m + ", " + (char) ('a' + (n & 7)) + (n > m) + (byte) n + (short) m;
    }

    // expect: O(n)
    static int lengths(int n) {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += ("item " + i + ", " + (char) ('a' + i % 26)).length();
        }
        return total;
    }

    // expect: O(n)
    static String last(int n) {
        String s = "";
        for (int i = 0; i < n; i++) {
            s = s + i;
        }
        return s;
    }

    // An exception whose message is a concatenation: its constructor is charged too.
    // expect: O(1)
    static int checked(int i) {
        try {
            if (i < 0) {
                throw new IllegalArgumentException("negative: " + i);
            }
            return i;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}
