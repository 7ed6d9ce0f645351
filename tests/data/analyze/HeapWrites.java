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

    // A new cell is linked into the list given, then grown: the final walk runs over the n new
    // cells too, which the list's length at entry does not count. (Writes into cells a method made
    // change no cell it was given only while it links none of them into one: `Chain.copy`.) It
    // ends: every list stays acyclic.
    // expect: terminating
    static int linkThenGrow(Cell l, int n) {
        Cell fresh = new Cell();
        l.next = fresh;
        Cell t = fresh;
        for (int i = 0; i < n; i++) {
            t.next = new Cell();
            t = t.next;
        }
        int k = 0;
        for (Cell c = l; c != null; c = c.next) {
            k++;
        }
        return k;
    }
}
