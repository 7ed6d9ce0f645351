public class CyclicSafe {

    // Counted by steps, not by the list shape: steps - i decreases; a chain that
    // ends early raises NullPointerException.
    // expect: terminating
    public static int walk(IntList l, int steps) {
        int s = 0;
        for (int i = 0; i < steps; i++) {
            s = s + l.value;
            l = l.next;
        }
        return s;
    }

    // Builds a ring of n >= 1 nodes in a counted loop; walk is bounded by 3 * n, not by the ring.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random() + 1;
        IntList head = new IntList(0, null);
        IntList last = head;
        for (int i = 1; i < n; i++) {
            last.next = new IntList(i, null);
            last = last.next;
        }
        last.next = head;
        walk(head, 3 * n);
    }
}
