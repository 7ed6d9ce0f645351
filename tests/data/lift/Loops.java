/**
 * Lifter fixture: loops. Every loop form javac produces, early exits
 * (break, continue, labeled break, return), loops that throw, a long
 * counter, and array traversals.
 */
public class Loops {

    // while loop with the test at the top (javac: goto to the test, or test first)
    static int whileLoop(int n) {
        int i = 0;
        int s = 0;
        while (i < n) {
            s += i;
            i++;
        }
        return s;
    }

    // for loop with iinc as the update
    static int forLoop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i * i;
        }
        return s;
    }

    // counting-down for loop with a >= 0 test
    static int forDown(int n) {
        int s = 0;
        for (int i = n - 1; i >= 0; i--) {
            s = s * 3 + i;
        }
        return s;
    }

    // do-while loop: body executes before the first test
    static int doWhile(int n) {
        int i = 0;
        do {
            i += 2;
        } while (i < n);
        return i;
    }

    // nested for loops (n * m inner iterations)
    static int nested(int n, int m) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                c += i ^ j;
            }
        }
        return c;
    }

    // break and continue in a single loop
    static int breakContinue(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            if (i % 3 == 0) {
                continue;
            }
            if (s > 100) {
                break;
            }
            s += i;
        }
        return s;
    }

    // labeled break out of two nested loops
    static int labeledBreak(int n) {
        int found = -1;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i * j == 12) {
                    found = i * 100 + j;
                    break outer;
                }
            }
        }
        return found;
    }

    // labeled continue to the outer loop from the inner loop
    static int labeledContinue(int n) {
        int c = 0;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (j > i) {
                    continue outer;
                }
                c++;
            }
        }
        return c;
    }

    // return from inside a nested loop
    static int returnFromNested(int n, int target) {
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (i + j == target) {
                    return i * n + j;
                }
            }
        }
        return -1;
    }

    // while(true) loop left only by a return (terminates for n >= 0)
    static int whileTrueReturn(int n) {
        int i = 0;
        while (true) {
            if (i >= n) {
                return i;
            }
            i++;
        }
    }

    // for(;;) loop left only by a break (no loop condition at all)
    static int forEverBreak(int n) {
        int i = 1;
        for (;;) {
            i *= 2;
            if (i > n) {
                break;
            }
        }
        return i;
    }

    // genuinely infinite loop with no exit: the method never returns (do not call)
    static void spinForever() {
        int i = 0;
        while (true) {
            i++;
        }
    }

    // loop whose body may throw: exits either normally or with an exception
    static int loopThrows(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] < 0) {
                throw new IllegalArgumentException("negative at " + i);
            }
            s += a[i];
        }
        return s;
    }

    // loop with a long counter (lcmp in the test, ladd in the update)
    static long longCounter(long n) {
        long s = 0;
        for (long i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    // loop over an array with an explicit index (arraylength in the test)
    static int arrayIndexLoop(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // enhanced for over an array (javac copies the array and its length into synthetic locals)
    static int enhancedFor(int[] a) {
        int s = 0;
        for (int x : a) {
            s += x;
        }
        return s;
    }

    // enhanced for over an array of references
    static int enhancedForRefs(String[] a) {
        int n = 0;
        for (String s : a) {
            if (s != null) {
                n += s.length();
            }
        }
        return n;
    }

    // halving loop (logarithmic iteration count)
    static int halving(int n) {
        int k = 0;
        while (n > 1) {
            n >>= 1;
            k++;
        }
        return k;
    }

    // loop with two induction variables moving toward each other
    static int twoPointers(int n) {
        int i = 0;
        int j = n;
        int steps = 0;
        while (i < j) {
            i++;
            j--;
            steps++;
        }
        return steps;
    }

    // loop condition with && (two exit edges from the header)
    static int shortCircuitCond(int[] a, int x) {
        int i = 0;
        while (i < a.length && a[i] != x) {
            i++;
        }
        return i;
    }
}
