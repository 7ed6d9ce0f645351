public class TreeHeight {

    // Persistent insertion, recursion on a child of an acyclic immutable tree.
    // expect: terminating
    public static Tree add(Tree t, int v) {
        if (t == null) {
            return new Tree(v, null, null);
        }
        if (v < t.value) {
            return new Tree(t.value, add(t.left, v), t.right);
        }
        return new Tree(t.value, t.left, add(t.right, v));
    }

    // Structural recursion on an acyclic immutable tree.
    // expect: terminating
    public static int height(Tree t) {
        if (t == null) {
            return 0;
        }
        int l = height(t.left);
        int r = height(t.right);
        return 1 + (l > r ? l : r);
    }

    // Walks left children of an immutable tree; final fields rule out a cycle.
    // expect: terminating
    public static int leftDepth(Tree t) {
        int d = 0;
        while (t != null) {
            d++;
            t = t.left;
        }
        return d;
    }

    // A counted loop of insertions, then two terminating calls.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Tree t = null;
        for (int i = 0; i < n; i++) {
            t = add(t, Random.random());
        }
        height(t);
        leftDepth(t);
    }
}
