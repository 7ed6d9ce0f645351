/**
 * Loops whose bound is a product of values they do not change. The product is computed anew on
 * every iteration; it is the same each time, and at most the product of the factors' sizes, also
 * when it wraps.
 */
public class Products {
    // expect: O(1)
    Products() {
    }

    // expect: O(m*n)
    static int upToProduct(int n, int m) {
        int steps = 0;
        for (int i = 0; i < n * m; i++) {
            steps++;
        }
        return steps;
    }

    // expect: O(n^2)
    static int upToSquare(int n) {
        int steps = 0;
        for (int i = 0; i < n * n; i++) {
            steps++;
        }
        return steps;
    }

    // Up to a product of longs.
    // expect: O(m*n)
    static long downFromProduct(long n, long m) {
        long steps = 0;
        for (long i = 0; n * m > i; i += 1) {
            steps++;
        }
        return steps;
    }
}
