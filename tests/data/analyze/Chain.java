/**
 * A singly linked list of ints, one cell per object; its instance methods walk the list, so their
 * cost depends on its length (the path length of {@code this}). Its last static methods write
 * fields: a write may close a cycle (then a walk is never claimed to end) or lengthen a list that
 * a variable read before it points into; a list built from new cells has the length of the loop
 * that built it; an in-place reversal walks a part the writes never reach.
 */
public class Chain {
    int value;
    Chain next;

    // expect: O(1)
    Chain(int value, Chain next) {
        this.value = value;
        this.next = next;
    }

    // expect: O(|this|)
    int length() {
        int n = 0;
        for (Chain p = this; p != null; p = p.next) {
            n++;
        }
        return n;
    }

    // expect: O(|this|)
    int sum() {
        int s = 0;
        Chain p = this;
        while (p != null) {
            s += p.value;
            p = p.next;
        }
        return s;
    }

    // expect: O(|this|)
    int last() {
        Chain p = this;
        while (p.next != null) {
            p = p.next;
        }
        return p.value;
    }

    // expect: O(|this|)
    boolean contains(int x) {
        for (Chain p = this; p != null; p = p.next) {
            if (p.value == x) {
                return true;
            }
        }
        return false;
    }

    // expect: O(|this|)
    int countAbove(int x) {
        int c = 0;
        for (Chain p = this; p != null; p = p.next) {
            if (p.value <= x) {
                continue;
            }
            c++;
        }
        return c;
    }

    // expect: O(|this|)
    int recursiveLength() {
        if (next == null) {
            return 1;
        }
        return 1 + next.recursiveLength();
    }

    // expect: O(|this|^2)
    int pairsWithSum(int target) {
        int c = 0;
        for (Chain p = this; p != null; p = p.next) {
            for (Chain q = p.next; q != null; q = q.next) {
                if (p.value + q.value == target) {
                    c++;
                }
            }
        }
        return c;
    }

    // expect: O(n)
    static Chain build(int n) {
        Chain r = null;
        for (int i = 0; i < n; i++) {
            r = new Chain(i, r);
        }
        return r;
    }

    /** A cell with no constructor of its own: new ones have only null fields. */
    static final class Cell {
        Cell next;
    }

    // expect: unbounded
    static int closeCycle(Chain a) {
        a.next = a;
        int k = 0;
        for (Chain c = a; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: unbounded
    static int relink(Chain a, Chain b) {
        a.next = b;
        int k = 0;
        for (Chain c = a.next; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(n) for inputs within limits
    static int buildAndWalk(int n) {
        Cell head = null;
        for (int i = 0; i < n; i++) {
            Cell cell = new Cell();
            cell.next = head;
            head = cell;
        }
        int k = 0;
        for (Cell c = head; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(|list|)
    static Chain reverse(Chain list) {
        Chain done = null;
        while (list != null) {
            Chain rest = list.next;
            list.next = done;
            done = list;
            list = rest;
        }
        return done;
    }
}
