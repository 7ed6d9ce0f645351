import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * Instances from preconditions: each method misbehaves (throws, or shares cells) on inputs its
 * `@Requires` excludes, so the golden reports show which instances were generated.
 */
public class Preconditions {
    /** A list cell. */
    static class Cell {
        int value;
        Cell next;
    }

    /** A binary tree node. */
    static class Node {
        int key;
        Node left;
        Node right;
    }

    // Non-null lists only: null would throw.
    @Requires("{ @arg p != null | lseg(1, @arg p, null) | 1 }")
    static int head(Cell p) {
        Resource.consume();
        int first = p.value;
        for (Cell c = p; c != null; c = c.next) {
            Resource.consume();
        }
        return first;
    }

    // Trees, not DAGs: a shared subtree would be counted twice.
    @Requires("{ | tree(1, @arg t) | 0 }")
    static int size(Node t) {
        if (t == null) {
            return 0;
        }
        Resource.consume();
        return 1 + size(t.left) + size(t.right);
    }

    // Two separate lists.
    @Requires("{ | lseg(1, @arg a, null) * lseg(2, @arg b, null) | 0 }")
    static int both(Cell a, Cell b) {
        int n = 0;
        for (Cell c = a; c != null; c = c.next) {
            Resource.consume();
            n++;
        }
        for (Cell c = b; c != null; c = c.next) {
            Resource.consume(2);
            n++;
        }
        return n;
    }

    // Either an empty list, or a first cell whose successor starts a list that pays its way.
    @Requires("exists n:ref. { @arg p == null | | 0 } || { | [(@arg p).next:ref -> n] * [(@arg p).value:int -> ?] * lseg(1, n, null) | 1 }")
    static int tail(Cell p) {
        if (p == null) {
            return 0;
        }
        Resource.consume();
        int n = 0;
        for (Cell c = p.next; c != null; c = c.next) {
            Resource.consume();
            n++;
        }
        return n;
    }

    // A segment from p up to q, which lies further down the same list: q shares p's cells.
    @Requires("{ | lseg(1, @arg p, @arg q) * lseg(0, @arg q, null) | 0 }")
    static int segment(Cell p, Cell q) {
        int n = 0;
        for (Cell c = p; c != q; c = c.next) {
            Resource.consume();
            n++;
        }
        return n;
    }
}
