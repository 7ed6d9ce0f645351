public class ListSearch {

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static boolean contains(IntList l, int v) {
        while (l != null && l.value != v) {
            l = l.next;
        }
        return l != null;
    }

    // The list is built by a counted loop and is acyclic, so contains stops at null.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        IntList l = null;
        for (int i = 0; i < n; i++) {
            l = new IntList(Random.random(), l);
        }
        contains(l, Random.random());
    }
}
