public class TreeFlatten {

    // Persistent insertion, recursion on a child of an acyclic immutable tree.
    // expect: terminating
    public static Tree put(Tree t, int v) {
        if (t == null) {
            return new Tree(v, null, null);
        }
        if (v < t.value) {
            return new Tree(t.value, put(t.left, v), t.right);
        }
        return new Tree(t.value, t.left, put(t.right, v));
    }

    // In-order flattening with an accumulator list; both recursive calls are on
    // children of an acyclic immutable tree.
    // expect: terminating
    public static IntList flatten(Tree t, IntList acc) {
        if (t == null) {
            return acc;
        }
        return flatten(t.left, new IntList(t.value, flatten(t.right, acc)));
    }

    // The flattened list consists of fresh nodes prepended to null, hence acyclic, so the
    // counting loop reaches null.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Tree t = null;
        for (int i = 0; i < n; i++) {
            t = put(t, Random.random());
        }
        IntList l = flatten(t, null);
        int count = 0;
        while (l != null) {
            count++;
            l = l.next;
        }
    }
}
