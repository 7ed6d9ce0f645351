/** Loops whose variables change sign or move toward zero from either side: ranked by |x|. */
public class Signs {
    // expect: O(x)
    static int alternate(int x) {
        int c = 0;
        while (x != 0) {
            if (x > 0) {
                x = -(x - 1);
            } else {
                x = -(x + 1);
            }
            c++;
        }
        return c;
    }

    // expect: O(x)
    static int towardZero(int x) {
        int c = 0;
        while (x != 0) {
            if (x > 0) {
                x--;
            } else {
                x++;
            }
            c++;
        }
        return c;
    }

    // expect: O(x + y)
    static int bothTowardZero(int x, int y) {
        int c = 0;
        while (x != 0 || y != 0) {
            if (x > 0) {
                x--;
            } else if (x < 0) {
                x++;
            } else if (y > 0) {
                y--;
            } else {
                y++;
            }
            c++;
        }
        return c;
    }

    // Euclid's algorithm on any ints: |x % y| < |y| in every sign case.
    // expect: O(b)
    static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    // expect: O(b)
    static int gcdRecursive(int a, int b) {
        return b == 0 ? a : gcdRecursive(b, a % b);
    }
}
