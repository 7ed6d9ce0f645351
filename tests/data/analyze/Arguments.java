/**
 * Calls whose cost depends on their arguments: bounded when the arguments are bounded by the
 * inputs, and otherwise reported with the callee whose cost cannot be bounded.
 */
public class Arguments {
    // expect: O(1)
    Arguments() {
    }

    // expect: O(n)
    static int sum(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    // expect: O(|a|)
    static int sumLength(int[] a) {
        return sum(a.length);
    }

    // expect: unbounded
    static int sumFirst(int[] a) {
        return sum(a[0]);
    }
}
