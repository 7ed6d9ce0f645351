/**
 * Termination literature, non-terminating loops: the Java non-termination benchmarks of Velroyen
 * & Ruemmer ("Non-termination checking for imperative programs", TAP 2008), as collected in the
 * TPDB Java_Bytecode directory BSOG_FoVeOOS_11 (Brockschmidt, Stroeder, Otto & Giesl, FoVeOOS 2011),
 * and a few others. Each has a witness that is not at the type limits: a fixed point, a cycle, a
 * parity or a residue that 32-bit (or 64-bit) wrapping preserves. Every witness is given with the
 * reason the loop never exits from it.
 */
public class TermNonterminating {

    // Velroyen08 "ex09half" (a broken merge sort's midpoint): i = i + (l - i) / 2 never reaches l
    // once l - i == 1, since 1 / 2 == 0. Every l >= 1 gets there; witness i = 1.
    // expect: nonterminating
    static int half(int i) {
        int l = i;
        i = 0;
        int steps = 0;
        while (l - i > 0) {
            i = i + (l - i) / 2;
            steps++;
        }
        return steps;
    }

    // Velroyen08 "sunset": 25 jumps back to 30, which counts down to 25 again: the cycle
    // 30, 29, ..., 25. Witness 25 (any of 25..30).
    // expect: nonterminating
    static int sunset(int i) {
        int steps = 0;
        while (i > 10) {
            if (i == 25) {
                i = 30;
            }
            if (i <= 30) {
                i--;
            } else {
                i = 20;
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "moduloLower": n only decreases while it is not a multiple of 5, so it stops
    // moving at the first multiple of 5 above 2. Witness 5 (and every n >= 5).
    // expect: nonterminating
    static int moduloLower(int n) {
        int steps = 0;
        while (n > 2) {
            if (n % 5 > 0) {
                n--;
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "narrowKonv": i runs up to range, which shrinks by one per lap; at i == range == 0
    // the body does nothing and the guard 0 <= i <= range still holds. Witness 0 (any 0..20).
    // expect: nonterminating
    static int narrowKonv(int i) {
        int range = 20;
        int steps = 0;
        while (0 <= i && i <= range) {
            if (!(0 == i && i == range)) {
                if (i == range) {
                    i = 0;
                    range--;
                } else {
                    i++;
                }
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "alternDiv": i -> -(i + 1) or -(i - 1): |i| grows by one per step with
    // alternating sign, never 0; at the limit it cycles between MIN_VALUE + 1 and MIN_VALUE (the
    // negation of MIN_VALUE is MIN_VALUE). Every i != 0 loops; witness 1.
    // expect: nonterminating
    static int alternDiv(int i) {
        int steps = 0;
        while (i != 0) {
            if (i < 0) {
                i--;
                i = i * (-1);
            } else {
                i++;
                i = i * (-1);
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "alternKonv" (also AlternKonv of the TermComp C set): |i| shrinks by 2 with
    // alternating sign and converges to 0 only for even i; an odd i ends in the cycle 1, -1.
    // Witness 1.
    // expect: nonterminating
    static int alternKonv(int i) {
        int steps = 0;
        while (i != 0) {
            if (i < 0) {
                i = i + 2;
                if (i < 0) {
                    i = i * (-1);
                }
            } else {
                i = i - 2;
                if (i > 0) {
                    i = i * (-1);
                }
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "middle": i-- and j++ change i - j by 2, and 2^32 is even, so an odd difference
    // never becomes 0, wrapping or not. Witness i = 1, j = 0.
    // expect: nonterminating
    static int middle(int i, int j) {
        while (i != j) {
            i--;
            j++;
        }
        return i;
    }

    // Velroyen08 "upAndDown": i bounces between 0 and 10 inside the guard 0 <= i <= 10. Witness 5.
    // expect: nonterminating
    static int upAndDown(int i) {
        boolean up = false;
        int steps = 0;
        while (0 <= i && i <= 10) {
            if (i == 10) {
                up = false;
            }
            if (i == 0) {
                up = true;
            }
            if (up) {
                i++;
            } else {
                i--;
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "gcd" (a broken gcd: (a, b) := (b, a - b) instead of a remainder step). The map is
    // invertible mod 2^32, so every state is on a cycle; the cycle of (3, 1) has length 3 * 2^31
    // and no state with b == 0 (checked by running it through a whole period). Witness a = 3, b = 1.
    // expect: nonterminating
    static int brokenGcd(int a, int b) {
        int t = 0;
        if (b > a) {
            t = a;
            a = b;
            b = t;
        }
        while (b != 0) {
            t = a - b;
            a = b;
            b = t;
        }
        return a;
    }

    // Velroyen08 "fib": iterate Fibonacci numbers until one equals n. Fibonacci numbers mod 8 are
    // 0, 1, 1, 2, 3, 5, 0, 5, 5, 2, 7, 1 (period 12), never 4, so j (a Fibonacci number mod 2^32)
    // never equals an n = 4 (mod 8). Witness 4.
    // expect: nonterminating
    static int fibUntil(int n) {
        int i = 0;
        int j = 1;
        int t = 0;
        int steps = 0;
        while (j != n) {
            t = j + i;
            i = j;
            j = t;
            steps++;
        }
        return steps;
    }

    // Velroyen & Ruemmer, TAP 2008 (TermComp C set "Velroyen"): terminates for x < -5, 0 <= x <= 30
    // and x > 35; -5..-1 go to the fixed point -5 and 31..35 to the fixed point 35. Witness -1.
    // expect: nonterminating
    static int velroyenRuemmer(int x) {
        int steps = 0;
        while (x != 0) {
            if (-5 <= x && x <= 35) {
                if (x < 0) {
                    x = -5;
                } else {
                    if (x > 30) {
                        x = 35;
                    } else {
                        x = x - 1;
                    }
                }
            } else {
                x = 0;
            }
            steps++;
        }
        return steps;
    }

    // Velroyen08 "cousot" (after Cousot's example): while (true) with two updates, no exit.
    // Every input loops; witness i = 0, j = 0.
    // expect: nonterminating
    static int cousot(int i, int j) {
        while (true) {
            if (i < j) {
                i = i + 4;
            } else {
                j = j + 1;
                i = i + 2;
            }
        }
    }

    // Stride 2 towards n on long (cf. Velroyen08 "even", which strides by 2 towards 0 or 1): the
    // difference n - i keeps its parity mod 2^64, so an odd difference never closes.
    // Witness i = 0, n = 1.
    // expect: nonterminating
    static long strideTwo(long i, long n) {
        long steps = 0;
        while (i != n) {
            i += 2;
            steps++;
        }
        return steps;
    }
}
