/**
 * Termination literature, linear ranking functions and transition invariants: the integer loops of
 * Podelski & Rybalchenko (VMCAI 2004, LICS 2004, TACAS 2011), of the Terminator line of work
 * (Cook, Podelski & Rybalchenko; Chawdhary, Cook, Gulwani, Sagiv & Yang), and of a few papers whose
 * loops became termination benchmarks (Kroening et al., Gopan & Reps, Gulavani & Gulwani),
 * translated to Java (32-bit wrapping ints). A nondeterministic choice `if (*)` of the original
 * reads the low bit of a parameter `c` that rotates by one bit per iteration, so every periodic
 * choice sequence is some input; the cost classes hold for every `c`.
 */
public class TermPodelski {

    // Podelski & Rybalchenko, VMCAI 2004, Ex. 1: while (i - j >= 1) [ i := i - nat; j := j + pos ].
    // The nondeterministic nat and pos are the parameters a >= 0 and b >= 1; the loop runs in long
    // so that i - j and the updates cannot wrap (i - j decreases by a + b >= 1 from below 2^32, and
    // i moves by at most a per iteration). Ranking function i - j: nat(i - j) iterations.
    // expect: O(i + j)
    static int prVmcai04Ex1(int i, int j, int a, int b) {
        if (a < 0 || b < 1) {
            return 0;
        }
        long x = i;
        long y = j;
        int steps = 0;
        while (x - y >= 1) {
            x = x - a;
            y = y + b;
            steps++;
        }
        return steps;
    }

    // Podelski & Rybalchenko, LICS 2004, Fig. 1 (also PASTA C1 of the TermComp Java set): the outer
    // loop counts x down, the inner one doubles y up to x. With 32-bit ints, for x > 2^30 the inner
    // y reaches 2^30 < x, then 2*y wraps to MIN_VALUE and 0, and stays 0 < x forever (x = 1073741825
    // loops). For x <= 2^30: x+1 outer iterations of at most log2(x)+1 inner ones.
    // expect: O(x*log(x)) for inputs within limits
    static int prLics04Fig1(int x) {
        int steps = 0;
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

    // Podelski & Rybalchenko, LICS 2004, Fig. 2 (and TACAS 2011, Fig. 3): "Choice", with the two
    // guarded commands (x, y) := (x - 1, x) and (x, y) := (y - 2, x + 1). No linear ranking function;
    // the disjunctive transition invariant x' < x or y' < y proves it. The worst choice sequence runs
    // about 2*max(x, y) iterations (computed exhaustively for small x, y); x + 1 wraps only at
    // MAX_VALUE, to a negative y that ends the loop.
    // expect: O(x + y)
    static int prLics04Choice(int x, int y, int c) {
        int steps = 0;
        while (x > 0 && y > 0) {
            int oldX = x;
            int oldY = y;
            if ((c & 1) != 0) {
                x = oldX - 1;
                y = oldX;
            } else {
                x = oldY - 2;
                y = oldX + 1;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // Podelski & Rybalchenko, TACAS 2011, Fig. 1, with a long counter: while (y >= 0) y := y - 1.
    // y never wraps (it stops at -1). Ranking function y.
    // expect: O(y)
    static long prTacas11Fig1(long y) {
        long steps = 0;
        while (y >= 0) {
            y = y - 1;
            steps++;
        }
        return steps;
    }

    // Podelski & Rybalchenko, TACAS 2011, Fig. 2: the inner loop counts y from 1 up to x (no wrap:
    // y < x), the outer one counts x down. Triangular: about x^2/2 inner iterations.
    // expect: O(x^2)
    static int prTacas11Fig2(int x) {
        int steps = 0;
        while (x >= 0) {
            int y = 1;
            while (y < x) {
                y = y + 1;
                steps++;
            }
            x = x - 1;
        }
        return steps;
    }

    // Podelski & Rybalchenko, TACAS 2011, Fig. 4: if (*) [ x--; y := * ] else y--. The havoc of y
    // reads the heap (ys[0]); lexicographic ranking function (x, y) proves termination, but each
    // decrement of x may give y any value: the cost is not bounded by the parameters.
    // expect: terminating
    static int prTacas11Fig4(int x, int y, int c, int[] ys) {
        int steps = 0;
        while (x > 0 && y > 0) {
            if ((c & 1) != 0) {
                x = x - 1;
                y = ys[0];
            } else {
                y = y - 1;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // Cook, Podelski & Rybalchenko, "Proving program termination", CACM 54(5), 2011, running
    // example: if (*) [ x--; y++ ] else y--, while x > 0 && y > 0. Lexicographic (x, y); every
    // increment of y is paid by a decrement of x, so at most 2x + y iterations (y + 1 wraps only at
    // MAX_VALUE, which ends the loop).
    // expect: O(x + y)
    static int cprCacm11(int x, int y, int c) {
        int steps = 0;
        while (x > 0 && y > 0) {
            if ((c & 1) != 0) {
                x = x - 1;
                y = y + 1;
            } else {
                y = y - 1;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // Chawdhary, Cook, Gulwani, Sagiv & Yang, "Ranking abstractions", ESOP 2008, benchmark aaron2:
    // while (x >= y && tx >= 0) [ if (*) x := x - 1 - tx; else y := y + 1 + tx; ]. Over the
    // integers x - y decreases by 1 + tx >= 1. In 32 bits the updates wrap near the limits: with
    // y = MIN_VALUE, x >= y always holds and x = x - 1 - tx cycles forever (tx = 0, x = 0,
    // y = -2147483648, c = -1 never stops).
    // expect: O(x + y) for inputs within limits
    static int ccgsyEsop08Aaron2(int tx, int x, int y, int c) {
        int steps = 0;
        while (x >= y && tx >= 0) {
            if ((c & 1) != 0) {
                x = x - 1 - tx;
            } else {
                y = y + 1 + tx;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // Kroening, Sharygina, Tsitovich & Wintersteiger, CAV 2010, example: while (i < 255)
    // [ if (*) i++ else i += 2 ]. i + 2 <= 256 never wraps; ranking function 255 - i.
    // expect: O(i)
    static int kstwCav10(int i, int c) {
        int steps = 0;
        while (i < 255) {
            if ((c & 1) != 0) {
                i = i + 1;
            } else {
                i = i + 2;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // Gopan & Reps, "Lookahead widening", CAV 2006, Fig. 1a: y climbs while x <= 50, then falls
    // until it is negative. No inputs: 102 iterations.
    // expect: O(1)
    static int gopanRepsCav06() {
        int x = 0;
        int y = 0;
        while (true) {
            if (x <= 50) {
                y++;
            } else {
                y--;
            }
            if (y < 0) {
                break;
            }
            x++;
        }
        return x;
    }

    // Gulavani & Gulwani, CAV 2008, Fig. 1a: while (x < y) [ if (z > x) x++ else z++ ]. Two paths;
    // once z <= x, z catches up with x and each further step of x costs two iterations: about
    // (x - z) + 2(y - x) iterations, so z's distance counts too. No update wraps (x, z < y).
    // expect: O(x + y + z)
    static int gulavaniGulwaniCav08Fig1a(int x, int y, int z) {
        int i = 0;
        while (x < y) {
            i = i + 1;
            if (z > x) {
                x = x + 1;
            } else {
                z = z + 1;
            }
        }
        return i;
    }

    // Gulavani & Gulwani, CAV 2008, Fig. 1b: two loops in sequence on the same counter; the second
    // starts where the first stopped (at max(x, n)). nat(n - x) + nat(m - max(x, n)) iterations.
    // expect: O(m + n + x)
    static int gulavaniGulwaniCav08Fig1b(int x, int n, int m) {
        int i = 0;
        while (x < n) {
            i = i + 1;
            x = x + 1;
        }
        while (x < m) {
            i = i + 1;
            x = x + 1;
        }
        return i;
    }
}
