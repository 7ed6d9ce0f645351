import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * The other textbook amortised example: a stack with multipop. Push costs one unit and leaves
 * one on its cell, which pays for popping the cell later, by pop or by multipop: push costs 2
 * units, pop and multipop nothing, whatever the number of cells they pop.
 */
public class Stack {
    static final class Node {
        int value;
        Node next;

        Node(int value, Node next) {
            this.value = value;
            this.next = next;
        }
    }

    Node top;

    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 2 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    void push(int v) {
        Resource.consume();
        top = new Node(v, top);
    }

    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    int pop() {
        Node t = top;
        if (t == null) {
            return -1;
        }
        Resource.consume();
        top = t.next;
        return t.value;
    }

    // Pops up to k cells, one unit each, paid by the cells.
    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    @Invariant(id = 1, value = "exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    void multipop(int k) {
        Loop.invariant(1);
        while (k > 0 && top != null) {
            Resource.consume();
            top = top.next;
            k--;
        }
    }

    // Too little: push keeps no unit on its cell, so popping it cannot be paid for.
    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 1 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    void pushShort(int v) {
        Resource.consume();
        top = new Node(v, top);
    }

    // Too little: the cells carry nothing, so multipop cannot pay for its pops.
    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(0, t, null) | 0 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(0, t, null) | 0 }")
    @Invariant(id = 1, value = "exists t: ref. { | [(@arg this).top:ref -> t] * lseg(0, t, null) | 0 }")
    void multipopShort(int k) {
        Loop.invariant(1);
        while (k > 0 && top != null) {
            Resource.consume();
            top = top.next;
            k--;
        }
    }

    // The loop's invariant is inferred through the container.
    @Requires("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    @Ensures("exists t: ref. { | [(@arg this).top:ref -> t] * lseg(1, t, null) | 0 }")
    void multipopInferred(int k) {
        while (k > 0 && top != null) {
            Resource.consume();
            top = top.next;
            k--;
        }
    }
}
