/**
 * Loops that call small methods of the JDK: the library code is lifted from the classpath and
 * analysed like the program's own (here `Math.sqrt` reaches the native `StrictMath.sqrt`, and
 * `Math.cbrt` the `FdLibm` code behind `StrictMath.cbrt`).
 */
public class Library {
    // expect: O(|v|)
    static double norm(int[] v) {
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            s += (double) v[i] * v[i];
        }
        return Math.sqrt(s);
    }

    // expect: O(n)
    static double cubeRoots(int n) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.cbrt(i);
        }
        return s;
    }

    // expect: O(n)
    static int floorMods(int n, int m) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.floorMod(i - n, m == 0 ? 1 : m);
        }
        return s;
    }

    // expect: O(|a|)
    static int bits(int[] a) {
        int s = 0;
        for (int x : a) {
            s += Integer.bitCount(x) + Long.numberOfTrailingZeros(x);
        }
        return s;
    }
}
