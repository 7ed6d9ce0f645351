/**
 * Implicit exceptions under the allocations model: the JVM allocates the exception object of an
 * `ArrayIndexOutOfBoundsException`, `ArithmeticException`, `NullPointerException` or
 * `NegativeArraySizeException` it raises, so a bound must count it (validated with
 * `--cost-model allocations`; the analysis once missed it). Multi-dimensional arrays allocate
 * products of their lengths (and the levels above a negative inner length before the exception);
 * `clone` is a native that allocates (no bound), `getClass` one that does not.
 */
public class ImplicitAllocations {
    static int safeGet(int[] a, int i) {
        try {
            return a[i];
        } catch (ArrayIndexOutOfBoundsException e) {
            return -1;
        }
    }
    static int guardedDivide(int n, int d) {
        try {
            return n / d;
        } catch (ArithmeticException e) {
            return 0;
        }
    }
    static int[] make(int n) {
        return new int[n];
    }
    static int[][] grid(int n, int m) {
        return new int[n][m];
    }
    static int[][][] cube(int n) {
        return new int[n][2][n];
    }
    static int[] copy(int[] a) {
        return a.clone();
    }
    static Object same(Object o) {
        return o.getClass();
    }
}
