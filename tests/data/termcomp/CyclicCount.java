public class CyclicCount {

    // Parameters start acyclic (the contract of the analysis, see README.md): the
    // walk follows a field to null in at most as many steps as the structure is deep.
    // expect: terminating
    public static int count(IntList l) {
        int n = 0;
        while (l != null) {
            n++;
            l = l.next;
        }
        return n;
    }

    // An empty second argument closes the list into a ring, which count walks forever.
    // Input: args = {"aa", ""} (n = 2, back edge added).
    // expect: nonterminating
    public static void main(String[] args) {
        Random.args = args;
        int n = Random.random();
        IntList head = new IntList(0, null);
        IntList last = head;
        for (int i = 1; i < n; i++) {
            last.next = new IntList(i, null);
            last = last.next;
        }
        if (Random.random() == 0) {
            last.next = head;
        }
        count(head);
    }
}
