/**
 * Field writes and path lengths: a write may close a cycle (then a walk is never claimed to end)
 * or lengthen a structure that variables read before it still point into; a list built from new
 * cells has the length of the loop that built it; an in-place reversal walks a part the writes
 * never reach.
 */
public class HeapWrites {
    static final class Node {
        Node next;
        int value;

        // expect: O(1)
        Node() {
        }
    }

    // expect: unbounded
    static int closeCycle(Node a) {
        a.next = a;
        int k = 0;
        for (Node c = a; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: unbounded
    static int relink(Node a, Node b) {
        a.next = b;
        int k = 0;
        for (Node c = a.next; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(n) for inputs within limits
    static int buildAndWalk(int n) {
        Node head = null;
        for (int i = 0; i < n; i++) {
            Node cell = new Node();
            cell.next = head;
            head = cell;
        }
        int k = 0;
        for (Node c = head; c != null; c = c.next) {
            k++;
        }
        return k;
    }

    // expect: O(|list|)
    static Node reverse(Node list) {
        Node done = null;
        while (list != null) {
            Node rest = list.next;
            list.next = done;
            done = list;
            list = rest;
        }
        return done;
    }

    // expect: O(|list|)
    static int sum(Node list) {
        int s = 0;
        for (Node c = list; c != null; c = c.next) {
            s += c.value;
        }
        return s;
    }
}
