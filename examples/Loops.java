/**
 * Loop shapes with simple, input-dependent bounds.
 *
 * Each static method below contains one classic loop pattern whose cost
 * depends on its integer arguments.  Run jresa on the compiled class to see
 * how each bound is expressed in terms of the parameters.
 */
public class Loops {

    /** A single counting loop: n iterations. */
    public static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    /** Two nested loops: n * m iterations of the inner body. */
    public static int nested(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                c++;
            }
        }
        return c;
    }

    /** Inner loop bounded by the outer index: n * (n - 1) / 2 inner iterations. */
    public static int triangle(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                c++;
            }
        }
        return c;
    }

    /** Halving loop: about log2(n) iterations. */
    public static int log2(int n) {
        int k = 0;
        while (n > 1) {
            n = n / 2;
            k++;
        }
        return k;
    }

    /** A do-while loop: the body runs at least once, then max(n, 1) times in total. */
    public static int countDown(int n) {
        int steps = 0;
        do {
            n--;
            steps++;
        } while (n > 0);
        return steps;
    }

    /** Euclid's algorithm with the remainder operator (expects a, b >= 0). */
    public static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    public static void main(String[] args) {
        System.out.println("sum(10)        = " + sum(10));
        System.out.println("nested(3, 4)   = " + nested(3, 4));
        System.out.println("triangle(5)    = " + triangle(5));
        System.out.println("log2(1024)     = " + log2(1024));
        System.out.println("countDown(5)   = " + countDown(5));
        System.out.println("gcd(84, 36)    = " + gcd(84, 36));
    }
}
