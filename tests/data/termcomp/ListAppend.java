public class ListAppend {

    // Counted by n.
    // expect: terminating
    public static IntList create(int n) {
        IntList l = null;
        while (n > 0) {
            l = new IntList(n, l);
            n--;
        }
        return l;
    }

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static IntList append(IntList a, IntList b) {
        if (a == null) {
            return b;
        }
        IntList c = a;
        while (c.next != null) {
            c = c.next;
        }
        c.next = b;
        return a;
    }

    // Both lists are fresh and disjoint, so a is acyclic and so is the result.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        IntList a = create(Random.random());
        IntList b = create(Random.random());
        append(a, b);
    }
}
