public class ListSum {

    // n - i decreases; every iteration also consumes one argument via Random.random().
    // expect: terminating
    public static IntList build(int n) {
        IntList l = null;
        for (int i = 0; i < n; i++) {
            l = new IntList(Random.random(), l);
        }
        return l;
    }

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static int sum(IntList l) {
        int s = 0;
        while (l != null) {
            s = s + l.value;
            l = l.next;
        }
        return s;
    }

    // build only prepends fresh nodes, so the list is acyclic and sum reaches null.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        IntList l = build(Random.random());
        sum(l);
    }
}
