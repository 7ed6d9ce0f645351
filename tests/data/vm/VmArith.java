/**
 * Integer, long, float and double arithmetic with the JVM's edge cases: wraparound, division by
 * zero, MIN_VALUE / -1, masked shift counts, NaN comparisons, saturating conversions.
 * Each `// inputs:` line lists instances separated by `;`.
 */
public class VmArith {
    // inputs: 1, 2; 2147483647, 1; -2147483648, -1; 0, 0; -7, 3
    static int add(int a, int b) {
        return a + b;
    }

    // inputs: 7, 2; -7, 2; 7, -2; 1, 0; -2147483648, -1; 0, 5
    static int div(int a, int b) {
        return a / b;
    }

    // inputs: 7, 2; -7, 2; 7, -2; 1, 0; -2147483648, -1
    static int rem(int a, int b) {
        return a % b;
    }

    // inputs: 1, 0; 1, 31; 1, 32; 1, 33; -1, -1; -8, 65
    static int shifts(int a, int s) {
        return (a << s) ^ (a >> s) ^ (a >>> s);
    }

    // inputs: 3, 4; -9223372036854775808, -1; 9223372036854775807, 1; 5, 0
    static long longDiv(long a, long b) {
        return a / b + a % b;
    }

    // inputs: 1, 0; 1, 63; 1, 64; -1, 65; 123456789, 7
    static long longShifts(long a, int s) {
        return (a << s) + (a >> s) + (a >>> s);
    }

    // inputs: 5, 7; 7, 5; 5, 5; -9223372036854775808, 9223372036854775807
    static int longCompare(long a, long b) {
        if (a < b) {
            return -1;
        }
        return a == b ? 0 : 1;
    }

    // inputs: 1.5, 2.25; NaN, 1.0; -0.0, 0.0; Infinity, -Infinity; 1e30, 1e30
    static float floatOps(float a, float b) {
        return a * b + a / b - a % b;
    }

    // inputs: 1.5, 2.25; NaN, 1.0; 1.0, NaN; -0.0, 0.0; 3.0, 3.0
    static int floatCompare(float a, float b) {
        int r = 0;
        if (a < b) {
            r += 1;
        }
        if (a > b) {
            r += 2;
        }
        if (a == b) {
            r += 4;
        }
        if (!(a <= b)) {
            r += 8;
        }
        return r;
    }

    // inputs: 1.5; -1.5; NaN; 3e9; -3e9; Infinity; 2147483647.5; -0.0
    static long conversions(double d) {
        int i = (int) d;
        long l = (long) d;
        float f = (float) d;
        int fi = (int) f;
        short s = (short) i;
        byte b = (byte) i;
        char c = (char) i;
        return i + l + fi + s + b + c;
    }

    // inputs: 0.1, 0.2; 1e308, 10.0; -1.0, 0.0; 5.5, 2.0; 0.0, 0.0
    static double doubleOps(double a, double b) {
        return a + b * a - a / b + a % b;
    }

    // inputs: 0; 1; 10; 46; 47
    static int fib(int n) {
        int a = 0;
        int b = 1;
        for (int i = 0; i < n; i++) {
            int t = a + b;
            a = b;
            b = t;
        }
        return a;
    }

    // inputs: 0; 1; 5; 20; -3
    static long factorial(int n) {
        if (n <= 1) {
            return 1;
        }
        return n * factorial(n - 1);
    }

    // inputs: 0; 1; 2; 3; 4; 5; 100
    static int switches(int k) {
        switch (k) {
            case 0:
                return 10;
            case 1:
                return 20;
            case 3:
                return 40;
            case 100:
                return 7;
            default:
                return -1;
        }
    }

    // inputs: 16.0; 2.0; -1.0; 0.0; NaN
    static double roots(double x) {
        return Math.sqrt(x) + Math.abs(x) + Math.max(x, 1.0) + Math.floor(x / 3);
    }

    // inputs: true, 3; false, 3; true, -1
    static int booleans(boolean flag, int n) {
        return flag ? n * 2 : n - 1;
    }

    // inputs: 65, 1; 122, 2; 0, 1; 65535, 1
    static char chars(char c, int d) {
        return (char) (c + d);
    }

    // inputs: 3; 1000000
    static int mixed(int n) {
        byte b = (byte) n;
        short s = (short) (n * 1000);
        char c = (char) (n * 70000);
        return b * 1000003 + s * 31 + c;
    }
}
