public class ListCopy {

    // Parameters start acyclic (the contract of the analysis, see README.md): c walks the
    // source to null; the writes go to fresh nodes only.
    // expect: terminating
    public static IntList copy(IntList l) {
        if (l == null) {
            return null;
        }
        IntList head = new IntList(l.value, null);
        IntList tail = head;
        IntList c = l.next;
        while (c != null) {
            tail.next = new IntList(c.value, null);
            tail = tail.next;
            c = c.next;
        }
        return head;
    }

    // The source list is built by a counted loop and is acyclic.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        IntList l = null;
        for (int i = 0; i < n; i++) {
            l = new IntList(i, l);
        }
        copy(l);
    }
}
