public final class Cons {
    final int head;
    final Cons tail;

    Cons(int head, Cons tail) {
        this.head = head;
        this.tail = tail;
    }

    // tail is final and set in the constructor to an already existing object, so no
    // chain of Cons cells can be cyclic: the walk reaches null.
    // expect: terminating
    public int size() {
        int n = 0;
        Cons c = this;
        while (c != null) {
            n++;
            c = c.tail;
        }
        return n;
    }
}
