/**
 * Cost-analysis literature: polynomial and log-linear loop nests, the staple of the cost-analysis
 * benchmarks (the PUBS / COSTA examples of Albert, Arenas, Genaim, Puebla, JAR 2011; the
 * ranking-function nests of Alias, Darte, Feautrier, Gonnord, SAS 2010; the sequential size
 * bounds of Brockschmidt et al., KoAT, TOPLAS 2016), with the Java wrap-around traps of square
 * and stride guards.
 */
public class CostPolynomial {

    // Alias, Darte, Feautrier, Gonnord, SAS 2010 style triangular nest (ranking (i, j)):
    // n(n - 1)/2 inner steps.
    // expect: O(n^2)
    static int triangular(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                c++;
            }
        }
        return c;
    }

    // PUBS (Albert et al., JAR 2011) rectangular nest over two parameters.
    // expect: O(m*n)
    static int rectangle(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                c++;
            }
        }
        return c;
    }

    // Triple triangular nest (the tetrahedral numbers): n(n - 1)(n - 2)/6 innermost steps.
    // expect: O(n^3)
    static int tetrahedral(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                for (int k = 0; k < j; k++) {
                    c++;
                }
            }
        }
        return c;
    }

    // The square-root loop `for (i = 0; i * i <= n; i++)` in int: with n == Integer.MAX_VALUE,
    // i * i (wrapped) is an int, so it is always <= n, and the loop never ends.
    // expect: nonterminating
    static int sqrtLoop(int n) {
        int c = 0;
        for (int i = 0; i * i <= n; i++) {
            c++;
        }
        return c;
    }

    // The square-root loop with the square in long: i <= 46341, nothing wraps, sqrt(n) + 1
    // steps. The vocabulary has no sqrt; O(n) is the least class in it that bounds sqrt(n)
    // (O(log(n)) does not).
    // expect: O(n)
    static int sqrtLoopLong(int n) {
        int c = 0;
        for (int i = 0; (long) i * i <= n; i++) {
            c++;
        }
        return c;
    }

    // The geometric nest: the inner loop runs i = n, n/2, n/4, ... times, 2n in all, so linear
    // although nested.
    // expect: O(n)
    static int geometric(int n) {
        int c = 0;
        for (int i = n; i > 0; i /= 2) {
            for (int j = 0; j < i; j++) {
                c++;
            }
        }
        return c;
    }

    // The harmonic nest (the divisor-sum / sieve pattern): n/1 + n/2 + ... + n/(n-1) inner steps,
    // n * H(n). The long counter j < n + i <= 2^32 never wraps.
    // expect: O(n*log(n))
    static int harmonic(int n) {
        int c = 0;
        for (int i = 1; i < n; i++) {
            for (long j = 0; j < n; j += i) {
                c++;
            }
        }
        return c;
    }

    // The harmonic nest with an int counter: for n <= 2^30, j + i < 2n does not wrap. With
    // n == Integer.MAX_VALUE and i == 2, j takes only even values, wraps from 2^31 - 2 to MIN,
    // and can never reach j >= n (j == MAX is odd): it never ends.
    // expect: O(n*log(n)) for inputs within limits
    static int harmonicInt(int n) {
        int c = 0;
        for (int i = 1; i < n; i++) {
            for (int j = 0; j < n; j += i) {
                c++;
            }
        }
        return c;
    }

    // A stride-3 loop: below n <= MAX - 2 it never wraps (n/3 steps). For n == MAX - 1 or MAX it
    // may step past MAX and wrap, but 3 is odd, so i = 3k mod 2^32 visits every residue and
    // reaches [n, MAX] within 2^32 <= 2n + 4 steps: O(n) for every input.
    // expect: O(n)
    static int stride3(int n) {
        int c = 0;
        for (int i = 0; i < n; i += 3) {
            c++;
        }
        return c;
    }

    // Log-linear nest: for each i, the inner loop halves j = i down to 0, log2(i) + 1 steps.
    // expect: O(n*log(n))
    static int logLinear(int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i; j > 0; j /= 2) {
                c++;
            }
        }
        return c;
    }

    // A halving loop inside a counting loop over another parameter: m * log2(n).
    // expect: O(m*log(n))
    static int linearTimesLog(int m, int n) {
        int c = 0;
        for (int j = 0; j < m; j++) {
            for (int k = n; k > 1; k /= 2) {
                c++;
            }
        }
        return c;
    }

    // Brockschmidt et al. (KoAT, TOPLAS 2016): the size of i after the first loop (max(0, n))
    // bounds the square nest that follows.
    // expect: O(n^2)
    static int sequentialSize(int n) {
        int i = 0;
        while (i < n) {
            i++;
        }
        int c = 0;
        for (int j = 0; j < i; j++) {
            for (int k = 0; k < i; k++) {
                c++;
            }
        }
        return c;
    }

    // A loop to a product bound: i < n * m runs max(0, n * m) times without a wrap, and at most
    // MAX < |n * m| times when the product wraps, so at most |m| * |n| either way.
    // expect: O(m*n)
    static int productBound(int n, int m) {
        int c = 0;
        for (int i = 0; i < n * m; i++) {
            c++;
        }
        return c;
    }

    // Alias et al., SAS 2010 style nest whose inner bound is the outer counter's remaining range,
    // counted downwards: (n - i) inner steps for i = n .. 1 from the top, quadratic.
    // expect: O(n^2)
    static int downwardNest(int n) {
        int c = 0;
        for (int i = n; i > 0; i--) {
            int j = i;
            while (j < n) {
                j++;
                c++;
            }
        }
        return c;
    }
}
