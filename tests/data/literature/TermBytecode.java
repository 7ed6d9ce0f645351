/**
 * Termination literature, the Termination Competition's Java_Bytecode category (AProVE, Julia and
 * COSTA benchmarks of the TPDB) and classic recursive functions: counting loops, nested loops whose
 * inner loop runs once in all, helper methods called in a loop, gcd by subtraction and by modulo,
 * loops whose bound is computed by an earlier loop, Ackermann, McCarthy's 91 function and
 * Fibonacci. TPDB's Java programs draw their inputs from argument lengths (never negative); here
 * every int is an input, and the loops are written so that they terminate for all of them unless
 * the expectation says otherwise. Costs assume an unbounded call stack.
 */
public class TermBytecode {

    // TPDB Java_Bytecode Aprove_09/PastaB16 (PASTA, Falke & Kapur 2009): while (x > 0) [ while
    // (y > 0) y--; x--; ]. The inner loop empties y once; later runs are empty: x + y, not x * y.
    // expect: O(x + y)
    static int pastaB16(int x, int y) {
        int steps = 0;
        while (x > 0) {
            while (y > 0) {
                y--;
                steps++;
            }
            x--;
            steps++;
        }
        return steps;
    }

    // TPDB Java_Bytecode Aprove_09/DivMinus2, the helper: x - y by unit steps towards y == 0 from
    // either side (x may wrap; it does not matter). |y| iterations.
    // expect: O(y)
    static int minus(int x, int y) {
        while (y != 0) {
            if (y > 0) {
                y--;
                x--;
            } else {
                y++;
                x++;
            }
        }
        return x;
    }

    // TPDB Java_Bytecode Aprove_09/DivMinus2: integer division by repeated calls of minus. x / y
    // calls of y steps each: at most x steps in all (amortised over the calls, not x * y).
    // expect: O(x)
    static int divMinus(int x, int y) {
        int res = 0;
        while (x >= y && y > 0) {
            x = minus(x, y);
            res = res + 1;
        }
        return res;
    }

    // TPDB Java_Bytecode Aprove_09/GCD, the helper: a "mod" by repeated subtraction (it returns b,
    // not 0, when b divides a > b). For a > b >= 1: ceil((a - b) / b) <= a - 1 iterations.
    // expect: O(a)
    static int modSub(int a, int b) {
        if (a <= 0 || b <= 0) {
            return 0;
        }
        if (a == b) {
            return 0;
        }
        while (a > b) {
            a -= b;
        }
        return a;
    }

    // TPDB Java_Bytecode Aprove_09/GCD: Euclid with the subtractive mod. The remainders never grow
    // and repeat at most once before 0; the subtractions sum to at most about a + b (gcd(1, n) and
    // gcd(n, 1) both take about n). Negative inputs end it at once (mod gives 0).
    // expect: O(a + b)
    static int gcdMod(int a, int b) {
        int tmp;
        while (b != 0) {
            tmp = b;
            b = modSub(a, b);
            a = tmp;
        }
        return a;
    }

    // Euclid's algorithm with the remainder operator (the modulo gcd of the TermComp integer
    // sets): |a % b| = |a| mod |b| for every sign (and MIN_VALUE % -1 == 0), so the
    // magnitudes follow Euclid and Lame's theorem gives at most log_phi(|b|) + 2 iterations.
    // expect: O(log(b))
    static int euclidModulo(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    // TPDB Java_Bytecode Aprove_09/CountUpRound, the helper: round up to an even number.
    // expect: O(1)
    static int round(int x) {
        if (x % 2 == 0) {
            return x;
        } else {
            return x + 1;
        }
    }

    // TPDB Java_Bytecode Aprove_09/CountUpRound: while (x > y) y = round(y + 1). y grows by 1 or 2,
    // nat(x - y) iterations, except at the limit: with x = MAX_VALUE, y only takes even values,
    // round(MAX_VALUE) wraps to MIN_VALUE and the loop never ends (x = 2147483647, y = 0).
    // expect: O(x + y) for inputs within limits
    static int countUpRound(int x, int y) {
        int steps = 0;
        while (x > y) {
            y = round(y + 1);
            steps++;
        }
        return steps;
    }

    // TPDB Java_Bytecode Aprove_09/PastaA9 (PASTA A9): if (y > 0) while (x >= z) z += y.
    // (x - z) / y + 1 iterations, except at the limit: with x = MAX_VALUE, z <= x always holds and
    // z wraps (x = 2147483647, y = 1, z = 0 never stops).
    // expect: O(x + z) for inputs within limits
    static int pastaA9(int x, int y, int z) {
        int steps = 0;
        if (y > 0) {
            while (x >= z) {
                z += y;
                steps++;
            }
        }
        return steps;
    }

    // TPDB Java_Bytecode Aprove_09/AProVEMath.power: exponentiation by squaring (base 2 by a
    // shift). The loop halves the exponent: log2(exponent) + 1 iterations.
    // expect: O(log(exponent))
    static int power(int base, int exponent) {
        if (exponent == 0) {
            return 1;
        } else if (exponent == 1) {
            return base;
        } else if (base == 2) {
            return base << (exponent - 1);
        } else {
            int result = 1;
            while (exponent > 0) {
                if (exponent % 2 == 1) {
                    result *= base;
                }
                base *= base;
                exponent /= 2;
            }
            return result;
        }
    }

    // A loop whose bound is computed by an earlier loop (TPDB Java_Bytecode / Julia style): k ends
    // as 2 * nat(x) (or wraps negative for x >= 2^30, which empties the second loop).
    // expect: O(x)
    static int boundFromEarlierLoop(int x) {
        int k = 0;
        while (x > 0) {
            x--;
            k += 2;
        }
        int s = 0;
        for (int j = 0; j < k; j++) {
            s += j;
        }
        return s;
    }

    // Nested loops with a doubling outer counter, in long (an int counter would wrap at 2^31 and
    // loop forever for n > 2^30): the inner loop runs 1 + 2 + 4 + ... < 2n times in all.
    // expect: O(n)
    static long doublingOuter(int n) {
        long c = 0;
        for (long i = 1; i < n; i *= 2) {
            for (long j = 0; j < i; j++) {
                c++;
            }
        }
        return c;
    }

    // Nested loops, the inner bound taken from the outer counter (TPDB Java_Bytecode style): about
    // n^2 / 4 inner iterations (j steps by 2 from i down to <= 0, no wrap).
    // expect: O(n^2)
    static int triangularStride(int n) {
        int steps = 0;
        for (int i = n; i > 0; i--) {
            int j = i;
            while (j > 0) {
                j -= 2;
                steps++;
            }
        }
        return steps;
    }

    // Recursive binary logarithm (the recursive style of the TermComp Java programs): one call
    // per halving.
    // expect: O(log(x))
    static int logRecursive(int x) {
        if (x <= 1) {
            return 0;
        }
        return 1 + logRecursive(x / 2);
    }

    // Fibonacci, doubly recursive (the textbook exponential recursion): fewer than 2^n calls.
    // expect: O(2^n)
    static int fib(int n) {
        if (n <= 1) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    // Ackermann's function, guarded for negative arguments (m <= 0 and n <= 0 are base cases). It
    // terminates by the lexicographic order on (m, n) (the inner call keeps m and lowers n; the
    // outer lowers m, whatever int the inner call returns), but its cost is not expressible in the
    // vocabulary (it dominates every primitive recursive function).
    // expect: terminating
    static int ackermann(int m, int n) {
        if (m <= 0) {
            return n + 1;
        }
        if (n <= 0) {
            return ackermann(m - 1, 1);
        }
        return ackermann(m - 1, ackermann(m, n - 1));
    }

    // McCarthy's 91 function (Manna & McCarthy 1969; a TermComp classic). For n > 100 one call.
    // For n <= 100: calls(n) = 1 + calls(n + 11) + calls(91) below 90, and 2 + calls(n + 1) from 90
    // to 100, so the calls grow linearly with 101 - n (the recursion depth with (101 - n) / 11).
    // No operation wraps (n + 11 only for n <= 100).
    // expect: O(n)
    static int mcCarthy91(int n) {
        if (n > 100) {
            return n - 10;
        }
        return mcCarthy91(mcCarthy91(n + 11));
    }

    // A linear search from a start index: -1, or the first index at or after it that holds v.
    // expect: O(|a|)
    static int find(int[] a, int v, int from) {
        if (from < 0) {
            from = 0;
        }
        for (int i = from; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    // Counts the occurrences of v by searching on from the last one found (the loop of
    // `ArrayUtils.indexesOf` and of `String.indexOf` callers): ranked only by the case of `find`
    // that its test selects (an index at or after `from`, not -1). The searches scan |a| cells in
    // all (O(|a|)); each is bounded by |a| alone (O(|a|^2)).
    // expect: O(|a|)
    static int countFound(int[] a, int v) {
        int n = 0;
        int from = 0;
        while (from < a.length) {
            from = find(a, v, from);
            if (from == -1) {
                break;
            }
            n++;
            from++;
        }
        return n;
    }

    // The same from a given start (the shape of `ArrayUtils.indexesOf(array, v, startIndex)`).
    // expect: O(|a|)
    static int countFoundFrom(int[] a, int v, int from) {
        int n = 0;
        while (from < a.length) {
            from = find(a, v, from);
            if (from == -1) {
                break;
            }
            n++;
            from++;
        }
        return n;
    }
}
