/**
 * Termination literature, lexicographic and multidimensional ranking functions: loops with several
 * paths, resets of an inner counter, and nested loops whose inner loop moves the outer counter.
 * Bradley, Manna & Sipma (CAV 2005), Alias, Darte, Feautrier & Gonnord ("Multi-dimensional
 * rankings, program termination, and complexity bounds of flowchart programs", SAS 2010), Cook,
 * See & Zuleger ("Ramsey vs. lexicographic termination proving", TACAS 2013), and the PASTA
 * examples of Falke & Kapur (CADE 2009) as translated for the TermComp Java_Bytecode category,
 * in Java (32-bit wrapping ints).
 */
public class TermLexicographic {

    // Lexicographic ranking (i, j) with a reset of j to m (an inner counter reloaded on every
    // decrement of i; the analyze fixture Lexicographic.rows is the same loop). It runs
    // nat(j) + i * (nat(m) + 1) iterations; with m < 0 every reset is followed by a decrement of i.
    // expect: O(i*m + j)
    static int resetInner(int i, int j, int m) {
        int steps = 0;
        while (i > 0) {
            if (j > 0) {
                j--;
            } else {
                j = m;
                i--;
            }
            steps++;
        }
        return steps;
    }

    // Three-level reset (an odometer: z is reloaded from m on each step of y, y and z on each step
    // of x), the three-dimensional ranking (x, y, z) of Alias et al., SAS 2010, section 2 style.
    // Iterations: nat(z) + nat(y) * (nat(m) + 1) + x * (nat(m) + 1)^2.
    // expect: O(m*y + m^2*x + z)
    static int odometer(int x, int y, int z, int m) {
        int steps = 0;
        while (x > 0) {
            if (z > 0) {
                z--;
            } else if (y > 0) {
                y--;
                z = m;
            } else {
                x--;
                y = m;
                z = m;
            }
            steps++;
        }
        return steps;
    }

    // Reset of the inner counter to the outer one: lexicographic (x, y); y + x(x+1)/2 iterations.
    // Alias et al., SAS 2010 style (the rank (x, y) with a triangular cost).
    // expect: O(x^2 + y)
    static int triangularReset(int x, int y) {
        int steps = 0;
        while (x > 0) {
            if (y > 0) {
                y--;
            } else {
                x--;
                y = x;
            }
            steps++;
        }
        return steps;
    }

    // Bradley, Manna & Sipma, "Linear ranking with reachability", CAV 2005, Fig. 1: subtractive
    // gcd for y1, y2 > 0. Each path decreases y1 + y2 and both stay positive (no wrap).
    // gcd(1, n) and gcd(n, 1) take n - 1 iterations: both parameters count.
    // expect: O(y1 + y2)
    static int bmsCav05Gcd(int y1, int y2) {
        if (y1 <= 0 || y2 <= 0) {
            return 0;
        }
        while (y1 != y2) {
            if (y1 > y2) {
                y1 = y1 - y2;
            } else {
                y2 = y2 - y1;
            }
        }
        return y1;
    }

    // Bradley, Manna & Sipma, CAV 2005, Fig. 1 as modified in the TermComp C set
    // ("BradleyMannaSipma-CAV2005-Fig1-modified", false-termination): the else branch computes
    // y2 - y2. With y1 = 1, y2 = 2 it sets y2 = 0, then y1 = 1 - 0 forever.
    // expect: nonterminating
    static int bmsCav05Modified(int y1, int y2) {
        if (y1 <= 0 || y2 <= 0) {
            return 0;
        }
        while (y1 != y2) {
            if (y1 > y2) {
                y1 = y1 - y2;
            } else {
                y2 = y2 - y2;
            }
        }
        return y1;
    }

    // Alias, Darte, Feautrier & Gonnord, SAS 2010, benchmark "nestedLoop": the innermost loop moves
    // i up to p - 1 once (amortised), later runs of it are empty. At most n * m iterations of the
    // j loop and p of the k loop in all (n * m + p, not n * m * p).
    // expect: O(m*n + p)
    static int adfgSas10NestedLoop(int n, int m, int p) {
        if (n < 0 || m < 0 || p < 0) {
            return 0;
        }
        int steps = 0;
        int i = 0;
        while (i < n) {
            int j = 0;
            while (j < m) {
                j = j + 1;
                int k = i;
                while (k < p - 1) {
                    k = k + 1;
                    steps++;
                }
                i = k;
                steps++;
            }
            i = i + 1;
        }
        return steps;
    }

    // Alias, Darte, Feautrier & Gonnord, SAS 2010, benchmark "loops": Podelski & Rybalchenko's
    // LICS 2004 Fig. 1 with the input restricted to [0, 2^30 - 1], so that 2*y never wraps.
    // n + 1 outer iterations of at most log2(n) + 1 inner ones.
    // expect: O(n*log(n))
    static int adfgSas10Loops(int n) {
        if (n < 0 || n > 1073741823) {
            return 0;
        }
        int steps = 0;
        int x = n;
        while (x >= 0) {
            int y = 1;
            while (y < x) {
                y = 2 * y;
                steps++;
            }
            x = x - 1;
        }
        return steps;
    }

    // Cook, See & Zuleger, TACAS 2013, Fig. 8a (modified variant of the TermComp C set): step x
    // towards k from either side. Two paths with opposite ranking functions x - k and k - x, each
    // kept by its path: |x - k| iterations, no wrap.
    // expect: O(k + x)
    static int cszTacas13Fig8a(int k, int x) {
        int steps = 0;
        while (x != k) {
            if (x > k) {
                x = x - 1;
            } else {
                x = x + 1;
            }
            steps++;
        }
        return steps;
    }

    // Cook, See & Zuleger, TACAS 2013, Fig. 8b: if (m > 0) while (x != m) [ if (x > m) x = 0;
    // else x++; ]. One reset to 0 at most, then m - x steps up: nat(m - x) + m + 1 iterations.
    // expect: O(m + x)
    static int cszTacas13Fig8b(int x, int m) {
        int steps = 0;
        if (m > 0) {
            while (x != m) {
                if (x > m) {
                    x = 0;
                } else {
                    x = x + 1;
                }
                steps++;
            }
        }
        return steps;
    }

    // PASTA B13 (Falke & Kapur, CADE 2009; TermComp Java_Bytecode Aprove_09/PastaB13):
    // while (x > z || y > z) [ if (x > z) x--; else if (y > z) y--; else continue; ].
    // Lexicographic (x - z, y - z): nat(x - z) + nat(y - z) iterations.
    // expect: O(x + y + z)
    static int pastaB13(int x, int y, int z) {
        int steps = 0;
        while (x > z || y > z) {
            steps++;
            if (x > z) {
                x--;
            } else if (y > z) {
                y--;
            } else {
                continue;
            }
        }
        return steps;
    }
}
