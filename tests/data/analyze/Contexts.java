/**
 * Loops whose termination needs what their callers know: a `!=` test keeps its two sides apart
 * (the block after it is analysed once per side), a method whose own callee ends only for
 * positive inputs is analysed again with that callee in its context, and a `do`-`while` loop's
 * first iteration is analysed apart from the later ones (which have passed the test).
 */
public class Contexts {
    // Subtractive gcd: each side of `a != b` subtracts the smaller from the larger.
    // expect: O(a + b)
    static int gcd(int a, int b) {
        if (a <= 0 || b <= 0) {
            return 0;
        }
        while (a != b) {
            if (a > b) {
                a = a - b;
            } else {
                b = b - a;
            }
        }
        return a;
    }

    // Without the guard it spins for a zero or negative input.
    // expect: unbounded
    static int gcdAnyInputs(int a, int b) {
        while (a != b) {
            if (a > b) {
                a = a - b;
            } else {
                b = b - a;
            }
        }
        return a;
    }

    // Its only call passes positive lengths.
    // expect: O(|x| + |y|)
    static int gcdOfLengths(int[] x, int[] y) {
        if (x.length > 0 && y.length > 0) {
            return gcdAnyInputs(x.length, y.length);
        }
        return 0;
    }

    // A counter that stops at `n` from below: the side `i > n` never runs.
    // expect: O(n)
    static int upTo(int n) {
        int i = 0;
        int s = 0;
        if (n < 0) {
            return 0;
        }
        while (i != n) {
            s += i;
            i++;
        }
        return s;
    }

    // expect: O(n)
    static int doWhile(int n) {
        int i = 0;
        do {
            i++;
        } while (i < n);
        return i;
    }

    // expect: O(|a|)
    static int doWhileOverArray(int[] a) {
        int i = 0;
        int s = 0;
        if (a.length == 0) {
            return 0;
        }
        do {
            s += a[i];
            i++;
        } while (i < a.length);
        return s;
    }
}
