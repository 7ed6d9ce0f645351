import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/** Standard list operations: iteration, reversal, deletion, insertion, append. */
public class Lists {
    int value;
    Lists next;

    Lists(int value, Lists next) {
        this.value = value;
        this.next = next;
    }

    // Iteration with a written invariant: one unit per cell.
    @Requires("{ | lseg(1, @arg list, null) | 0 }")
    @Ensures("{ | lseg(0, @arg list, null) | 0 }")
    @Invariant(id = 1, value = "{ | lseg(0, @arg list, @var p) * lseg(1, @var p, null) | 0 }")
    static int length(Lists list) {
        int n = 0;
        Lists p = list;
        Loop.invariant(1);
        while (p != null) {
            Resource.consume();
            n++;
            p = p.next;
        }
        return n;
    }

    // Iteration, everything inferred: the sum of the values costs one unit per cell.
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(y, @arg list, null) | d }")
    static int sum(Lists list) {
        int s = 0;
        for (Lists p = list; p != null; p = p.next) {
            Resource.consume();
            s += p.value;
        }
        return s;
    }

    // In-place reversal with a written invariant.
    @Requires("{ | lseg(1, @arg list, null) | 0 }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    @Invariant(id = 7, value = "{ | lseg(0, @var reversed, null) * lseg(1, @var rest, null) | 0 }")
    static Lists reverse(Lists list) {
        Lists reversed = null;
        Lists rest = list;
        Loop.invariant(7);
        while (rest != null) {
            Lists next = rest.next;
            rest.next = reversed;
            reversed = rest;
            rest = next;
            Resource.consume();
        }
        return reversed;
    }

    // In-place reversal, the invariant inferred; the result keeps two units per cell.
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(2, @ret, null) | 0 }")
    static Lists reverseKeeping(Lists list) {
        Lists reversed = null;
        Lists rest = list;
        while (rest != null) {
            Lists next = rest.next;
            rest.next = reversed;
            reversed = rest;
            rest = next;
            Resource.consume();
        }
        return reversed;
    }

    // Deletes the first cell holding v (a trailing cursor; the invariant is inferred).
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(y, @ret, null) | d }")
    static Lists delete(Lists list, int v) {
        if (list == null) {
            return null;
        }
        if (list.value == v) {
            return list.next;
        }
        Lists previous = list;
        Lists current = list.next;
        while (current != null) {
            Resource.consume();
            if (current.value == v) {
                previous.next = current.next;
                return list;
            }
            previous = current;
            current = current.next;
        }
        return list;
    }

    // Inserts v into a sorted list (allocating one cell; the invariant is inferred).
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    static Lists insert(Lists list, int v) {
        Resource.consume();
        if (list == null || v <= list.value) {
            return new Lists(v, list);
        }
        Lists current = list;
        while (current.next != null && current.next.value < v) {
            Resource.consume();
            current = current.next;
        }
        current.next = new Lists(v, current.next);
        return list;
    }

    // Appends a fresh cell at the end: two units per cell walked, three units besides. The list
    // must not be empty (the loop reads list.next first).
    @Requires("{ @arg list != null | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(0, @arg list, null) | 0 }")
    static void append(Lists list, int v) {
        Resource.consume(3);
        Lists p = list;
        while (p.next != null) {
            Resource.consume(2);
            p = p.next;
        }
        p.next = new Lists(v, null);
    }

    // Calls an annotated method: its specification is used at the call (with the values that
    // verify it), and the frame (the rest of the heap) is kept across the call.
    @Requires("{ | lseg(x, @arg list, null) * lseg(z, @arg other, null) | c }")
    @Ensures("{ | lseg(0, @arg list, null) * lseg(0, @arg other, null) | 0 }")
    static int lengthPlusOne(Lists list, Lists other) {
        Resource.consume();
        return length(list) + 1;
    }

    // Compares two lists cell by cell: the loop stops at the end of either, so the first list
    // alone pays.
    @Requires("{ | lseg(x, @arg a, null) * lseg(y, @arg b, null) | c }")
    @Ensures("{ | lseg(0, @arg a, null) * lseg(0, @arg b, null) | 0 }")
    static boolean equal(Lists a, Lists b) {
        Lists p = a;
        Lists q = b;
        while (p != null && q != null) {
            Resource.consume();
            if (p.value != q.value) {
                return false;
            }
            p = p.next;
            q = q.next;
        }
        return p == null && q == null;
    }

    // Merges two sorted lists behind a dummy head: the inferred invariant has three disjuncts
    // (before the first step, after a step from a, after a step from b).
    @Requires("{ | lseg(x, @arg a, null) * lseg(y, @arg b, null) | c }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    static Lists merge(Lists a, Lists b) {
        Lists head = new Lists(0, null);
        Lists tail = head;
        while (a != null && b != null) {
            Resource.consume();
            if (a.value <= b.value) {
                tail.next = a;
                a = a.next;
            } else {
                tail.next = b;
                b = b.next;
            }
            tail = tail.next;
        }
        tail.next = a != null ? a : b;
        return head.next;
    }

    // Two loops, two written invariants (repeated @Invariant, stored in an @Invariants container):
    // the first walk pays one unit per cell and leaves two for the second.
    @Requires("{ | lseg(3, @arg list, null) | 0 }")
    @Ensures("{ | lseg(0, @arg list, null) | 0 }")
    @Invariant(id = 1, value = "{ | lseg(2, @arg list, @var p) * lseg(3, @var p, null) | 0 }")
    @Invariant(id = 2, value = "{ | lseg(0, @arg list, @var q) * lseg(2, @var q, null) | 0 }")
    static int walkTwice(Lists list) {
        int n = 0;
        Lists p = list;
        Loop.invariant(1);
        while (p != null) {
            Resource.consume();
            n++;
            p = p.next;
        }
        Lists q = list;
        Loop.invariant(2);
        while (q != null) {
            Resource.consume(2);
            n--;
            q = q.next;
        }
        return n;
    }
}
