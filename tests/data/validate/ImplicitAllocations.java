/**
 * Implicit exceptions under the allocations model: the JVM allocates the exception object of an
 * `ArrayIndexOutOfBoundsException`, `ArithmeticException`, `NullPointerException` or
 * `NegativeArraySizeException` it raises, so a bound must count it (validated with
 * `--cost-model allocations`; the analysis once missed it).
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
}
