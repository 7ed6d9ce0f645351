/**
 * Field writes and path lengths: a write may close a cycle (then a walk is never claimed to end)
 * or lengthen a structure that a variable read before it points into; a list built from new cells
 * has the length of the loop that built it.
 */
public class HeapWrites {
    /** A cell with no constructor of its own: new ones have only null fields. */
    static final class Cell {
        Cell next;
    }

    // expect: unbounded
    static int closeCycle(Cell a) {
        a.next = a;
        int k = 0;
        for (Cell c = a; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: unbounded
    static int relink(Cell a, Cell b) {
        a.next = b;
        int k = 0;
        for (Cell c = a.next; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(n)
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
}
