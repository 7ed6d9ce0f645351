/**
 * Cost-analysis literature: amortised bounds and size bounds that flow from one loop to the next.
 * Sinn, Zuleger, Veith (CAV 2014, "A simple and scalable static analysis for bound analysis and
 * amortized complexity analysis"), Alias, Darte, Feautrier, Gonnord (SAS 2010, multi-dimensional
 * rankings), Brockschmidt, Emmes, Falke, Fuhs, Giesl (KoAT, TACAS 2014 / TOPLAS 2016), and the
 * textbook amortisation examples (Tarjan 1985, "Amortized computational complexity"; Knuth,
 * Morris, Pratt 1977).
 *
 * Nondeterministic choices are bits of a `seed` parameter, which no bound depends on.
 */
public class CostAmortised {

    // Sinn, Zuleger, Veith, CAV 2014, the "xnu" loop (from the XNU kernel): the inner loop walks
    // k from beg to end, and beg then jumps to end, so the inner walks add up to at most len.
    // expect: O(len)
    static int xnu(int len, int seed) {
        int beg = 0, end = 0, i = 0, c = 0;
        while (i < len) {
            i++;
            if (((seed >>> (i & 31)) & 1) != 0) {
                end = i;
            }
            if (((seed >>> ((i + 7) & 31)) & 1) != 0) {
                int k = beg;
                while (k < end) {
                    k++;
                    c++;
                }
                end = i;
                beg = end;
            }
            c++;
        }
        return c;
    }

    // Tarjan 1985 (multipop stack), as treated by Sinn, Zuleger, Veith, CAV 2014: one push per
    // outer iteration, so at most n pops in all.
    // expect: O(n)
    static int multipop(int n, int seed) {
        int stack = 0, c = 0;
        for (int i = 0; i < n; i++) {
            stack++;
            while (stack > 0 && ((seed >>> ((i + stack) & 31)) & 1) != 0) {
                stack--;
                c++;
            }
            c++;
        }
        return c;
    }

    // Sinn, Zuleger, Veith, CAV 2014, increment and reset to zero: r grows by one per outer
    // iteration and the inner loop consumes it before the reset, so n inner steps in all.
    // expect: O(n)
    static int resetToZero(int n, int seed) {
        int r = 0, c = 0;
        for (int i = 0; i < n; i++) {
            r++;
            if (((seed >>> (i & 31)) & 1) != 0) {
                int p = r;
                while (p > 0) {
                    p--;
                    c++;
                }
                r = 0;
            }
        }
        return c;
    }

    // Sinn, Zuleger, Veith, CAV 2014, reset to a parameter: each reset may give the inner loop m
    // more steps, and every outer iteration may reset (seed == -1): n * m.
    // expect: O(m*n)
    static int resetToParam(int n, int m, int seed) {
        int r = 0, c = 0;
        for (int i = 0; i < n; i++) {
            if (((seed >>> (i & 31)) & 1) != 0) {
                r = m;
            }
            while (r > 0) {
                r--;
                c++;
            }
            c++;
        }
        return c;
    }

    // Sinn, Zuleger, Veith, CAV 2014, shape of the running example: b is increased once per
    // decrement of a (at most n in all), so the middle loop runs at most n times overall, each
    // time with an innermost loop of n - 1 steps: quadratic, not cubic.
    // expect: O(n^2)
    static int amortisedQuadratic(int n, int seed) {
        int a = n, b = 0, c = 0;
        while (a > 0) {
            a--;
            b++;
            while (b > 0) {
                b--;
                for (int i = n - 1; i > 0; i--) {
                    if (a > 0 && ((seed >>> (i & 31)) & 1) != 0) {
                        a--;
                        b++;
                    }
                    c++;
                }
            }
        }
        return c;
    }

    // Alias, Darte, Feautrier, Gonnord, SAS 2010: a loop needing the lexicographic ranking
    // (x, y); y counts down from m and is reset to m on each step of x: n * (m + 1) steps.
    // expect: O(m*n)
    static int lexicographic(int n, int m) {
        int x = n, y = m, c = 0;
        while (x > 0) {
            if (y > 0) {
                y--;
            } else {
                x--;
                y = m;
            }
            c++;
        }
        return c;
    }

    // Brockschmidt et al. (KoAT), sequential loops: after the first loop x == max(x0, y), and the
    // second loop counts that down, so (y - x) + max(x, y) steps.
    // expect: O(x + y)
    static int koatSequential(int x, int y) {
        int c = 0;
        while (x < y) {
            x++;
            c++;
        }
        while (x > 0) {
            x--;
            c++;
        }
        return c;
    }

    // Brockschmidt et al. (KoAT, TACAS 2014), size bound of the running example's shape: the
    // first loop adds i-1 + ... + 0 to x, so the second loop runs x + i^2/2 times. x only grows;
    // if it wraps past MAX then x + i^2 > MAX and the second loop runs at most MAX times anyway.
    // expect: O(i^2 + x)
    static int koatQuadratic(int i, int x) {
        int c = 0;
        while (i > 0) {
            i--;
            x += i;
            c++;
        }
        while (x > 0) {
            x--;
            c++;
        }
        return c;
    }

    // Brockschmidt et al. (KoAT), a chain of size bounds: y grows by 2x, then z by y, then z is
    // counted down. As above, a wrap past MAX only shortens the later loops below x + y + z.
    // expect: O(x + y + z)
    static int koatChain(int x, int y, int z) {
        int c = 0;
        while (x > 0) {
            x--;
            y += 2;
            c++;
        }
        while (y > 0) {
            y--;
            z++;
            c++;
        }
        while (z > 0) {
            z--;
            c++;
        }
        return c;
    }

    // Tarjan 1985, the doubling dynamic array: copying `size` elements on each doubling adds up
    // to less than 2n. (cap wraps to MIN after 2^30; then size == cap never holds again.)
    // expect: O(n)
    static int dynamicArray(int n) {
        int cap = 1, size = 0, copies = 0;
        for (int i = 0; i < n; i++) {
            if (size == cap) {
                for (int k = 0; k < size; k++) {
                    copies++;
                }
                cap *= 2;
            }
            size++;
        }
        return copies;
    }

    // Tarjan 1985, the binary counter on an array of bits: an increment clears the trailing ones
    // and sets one bit; with the number of ones as potential, n increments clear at most
    // |bits| + n ones in all (the initial contents count once).
    // expect: O(n + |bits|)
    static int binaryCounter(int[] bits, int n) {
        int c = 0;
        for (int s = 0; s < n; s++) {
            int j = 0;
            while (j < bits.length && bits[j] == 1) {
                bits[j] = 0;
                j++;
                c++;
            }
            if (j < bits.length) {
                bits[j] = 1;
            }
            c++;
        }
        return c;
    }

    // Amortised two-pointer scan (the pattern of Sinn, Zuleger, Veith, CAV 2014): lo only moves
    // forward and stays <= hi + 1, so the inner loop runs at most |a| times in all.
    // expect: O(|a|)
    static int slidingWindow(int[] a, int k) {
        int lo = 0, sum = 0, best = 0;
        for (int hi = 0; hi < a.length; hi++) {
            sum += a[hi];
            while (sum > k && lo <= hi) {
                sum -= a[lo];
                lo++;
            }
            if (hi - lo + 1 > best) {
                best = hi - lo + 1;
            }
        }
        return best;
    }

    // Knuth, Morris, Pratt 1977, the failure function: k rises by at most one per q and every
    // k = f[k - 1] lowers it (f[i] <= i), so the while loop runs fewer than |p| times in all.
    // expect: O(|p|)
    static int kmpFailure(int[] p) {
        int[] f = new int[p.length];
        int k = 0;
        for (int q = 1; q < p.length; q++) {
            while (k > 0 && p[k] != p[q]) {
                k = f[k - 1];
            }
            if (p[k] == p[q]) {
                k++;
            }
            f[q] = k;
        }
        return k;
    }

    // Blocks processed by a helper whose cost is linear in the block it is given: each call costs
    // about end - i, and i moves to end, so the calls cost about |a| in all (the potential |a| - i
    // pays for them), not |a| times the largest block.
    // expect: O(|a|)
    static int blockSums(int[] a, int width) {
        if (width < 1) {
            return 0;
        }
        int total = 0;
        int i = 0;
        while (i < a.length) {
            int end = a.length - i > width ? i + width : a.length;
            total += sumRange(a, i, end);
            i = end;
        }
        return total;
    }

    // The helper of blockSums: one pass over a[from..to).
    // expect: O(from + to)
    static int sumRange(int[] a, int from, int to) {
        int s = 0;
        for (int j = from; j < to; j++) {
            s += a[j];
        }
        return s;
    }

    // Repeated subtraction through a helper that counts down by one (TPDB DivMinus style, with
    // the helper's loop in its own method): x / y calls of y steps each, at most x steps in all.
    // expect: O(x)
    static int quotientBySteps(int x, int y) {
        int q = 0;
        while (y > 0 && x >= y) {
            x = subtractSteps(x, y);
            q++;
        }
        return q;
    }

    // The helper of quotientBySteps: y steps of one.
    // expect: O(y)
    static int subtractSteps(int x, int y) {
        for (int k = 0; k < y; k++) {
            x--;
        }
        return x;
    }
}
