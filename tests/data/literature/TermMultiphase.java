/**
 * Termination literature, loops that no single linear ranking function ranks but a multiphase
 * (or nested) one does: Ben-Amram & Genaim ("On multiphase-linear ranking functions", CAV 2017),
 * Leike & Heizmann ("Ranking templates for linear loops", TACAS 2014), Bradley, Manna & Sipma
 * ("The polyranking principle", ICALP 2005), Masse (VMCAI 2014) and the LassoRanker examples,
 * translated to Java (32-bit wrapping ints; long where the original needs room).
 * Costs are stated as the smallest class of the analyzer's vocabulary that holds: a phase that
 * takes sqrt(x) or cbrt(x) iterations counts as O(x).
 */
public class TermMultiphase {

    /** The value a havoc of the original reads (the heap, for the analysis). */
    static int havoc = 7;

    // Ben-Amram & Genaim, CAV 2017 (the running 2-phase example): while (x >= 0) [ x += y; y-- ].
    // Phase 1 ranks y (while y > 0, x grows), phase 2 ranks x. With y >= 0 the loop runs at most
    // 2y + 2 + sqrt(2x) iterations, with y < 0 at most x + 1: O(x + y) (sqrt(x) <= x). Java-safe as
    // it is: x + y can wrap only upwards (x >= 0, y > 0), to a negative x that ends the loop, and y
    // cannot reach MIN_VALUE before x is negative.
    // expect: O(x + y)
    static int bgCav17TwoPhase(int x, int y) {
        int steps = 0;
        while (x >= 0) {
            x = x + y;
            y = y - 1;
            steps++;
        }
        return steps;
    }

    // Ben-Amram & Genaim, CAV 2017, 3-phase variant: while (x >= 0) [ x += y; y += z; z-- ], on
    // long so that y (at most 2^31 + z^2/2) cannot wrap; x can, only upwards, which ends the loop.
    // Phases z, y, x: about z + sqrt(2y) + cbrt(6x) iterations (z^2 and z^3 growth of y and x is
    // undone in O(z) further steps): O(x + y + z).
    // expect: O(x + y + z)
    static int bgCav17ThreePhase(int x0, int y0, int z0) {
        long x = x0;
        long y = y0;
        long z = z0;
        int steps = 0;
        while (x >= 0) {
            x = x + y;
            y = y + z;
            z = z - 1;
            steps++;
        }
        return steps;
    }

    // Ben-Amram & Genaim, CAV 2017 benchmark: while (x >= 1 && y >= 1 && x >= y && 4y >= x)
    // [ x = 2x; y = 3y ]. The ratio x/y starts in [1, 4] and shrinks by 2/3 per iteration, so at
    // most 4 iterations; in Java 2x or 3y may wrap negative, which only ends the loop sooner.
    // expect: O(1)
    static int bgCav17Ratio(int x, int y) {
        int steps = 0;
        while (x >= 1 && y >= 1 && x >= y && 4 * y >= x) {
            x = 2 * x;
            y = 3 * y;
            steps++;
        }
        return steps;
    }

    // Leike & Heizmann, TACAS 2014, Ex. 1: while (q > 0) [ if (y > 0) q = q - y - 1; else
    // q = q + y - 1; ]. A piecewise ranking function (q decreases by |y| + 1 >= 1); no update
    // wraps (q > 0 and the sign test on y).
    // expect: O(q)
    static int lhTacas14Ex1(int q, int y) {
        int steps = 0;
        while (q > 0) {
            if (y > 0) {
                q = q - y - 1;
            } else {
                q = q + y - 1;
            }
            steps++;
        }
        return steps;
    }

    // Leike & Heizmann, TACAS 2014, Ex. 7: while (q > 0) [ q = q + z - 1; z = -z; ] (2-phase
    // ranking function 2q + z, q, found after publication by Genaim). Every second iteration q is
    // back at q - 2k, in between at q + z - 1 - 2k: at most q + 1 iterations. q + z - 1 wraps only
    // to a negative value (ends the loop), and -MIN_VALUE == MIN_VALUE ends it too.
    // expect: O(q)
    static int lhTacas14Ex7(int q, int z) {
        int steps = 0;
        while (q > 0) {
            q = q + z - 1;
            z = -z;
            steps++;
        }
        return steps;
    }

    // Leike & Heizmann, TACAS 2014, Ex. 8: while (q > 0) [ if (y > 0) [ y = 0; q = *; ] else
    // [ y--; q--; ] ]. The havoc reads a static field. At most one reset: after it y counts down
    // from 0 with q and cannot wrap before q runs out (before it, y <= 0 may wrap from MIN_VALUE to
    // MAX_VALUE once, which triggers the reset). It terminates, but after the reset q is whatever
    // the heap holds: not bounded by the parameters.
    // expect: terminating
    static int lhTacas14Ex8(int q, int y) {
        int steps = 0;
        while (q > 0) {
            if (y > 0) {
                y = 0;
                q = havoc;
            } else {
                y = y - 1;
                q = q - 1;
            }
            steps++;
        }
        return steps;
    }

    // Masse, VMCAI 2014, Fig. 1a: while (a >= 0) [ a += b; b = (b >= 0) ? -b - 1 : -b; ]. b
    // alternates in sign and grows by 1 in magnitude every two iterations, so a + b is constant at
    // odd steps and a drops by 1 at even steps (b >= 0 first), or a stays and a + b drops by 1
    // (b < 0 first): at most 2a + 2 iterations. a + b wraps only to negative (ends the loop).
    // expect: O(a)
    static int masseVmcai14Fig1a(int a, int b) {
        int steps = 0;
        while (a >= 0) {
            a = a + b;
            if (b >= 0) {
                b = -b - 1;
            } else {
                b = -b;
            }
            steps++;
        }
        return steps;
    }

    // Masse, VMCAI 2014, Ex. 6: while (x >= 0) [ x += y; if (y >= 0) y--; ]. Phase 1 counts y down
    // to -1 while x grows by y(y+1)/2, phase 2 counts x down by 1: y + x + y(y+1)/2 + 2 iterations
    // (a wrap of x + y, only upwards, ends the loop sooner).
    // expect: O(x + y^2)
    static int masseVmcai14Ex6(int x, int y) {
        int steps = 0;
        while (x >= 0) {
            x = x + y;
            if (y >= 0) {
                y = y - 1;
            }
            steps++;
        }
        return steps;
    }

    // Masse, VMCAI 2014, Ex. 6 with an off-by-one in the guard of the decrement (y > 0 instead of
    // y >= 0): y stops at 0 and x never moves again. Non-terminating for x = 0, y = 0 (and for every
    // x >= 0 once y reaches 0 before x is negative, e.g. x = 5, y = 3).
    // expect: nonterminating
    static int masseEx6OffByOne(int x, int y) {
        int steps = 0;
        while (x >= 0) {
            x = x + y;
            if (y > 0) {
                y = y - 1;
            }
            steps++;
        }
        return steps;
    }

    // Bradley, Manna & Sipma, ICALP 2005, Fig. 1 ("SIMPLE"), deterministic version of the Ultimate
    // suite, in long: assume x + y >= 0; while (x <= n) [ if (*) [ x = 2x + y; y++ ] else x++ ].
    // x + y >= 0 is invariant and becomes >= 1 after the first step, so from then on x grows by at
    // least 1 per iteration: at most n - x + 2 iterations, whatever y (polyranking needs the
    // invariant x + y >= 0).
    // expect: O(n + x)
    static int bmsIcalp05Simple(int x0, int y0, int n, int c) {
        long x = x0;
        long y = y0;
        if (x + y < 0) {
            return 0;
        }
        int steps = 0;
        while (x <= n) {
            if ((c & 1) != 0) {
                x = 2 * x + y;
                y = y + 1;
            } else {
                x = x + 1;
            }
            c = (c >>> 1) | (c << 31);
            steps++;
        }
        return steps;
    }

    // LassoRanker example "Khartoum" (Leike, Ultimate suite, 2012): while (x > 0) [ x = x - y;
    // y = 1; ]. After the first iteration x is a ranking function. The first x - y wraps only when
    // y is very negative (to a negative x), so at most 1 + x + |y| iterations.
    // expect: O(x + y)
    static int lassoKhartoum(int x, int y) {
        int steps = 0;
        while (x > 0) {
            x = x - y;
            y = 1;
            steps++;
        }
        return steps;
    }
}
