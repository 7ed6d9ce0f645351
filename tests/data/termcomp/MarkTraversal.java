public class MarkTraversal {

    // Every iteration marks a node that was unmarked; the heap holds finitely many
    // nodes, so this terminates on every heap, cyclic lists included.
    // expect: terminating
    public static int count(MarkNode l) {
        int n = 0;
        while (l != null && !l.visited) {
            l.visited = true;
            n++;
            l = l.next;
        }
        return n;
    }

    // Builds a ring of n >= 1 nodes in a counted loop; count terminates even on the ring.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random() + 1;
        MarkNode head = new MarkNode(0);
        MarkNode last = head;
        for (int i = 1; i < n; i++) {
            last.next = new MarkNode(i);
            last = last.next;
        }
        last.next = head;
        count(head);
    }
}
