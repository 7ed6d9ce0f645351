public class ListMerge {

    // Merging a list with itself writes tail.next into nodes still ahead: for a = b = [1, 2]
    // node 1 comes to point to itself and b stays on it forever (no cycle at the start).
    // Input: a = b = the list 1 -> 2.
    // expect: nonterminating
    public static IntList merge(IntList a, IntList b) {
        IntList dummy = new IntList(0, null);
        IntList tail = dummy;
        while (a != null && b != null) {
            if (a.value <= b.value) {
                tail.next = a;
                a = a.next;
            } else {
                tail.next = b;
                b = b.next;
            }
            tail = tail.next;
        }
        if (a != null) {
            tail.next = a;
        } else {
            tail.next = b;
        }
        return dummy.next;
    }

    // Prepending n, n-1, ..., 1 gives a fresh sorted acyclic list; counted by n.
    // expect: terminating
    public static IntList sorted(int n, int step) {
        IntList l = null;
        for (int i = n; i > 0; i--) {
            l = new IntList(i * step, l);
        }
        return l;
    }

    // Both inputs are fresh, acyclic and disjoint, so every merge step consumes a node.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        IntList a = sorted(Random.random(), 2);
        IntList b = sorted(Random.random(), 3);
        merge(a, b);
    }
}
