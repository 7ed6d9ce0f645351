/**
 * Calls whose cost depends on their arguments: bounded when the arguments are bounded by the
 * inputs, and otherwise reported with the callee whose cost cannot be bounded (the method still
 * terminates: the callee's loop is ranked).
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

    // expect: terminating
    static int sumFirst(int[] a) {
        return sum(a[0]);
    }

    // expect: terminating
    static int countDownFirst(int[] a) {
        int n = a[0];
        int c = 0;
        while (n > 0) {
            n--;
            c++;
        }
        return c;
    }

    // Loops forever when n is odd.
    // expect: unbounded
    static int spin(int n) {
        while (n != 0) {
            n -= 2;
        }
        return n;
    }

    // expect: unbounded
    static int spinFirst(int[] a) {
        return spin(a[0]);
    }

    // expect: unbounded
    static int spinAfterCountDown(int[] a) {
        return countDownFirst(a) + spin(a[1]);
    }
}
