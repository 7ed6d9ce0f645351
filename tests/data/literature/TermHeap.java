/**
 * Termination literature, loops whose bounds live in the heap: array lengths (bounded by the
 * inputs' sizes), array elements and static fields (unbounded: such loops terminate, but their
 * cost is not a function of the parameters), and index chasing through arrays as in the
 * array and list programs of the TermComp Java_Bytecode category. Java semantics: an access out of
 * bounds throws, which ends the method.
 */
public class TermHeap {

    /** A bound kept in a static field (set by other code). */
    static int limit = 3;

    // Heizmann, Hoenicke, Leike & Podelski, "Linear ranking for linear lasso programs", ATVA 2013,
    // Fig. 7: jump through an array by offset + a[i] (a[i] >= 0 checked). i grows by at least 1;
    // if i + 1 + a[i] wraps negative, a[i] throws next. At most |a| iterations.
    // expect: O(|a|)
    static int hhlpAtva13Fig7(int[] a) {
        int offset = 1;
        int i = 0;
        int steps = 0;
        while (i < a.length) {
            if (a[i] < 0) {
                break;
            }
            i = i + offset + a[i];
            steps++;
        }
        return steps;
    }

    // Brockschmidt, Stroeder, Otto & Giesl, FoVeOOS 2011, "LoopingNonterm" (TPDB Java_Bytecode
    // BSOG_FoVeOOS_11): i += a[i] with no check; a = [0] keeps i = 0 < 1 forever.
    // expect: nonterminating
    static int loopingNonterm(int[] a) {
        int i = 0;
        int j = a.length;
        int steps = 0;
        while (i < j) {
            i += a[i];
            steps++;
        }
        return steps;
    }

    // Linear search for a sentinel (the TermComp Java array programs): at most |a| iterations.
    // expect: O(|a|)
    static int scanUntilZero(int[] a) {
        int i = 0;
        while (i < a.length && a[i] != 0) {
            i++;
        }
        return i;
    }

    // Traversal of a possibly cyclic list stored as an index array (the cyclic-list programs of
    // Brockschmidt, Musiol, Otto & Giesl, CAV 2012, with a step budget): ranked by
    // |next| - steps, whatever the links.
    // expect: O(|next|)
    static int indexChase(int[] next) {
        int i = 0;
        int steps = 0;
        while (i >= 0 && i < next.length && steps < next.length) {
            i = next[i];
            steps++;
        }
        return steps;
    }

    // Halving the length (divide-and-conquer depth): log2(|a|) + 1 iterations.
    // expect: O(log(|a|))
    static int halveLength(int[] a) {
        int m = a.length;
        int steps = 0;
        while (m > 0) {
            m = m / 2;
            steps++;
        }
        return steps;
    }

    // Run-length expansion: the inner bound is an array element (TermComp Java_Bytecode array
    // style). Terminates (each inner loop counts up to a fixed element), but the cost is the sum
    // of the elements: not bounded by the parameters.
    // expect: terminating
    static int expandCounts(int[] a) {
        int c = 0;
        for (int k = 0; k < a.length; k++) {
            for (int j = 0; j < a[k]; j++) {
                c++;
            }
        }
        return c;
    }

    // A counter in the heap counted down in place: ranked by a[0] (a heap cell no other code
    // writes meanwhile). Terminates; cost a[0], not a function of the parameters.
    // expect: terminating
    static int decrementCell(int[] a) {
        int steps = 0;
        while (a[0] > 0) {
            a[0]--;
            steps++;
        }
        return steps;
    }

    // Counting sort's range: the second loop runs up to the maximum element (j < max, so a
    // maximum of MAX_VALUE does not wrap). Terminates; cost not bounded by |a|.
    // expect: terminating
    static int countingSortRange(int[] a) {
        int max = 0;
        for (int k = 0; k < a.length; k++) {
            max = Math.max(max, a[k]);
        }
        int c = 0;
        for (int j = 0; j < max; j++) {
            c++;
        }
        return c;
    }

    // A loop bounded by a static field (configuration read from the heap; TermComp Java
    // programs with static state). Terminates; cost limit, not a function of n.
    // expect: terminating
    static int staticLimit(int n) {
        int s = 0;
        for (int i = 0; i < limit; i++) {
            s += n;
        }
        return s;
    }

    // A heap-read bound clamped by a parameter: the element only shortens the loop, so the cost
    // is bounded by n after all.
    // expect: O(n)
    static int clampedHeapBound(int[] a, int n) {
        int k = a[0];
        if (k > n) {
            k = n;
        }
        int s = 0;
        for (int i = 0; i < k; i++) {
            s += i;
        }
        return s;
    }
}
