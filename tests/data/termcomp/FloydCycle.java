public class FloydCycle {

    // Tortoise and hare: on an acyclic list fast reaches null; on a lasso the gap
    // between fast and slow inside the cycle shrinks by one per step until they meet.
    // expect: terminating
    public static boolean hasCycle(IntList l) {
        IntList slow = l;
        IntList fast = l;
        while (fast != null && fast.next != null) {
            slow = slow.next;
            fast = fast.next.next;
            if (slow == fast) {
                return true;
            }
        }
        return false;
    }

    // A counted build loop, an optional back edge to the head, then hasCycle.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        IntList head = new IntList(0, null);
        IntList last = head;
        for (int i = 0; i < n; i++) {
            last.next = new IntList(i, null);
            last = last.next;
        }
        if (Random.random() > 0) {
            last.next = head;
        }
        hasCycle(head);
    }
}
