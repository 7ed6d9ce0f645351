/**
 * A mutable singly linked list of ints.
 *
 * An {@code IntList} object is one cell: {@code head} is its value and
 * {@code tail} the rest of the list ({@code null} at the end).  The methods
 * walk the list iteratively, so their cost depends on the list length.
 */
public class IntList {
    int head;
    IntList tail;

    public IntList(int head, IntList tail) {
        this.head = head;
        this.tail = tail;
    }

    /** Builds a list holding the given values in order. */
    public static IntList of(int... values) {
        IntList r = null;
        for (int i = values.length - 1; i >= 0; i--) {
            r = new IntList(values[i], r);
        }
        return r;
    }

    /** Number of cells: one pass. */
    public int length() {
        int n = 0;
        IntList p = this;
        while (p != null) {
            n++;
            p = p.tail;
        }
        return n;
    }

    /** Sum of the values: one pass. */
    public int sum() {
        int s = 0;
        for (IntList p = this; p != null; p = p.tail) {
            s += p.head;
        }
        return s;
    }

    /** Adds a new cell holding x at the end of this list: one pass, one allocation. */
    public void append(int x) {
        IntList p = this;
        while (p.tail != null) {
            p = p.tail;
        }
        p.tail = new IntList(x, null);
    }

    /** Reverses this list in place and returns the new first cell: one pass. */
    public IntList reverse() {
        IntList prev = null;
        IntList cur = this;
        while (cur != null) {
            IntList next = cur.tail;
            cur.tail = prev;
            prev = cur;
            cur = next;
        }
        return prev;
    }

    /**
     * Destructively appends {@code other} to this list and returns this list:
     * walks to the last cell of this list, then links it to {@code other}.
     */
    public IntList concat(IntList other) {
        IntList x = this;
        while (x.tail != null) {
            x = x.tail;
        }
        x.tail = other;
        return this;
    }

    /** Whether some cell holds x: at most one pass, returns early. */
    public boolean contains(int x) {
        for (IntList p = this; p != null; p = p.tail) {
            if (p.head == x) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (IntList p = this; p != null; p = p.tail) {
            sb.append(p.head);
            if (p.tail != null) {
                sb.append(", ");
            }
        }
        return sb.append(']').toString();
    }

    public static void main(String[] args) {
        IntList a = IntList.of(1, 2, 3);
        IntList b = IntList.of(4, 5);
        System.out.println("a             = " + a);
        System.out.println("a.length()    = " + a.length());
        System.out.println("a.sum()       = " + a.sum());
        a.append(10);
        System.out.println("a.append(10)  = " + a);
        System.out.println("a.contains(2) = " + a.contains(2));
        System.out.println("a.contains(7) = " + a.contains(7));
        a = a.concat(b);
        System.out.println("a.concat(b)   = " + a);
        a = a.reverse();
        System.out.println("a.reverse()   = " + a);
    }
}
