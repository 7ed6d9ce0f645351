public class BstLoopInsert {

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static void insert(MutableTree root, int v) {
        MutableTree cur = root;
        while (true) {
            if (v < cur.value) {
                if (cur.left == null) {
                    cur.left = new MutableTree(v);
                    return;
                }
                cur = cur.left;
            } else {
                if (cur.right == null) {
                    cur.right = new MutableTree(v);
                    return;
                }
                cur = cur.right;
            }
        }
    }

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static boolean contains(MutableTree root, int v) {
        MutableTree cur = root;
        while (cur != null) {
            if (v == cur.value) {
                return true;
            }
            if (v < cur.value) {
                cur = cur.left;
            } else {
                cur = cur.right;
            }
        }
        return false;
    }

    // insert only attaches fresh leaves, so the tree stays acyclic; every descent
    // walks down a finite tree. The insertion loop is counted by n.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        MutableTree root = new MutableTree(Random.random());
        int n = Random.random();
        for (int i = 0; i < n; i++) {
            insert(root, Random.random());
        }
        contains(root, Random.random());
    }
}
