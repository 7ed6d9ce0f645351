public class TreeSize {

    // Persistent insertion: recursion on a child of t; Tree objects are immutable and
    // acyclic (children exist before their parent), so the depth is bounded.
    // expect: terminating
    public static Tree insert(Tree t, int v) {
        if (t == null) {
            return new Tree(v, null, null);
        }
        if (v < t.value) {
            return new Tree(t.value, insert(t.left, v), t.right);
        }
        return new Tree(t.value, t.left, insert(t.right, v));
    }

    // Structural recursion on an acyclic immutable tree.
    // expect: terminating
    public static int size(Tree t) {
        if (t == null) {
            return 0;
        }
        return 1 + size(t.left) + size(t.right);
    }

    // A counted loop of insertions, then one call to size.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Tree t = null;
        for (int i = 0; i < n; i++) {
            t = insert(t, Random.random());
        }
        size(t);
    }
}
