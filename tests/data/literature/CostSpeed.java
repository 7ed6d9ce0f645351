/**
 * Cost-analysis literature: the SPEED examples (Gulwani, Mehra, Chilimbi, POPL 2009), the
 * control-flow-refinement examples (Gulwani, Jain, Koskinen, PLDI 2009) and the reachability-bound
 * examples (Gulwani and Zuleger, PLDI 2010). Loops with several counters, inner loops whose
 * counter survives the outer iteration, resets, and disjunctive guards.
 *
 * The papers' nondeterministic choices (`*`) become bits of a `seed` parameter, which no bound
 * depends on. The papers' `assume` preconditions become early returns.
 */
public class CostSpeed {

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), SimpleMultiple: y climbs to m first, then x
    // to n; y++ and x++ only run below their limits, so nothing wraps: m + n iterations.
    // expect: O(m + n)
    static int simpleMultiple(int n, int m) {
        int x = 0, y = 0, c = 0;
        while (x < n) {
            if (y < m) {
                y++;
            } else {
                x++;
            }
            c++;
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), SimpleMultipleDep: the reset y = 0 on every
    // step of x makes it n * (m + 1) iterations.
    // expect: O(m*n)
    static int simpleMultipleDep(int n, int m) {
        int x = 0, y = 0, c = 0;
        while (x < n) {
            if (y < m) {
                y++;
            } else {
                y = 0;
                x++;
            }
            c++;
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), NestedMultiple: y is never reset, so the inner
    // loop runs at most m times over the whole run (amortised), not m times per outer iteration.
    // expect: O(m + n)
    static int nestedMultiple(int n, int m, int seed) {
        int x = 0, y = 0, c = 0;
        while (x < n) {
            while (y < m && ((seed >>> (c & 31)) & 1) != 0) {
                y++;
                c++;
            }
            x++;
            c++;
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), NestedMultipleDep: y restarts at 0 in every
    // outer iteration, so the inner loop runs m times each time.
    // expect: O(m*n)
    static int nestedMultipleDep(int n, int m) {
        int x = 0, c = 0;
        while (x < n) {
            int y = 0;
            x++;
            while (y < m) {
                y++;
                c++;
            }
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), SequentialSingle: the second loop resumes where
    // the first stopped; together they count x up to n once.
    // expect: O(n)
    static int sequentialSingle(int n, int seed) {
        int x = 0;
        while (x < n && ((seed >>> (x & 31)) & 1) != 0) {
            x++;
        }
        while (x < n) {
            x++;
        }
        return x;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), NestedSingle: inner and outer loop share x, so
    // it is O(n), but the outer x++ after the inner loop stopped at x == n overflows when
    // n == Integer.MAX_VALUE: with seed == -1 x goes 0 .. MAX, wraps to MIN, climbs again, forever.
    // expect: O(n) for inputs within limits
    static int nestedSingle(int n, int seed) {
        int x = 0, c = 0;
        while (x < n) {
            while (x < n && ((seed >>> (x & 31)) & 1) != 0) {
                x++;
                c++;
            }
            x++;
            c++;
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), Dis1: ranked by (n - x) + (m - y); each
    // increment runs only below its limit, so it is (n - x) + (m - y) iterations at most.
    // expect: O(m + n + x + y)
    static int dis1(int x, int y, int n, int m) {
        int c = 0;
        while (x < n) {
            if (y < m) {
                y++;
            } else {
                x++;
            }
            c++;
        }
        return c;
    }

    // SPEED (Gulwani, Mehra, Chilimbi, POPL 2009), Dis2: z++ only runs when z <= x < n, so z
    // stays below n; ranked by (n - x) + (n - z).
    // expect: O(n + x + z)
    static int dis2(int x, int z, int n) {
        int c = 0;
        while (x < n) {
            if (z > x) {
                x++;
            } else {
                z++;
            }
            c++;
        }
        return c;
    }

    // Gulwani, Jain, Koskinen, PLDI 2009, "cyclic" (with its precondition 0 <= id < n made a
    // guard): tmp runs id+1 .. n+1, resets to 0 and climbs to id: n + 2 steps. For n == MAX the
    // test tmp <= n always holds, tmp wraps MAX -> MIN and climbs to id: 2^32 = 2n + 2 steps.
    // expect: O(n)
    static int cyclic(int id, int n) {
        if (id < 0 || id >= n) {
            return 0;
        }
        int tmp = id + 1, c = 0;
        while (tmp != id) {
            if (tmp <= n) {
                tmp++;
            } else {
                tmp = 0;
            }
            c++;
        }
        return c;
    }

    // Gulwani, Jain, Koskinen, PLDI 2009, "speedpldi2" (assume m > 0 made a guard): v1 drops by
    // one on m of every m + 1 steps, so n + n/m <= 2n steps. Without the guard, m <= 0 and n > 0
    // would loop forever (v2 = 0 again and again).
    // expect: O(n)
    static int pldi2(int n, int m) {
        if (m <= 0) {
            return 0;
        }
        int v1 = n, v2 = 0, c = 0;
        while (v1 > 0) {
            if (v2 < m) {
                v2++;
                v1--;
            } else {
                v2 = 0;
            }
            c++;
        }
        return c;
    }

    // Gulwani, Jain, Koskinen, PLDI 2009, "speedpldi4" (assume m > 0 made a guard): n/m big steps
    // then fewer than min(m, n) unit steps, at most 2n in all; O(n) is the least class in the
    // vocabulary (n/m is not in it, and O(m) fails for m == 1). i - m >= 0 never wraps.
    // expect: O(n)
    static int pldi4(int n, int m) {
        if (m <= 0) {
            return 0;
        }
        int i = n, c = 0;
        while (i > 0) {
            if (i < m) {
                i--;
            } else {
                i -= m;
            }
            c++;
        }
        return c;
    }

    // Gulwani and Zuleger, PLDI 2010 (reachability bound), the amortised nest
    // `for (i = 0; i < n; i++) while (j < i) j++;`: j persists, so the inner loop runs n - 1
    // times in all, not per outer iteration.
    // expect: O(n)
    static int amortisedInner(int n) {
        int j = 0, c = 0;
        for (int i = 0; i < n; i++) {
            while (j < i) {
                j++;
                c++;
            }
            c++;
        }
        return c;
    }

    // Gulwani and Zuleger, PLDI 2010, the same nest with j an input: the inner loop runs
    // max(0, n - 1 - j) times in all (a very negative j costs -j steps at i == 0).
    // expect: O(j + n)
    static int amortisedInnerFrom(int n, int j) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            while (j < i) {
                j++;
                c++;
            }
            c++;
        }
        return c;
    }

    // Gulwani and Zuleger, PLDI 2010, disjunctive guard: the loop runs while either counter is
    // below its limit, and only that counter moves, so max(n, 0) + max(m, 0) iterations.
    // expect: O(m + n)
    static int disjunctiveGuard(int n, int m) {
        int x = 0, y = 0, c = 0;
        while (x < n || y < m) {
            if (x < n) {
                x++;
            } else {
                y++;
            }
            c++;
        }
        return c;
    }

    // Disjunctive guard with both counters moving (a wrap-around trap on the PLDI 2010 shape):
    // over mathematical integers it ends, but x - y is invariant mod 2^32. From (x, y, n, m) =
    // (MAX, 0, 0, 10), x - y == MAX (mod 2^32), and x >= 0 && y >= 10 would need x - y in
    // [-MAX, MAX - 10]; neither MAX nor MAX - 2^32 is there, so the guard never fails.
    // expect: nonterminating
    static int disjunctiveWrap(int x, int y, int n, int m) {
        int c = 0;
        while (x < n || y < m) {
            x++;
            y++;
            c++;
        }
        return c;
    }

    // Gulwani, Jain, Koskinen, PLDI 2009 (control-flow refinement): an increasing then a
    // decreasing phase of one counter; x goes 0 .. n and back to -1, 2n + 2 steps, no wrap
    // because the direction turns at x == n <= MAX.
    // expect: O(n)
    static int twoPhase(int n) {
        if (n < 0) {
            return 0;
        }
        int x = 0, d = 1, c = 0;
        while (x >= 0) {
            if (x == n) {
                d = -1;
            }
            x += d;
            c++;
        }
        return c;
    }
}
