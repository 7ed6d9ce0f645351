/** Profiler benchmark workload: tight loops over arrays (matrix product, sieve, prefix sums, a stencil). */
public class Loops {
    static double matrixProduct(int n) {
        double[][] a = new double[n][n], b = new double[n][n], c = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a[i][j] = i + j;
                b[i][j] = i - j;
            }
        }
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                double aik = a[i][k];
                for (int j = 0; j < n; j++) {
                    c[i][j] += aik * b[k][j];
                }
            }
        }
        return c[n / 2][n / 3];
    }

    static int sieve(int limit) {
        boolean[] composite = new boolean[limit + 1];
        int primes = 0;
        for (int i = 2; i <= limit; i++) {
            if (!composite[i]) {
                primes++;
                for (long j = (long) i * i; j <= limit; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return primes;
    }

    static long prefixSums(int n, int rounds) {
        long[] values = new long[n];
        long total = 0;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < n; i++) {
                values[i] = (i * 31L + r) % 1000;
            }
            for (int i = 1; i < n; i++) {
                values[i] += values[i - 1];
            }
            total += values[n - 1];
        }
        return total;
    }

    static double stencil(int n, int steps) {
        double[] current = new double[n], next = new double[n];
        current[n / 2] = 1000;
        for (int s = 0; s < steps; s++) {
            for (int i = 1; i < n - 1; i++) {
                next[i] = 0.25 * current[i - 1] + 0.5 * current[i] + 0.25 * current[i + 1];
            }
            double[] swap = current;
            current = next;
            next = swap;
        }
        return current[n / 2];
    }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        System.out.println(matrixProduct(220) + " " + sieve(4_000_000 * scale) + " "
                + prefixSums(100_000, 60 * scale) + " " + stencil(2_000, 2_000 * scale));
    }
}
