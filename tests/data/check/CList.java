import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * A linked list kept in a container object, as java.util.LinkedList keeps it: first, last and
 * size. The cells from first to last carry one unit each for clear, the last cell's unit is in
 * the constant potential; add costs 2 units (one for itself, one for clear), clear nothing.
 */
public class CList {
    static final class Node {
        int value;
        Node next;

        Node(int value) {
            this.value = value;
        }
    }

    Node first;
    Node last;
    int size;

    // Appends at last.
    @Requires("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 2 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 3 }")
    @Ensures("exists f: ref l: ref. { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 1 }")
    void add(int v) {
        Resource.consume();
        Node n = new Node(v);
        Node l = last;
        if (l == null) {
            first = n;
        } else {
            l.next = n;
        }
        last = n;
        size++;
    }

    // Unlinks every cell, one unit each, as LinkedList.clear does.
    @Requires("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 1 }")
    @Ensures("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 0 }")
    @Invariant(id = 1, value = "{ | lseg(1, @var x, null) | 0 }")
    void clear() {
        Node x = first;
        Loop.invariant(1);
        while (x != null) {
            Resource.consume();
            Node next = x.next;
            x.next = null;
            x = next;
        }
        first = null;
        last = null;
        size = 0;
    }

    // Adds every cell of other, two units per cell (add's), paid by other's cells.
    @Requires("exists f: ref l: ref g: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * [(@arg other).first:ref -> g] * lseg(2, g, null) | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] * [(@arg other).first:ref -> g] * lseg(2, g, null) | 1 }")
    @Ensures("exists f: ref l: ref g: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * [(@arg other).first:ref -> g] * lseg(0, g, null) | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] * [(@arg other).first:ref -> g] * lseg(0, g, null) | 1 }")
    @Invariant(id = 1, value = "exists f: ref l: ref g: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * [(@arg other).first:ref -> g] * lseg(0, g, @var p) * lseg(2, @var p, null) | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] * [(@arg other).first:ref -> g] * lseg(0, g, @var p) * lseg(2, @var p, null) | 1 }")
    void addAll(CList other) {
        Node p = other.first;
        Loop.invariant(1);
        while (p != null) {
            add(p.value);
            p = p.next;
        }
    }

    // Too little: the cell add appends cannot get the unit clear will need.
    @Requires("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 1 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 2 }")
    @Ensures("exists f: ref l: ref. { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 1 }")
    void addShort(int v) {
        Resource.consume();
        Node n = new Node(v);
        Node l = last;
        if (l == null) {
            first = n;
        } else {
            l.next = n;
        }
        last = n;
        size++;
    }

    // clear with its invariant inferred through the container: the cursor's cell is paid for
    // before it is read, whether or not cells remain before last.
    @Requires("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] | 1 }")
    @Ensures("exists f: ref l: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] | 0 }")
    void clearInferred() {
        Node x = first;
        while (x != null) {
            Resource.consume();
            Node next = x.next;
            x.next = null;
            x = next;
        }
        first = null;
        last = null;
        size = 0;
    }

    // Appends a copy of every cell of other at last, the loop's invariant inferred: it keeps
    // last's cell as a cell, the list's end.
    @Requires("exists f: ref l: ref g: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * [(@arg other).first:ref -> g] * lseg(2, g, null) | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] * [(@arg other).first:ref -> g] * lseg(2, g, null) | 1 }")
    @Ensures("exists f: ref l: ref g: ref. { f == null, l == null | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * [(@arg other).first:ref -> g] * lseg(0, g, null) | 0 } || { | [(@arg this).first:ref -> f] * [(@arg this).last:ref -> l] * [(@arg this).size:int -> ?] * lseg(1, f, l) * [(l).value:int -> ?] * [(l).next:ref -> null] * [(@arg other).first:ref -> g] * lseg(0, g, null) | 1 }")
    void appendAll(CList other) {
        for (Node p = other.first; p != null; p = p.next) {
            Resource.consume();
            Node n = new Node(p.value);
            Node l = last;
            if (l == null) {
                first = n;
            } else {
                l.next = n;
            }
            last = n;
            size++;
        }
    }
}
