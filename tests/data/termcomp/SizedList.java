public class SizedList {
    IntList head;
    int length;

    // No loop, no call.
    // expect: terminating
    public void add(int v) {
        head = new IntList(v, head);
        length++;
    }

    // Runs exactly this.length times (the field is not written in the loop), whatever
    // the chain looks like; a chain shorter than length ends with NullPointerException.
    // expect: terminating
    public int sum() {
        int s = 0;
        IntList c = head;
        for (int i = 0; i < length; i++) {
            s = s + c.value;
            c = c.next;
        }
        return s;
    }

    // this.length - i decreases; the loop bound is a field read on every test.
    // expect: terminating
    public int max() {
        int best = 0;
        IntList c = head;
        int i = 0;
        while (i < this.length) {
            if (c.value > best) {
                best = c.value;
            }
            c = c.next;
            i++;
        }
        return best;
    }
}
