/** Examples of "Handling non-linear operations in the value analysis of COSTA" (Bytecode 2011). */
public class Paper {
    /** Fig. 1: computes the ceiling of log_b(x); the loop multiplies y by b > 1. */
    static int logLoop(int x, int b) {
        int y = 1;
        int z = 0;
        if (b > 1) {
            while (y < x) {
                z = z + 1;
                y = y * b;
            }
        }
        return z;
    }

    /** EX1: x & (x - 1) clears the lowest set bit. */
    static int ex1(int x) {
        int c = 0;
        while (x > 0) {
            x = x & (x - 1);
            c++;
        }
        return c;
    }

    /** EX2: Euclid's algorithm. */
    static int ex2(int a, int b) {
        while (b > 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /** EX3: digits of x in a radix r > 1. */
    static int ex3(int x, int r) {
        int d = 0;
        if (r > 1) {
            while (x > 0) {
                x = x / r;
                d++;
            }
        }
        return d;
    }

    /** EX4: halving by a shift. */
    static int ex4(int x) {
        int s = 0;
        while (x > 0) {
            x = x >> 1;
            s++;
        }
        return s;
    }
}
