public class TreeMirror {

    // Structural recursion on an acyclic immutable tree; builds a new tree.
    // expect: terminating
    public static Tree mirror(Tree t) {
        if (t == null) {
            return null;
        }
        return new Tree(t.value, mirror(t.right), mirror(t.left));
    }

    // Structural recursion on an acyclic immutable tree.
    // expect: terminating
    public static int total(Tree t) {
        if (t == null) {
            return 0;
        }
        return t.value + total(t.left) + total(t.right);
    }

    // Builds a tree of depth n bottom-up in a counted loop, then mirrors and sums it.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        Tree t = null;
        for (int i = 0; i < n; i++) {
            t = new Tree(Random.random(), t, new Tree(i, null, null));
        }
        total(mirror(t));
    }
}
