public class ListReverse {

    // In-place reversal terminates on every heap: on a lasso-shaped list it walks the
    // stem, the cycle, then the already reversed stem back to null (each node at most twice).
    // expect: terminating
    public static IntList reverse(IntList l) {
        IntList prev = null;
        IntList cur = l;
        while (cur != null) {
            IntList nxt = cur.next;
            cur.next = prev;
            prev = cur;
            cur = nxt;
        }
        return prev;
    }

    // The list built here is acyclic and stays acyclic after reversal, so the final
    // traversal reaches null; the build loop is counted by n.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        IntList l = null;
        for (int i = 0; i < n; i++) {
            l = new IntList(Random.random(), l);
        }
        l = reverse(l);
        int count = 0;
        while (l != null) {
            count++;
            l = l.next;
        }
    }
}
