import jresa.spec.Ensures;
import jresa.spec.Requires;
import jresa.spec.Resource;

/** Binary trees, processed by recursion: each call uses the method's own specification. */
public class Trees {
    int key;
    Trees left;
    Trees right;

    Trees(int key) {
        this.key = key;
    }

    // One unit per node; the tree is left intact, without potential.
    @Requires("{ | tree(1, @arg t) | 0 }")
    @Ensures("{ | tree(0, @arg t) | 0 }")
    static int size(Trees t) {
        if (t == null) {
            return 0;
        }
        Resource.consume();
        return 1 + size(t.left) + size(t.right);
    }

    // The same, inferred: a1 = 1, the rest 0.
    @Requires("{ | tree(a1, @arg t) | a2 }")
    @Ensures("{ | tree(b1, @arg t) | b2 }")
    static int sizeInferred(Trees t) {
        if (t == null) {
            return 0;
        }
        Resource.consume();
        return 1 + sizeInferred(t.left) + sizeInferred(t.right);
    }

    // Insertion into a search tree: one unit per node on the path, paid by one unit per node.
    @Requires("{ | tree(a, @arg t) | b }")
    @Ensures("{ | tree(0, @ret) | 0 }")
    static Trees insert(Trees t, int key) {
        if (t == null) {
            return new Trees(key);
        }
        Resource.consume();
        if (key < t.key) {
            t.left = insert(t.left, key);
        } else {
            t.right = insert(t.right, key);
        }
        return t;
    }

    // Mirrors the tree in place, two units per node.
    @Requires("{ | tree(2, @arg t) | 0 }")
    @Ensures("{ | tree(0, @arg t) | 0 }")
    static void mirror(Trees t) {
        if (t == null) {
            return;
        }
        Resource.consume(2);
        Trees swap = t.left;
        t.left = t.right;
        t.right = swap;
        mirror(t.left);
        mirror(t.right);
    }
}
