/**
 * `assert` statements and array clones. The JVM runs with assertions off unless asked otherwise
 * (`-ea`), and so do the profiler and the validation VM: javac's `$assertionsDisabled` flag is
 * true, and the branch that builds the `AssertionError` (whose message may call any `toString`)
 * never runs. The flag's read and test are still counted. An array's `clone` is the JVM's own code:
 * no bytecodes, one invocation.
 */
public class Assertions {
    // expect: O(|a|)
    static int sumOfNonNegatives(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            assert a[i] >= 0 : a;
            s += a[i];
        }
        return s;
    }

    // expect: O(1)
    static int checked(int n) {
        assert n > 0 : "n must be positive, not " + n;
        return n - 1;
    }

    // expect: O(|a|)
    static int[] doubled(int[] a) {
        int[] b = a.clone();
        for (int i = 0; i < b.length; i++) {
            b[i] *= 2;
        }
        return b;
    }
}
