import jresa.spec.Ensures;
import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * A search tree kept in a container object with its root and a count, as java.util.TreeMap
 * keeps it. Insertion pays one unit per node on its path and one for itself; counting the
 * nodes pays one unit per node. These are bounds per call: insertion spends the potential of
 * its path and leaves none, so they do not compose into an amortised bound over sequences of
 * calls (validation on sequences of insert and size reports the sequences that show it).
 */
public class TreeBag {
    static final class Node {
        int key;
        Node left;
        Node right;

        Node(int key) {
            this.key = key;
        }
    }

    /** Keys not inserted yet. */
    static final class Pending {
        int key;
        Pending next;
    }

    Node root;
    int count;
    Pending pending;

    @Requires("{ | tree(1, @arg t) | 0 }")
    @Ensures("{ | tree(0, @ret) | 0 }")
    static Node insertAt(Node t, int key) {
        if (t == null) {
            return new Node(key);
        }
        Resource.consume();
        if (key < t.key) {
            t.left = insertAt(t.left, key);
        } else {
            t.right = insertAt(t.right, key);
        }
        return t;
    }

    @Requires("{ | tree(1, @arg t) | 0 }")
    @Ensures("{ | tree(0, @arg t) | 0 }")
    static int nodes(Node t) {
        if (t == null) {
            return 0;
        }
        Resource.consume();
        return 1 + nodes(t.left) + nodes(t.right);
    }

    // The root's class (Node, a tree) comes from the field that holds it.
    @Requires("exists r: ref. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(1, r) | 1 }")
    @Ensures("exists r: ref. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(0, r) | 0 }")
    void insert(int key) {
        Resource.consume();
        root = insertAt(root, key);
        count++;
    }

    @Requires("exists r: ref. { | [(@arg this).root:ref -> r] * tree(1, r) | 0 }")
    @Ensures("exists r: ref. { | [(@arg this).root:ref -> r] * tree(0, r) | 0 }")
    int size() {
        return nodes(root);
    }

    // Inferred: the least potential per node and the constant.
    @Requires("exists r: Node. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(a, r) | b }")
    @Ensures("exists r: Node. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(0, r) | 0 }")
    void insertInferred(int key) {
        Resource.consume();
        root = insertAt(root, key);
        count++;
    }

    // Too little: nothing for the insertion's own unit.
    @Requires("exists r: ref. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(1, r) | 0 }")
    @Ensures("exists r: ref. { | [(@arg this).root:ref -> r] * [(@arg this).count:int -> ?] * tree(0, r) | 0 }")
    void insertShort(int key) {
        Resource.consume();
        root = insertAt(root, key);
        count++;
    }

    // A tree and a list in one specification, each of its own class; the loop's invariant is
    // inferred through the container.
    @Requires("exists r: ref p: ref. { | [(@arg this).root:ref -> r] * [(@arg this).pending:ref -> p] * tree(1, r) * lseg(1, p, null) | 0 }")
    @Ensures("exists r: ref p: ref. { | [(@arg this).root:ref -> r] * [(@arg this).pending:ref -> p] * tree(0, r) * lseg(0, p, null) | 0 }")
    int sizeWithPending() {
        int n = nodes(root);
        for (Pending q = pending; q != null; q = q.next) {
            Resource.consume();
            n++;
        }
        return n;
    }
}
