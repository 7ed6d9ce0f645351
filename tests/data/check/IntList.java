import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * The list concatenation example of Fenacci and MacKenzie (RESA), Sections 2 to 4: consume is
 * called twice, then once per cell of p after the first.
 */
public class IntList {
    private int data;
    private IntList next;

    // The annotated version: verified.
    @Requires("{ | lseg(1, @arg p, null) * lseg(0, @arg q, null) | 2 }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    @Invariant(id = 1, value = "{ | lseg(0, @arg p, @var t) * lseg(1, @var t, null) * lseg(0, @arg q, null) | 0 }")
    IntList concat(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            Loop.invariant(1);
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }

    // Only one constant unit: the second consume cannot be paid ("LP is infeasible").
    @Requires("{ | lseg(1, @arg p, null) * lseg(0, @arg q, null) | 1 }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    @Invariant(id = 1, value = "{ | lseg(0, @arg p, @var t) * lseg(1, @var t, null) * lseg(0, @arg q, null) | 0 }")
    IntList concatShort(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            Loop.invariant(1);
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }

    // Generic annotations: the paper's optimal solution x1 = 1, x2 = 0, x3 = 2, y1 = y2 = 0,
    // z1 = 0, z2 = 1, z3 = z4 = 0.
    @Requires("{ | lseg(x1, @arg p, null) * lseg(x2, @arg q, null) | x3 }")
    @Ensures("{ | lseg(y1, @ret, null) | y2 }")
    @Invariant(id = 1, value = "{ | lseg(z1, @arg p, @var t) * lseg(z2, @var t, null) * lseg(z3, @arg q, null) | z4 }")
    IntList concatGeneric(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            Loop.invariant(1);
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }

    // Resource asked back at the end: x1 = 4, x2 = 3, x3 = 9.
    @Requires("{ | lseg(x1, @arg p, null) * lseg(x2, @arg q, null) | x3 }")
    @Ensures("{ | lseg(3, @ret, null) | 7 }")
    @Invariant(id = 1, value = "{ | lseg(z1, @arg p, @var t) * lseg(z2, @var t, null) * lseg(z3, @arg q, null) | z4 }")
    IntList concatKeep(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            Loop.invariant(1);
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }

    // Beyond RESA: no loop invariant and no data facts; both are inferred.
    @Requires("{ | lseg(x1, @arg p, null) * lseg(x2, @arg q, null) | x3 }")
    @Ensures("{ | lseg(y1, @ret, null) | y2 }")
    IntList concatInferred(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }

    // Field assertions expose the first cell of p, which the loop never pays for: the bound is
    // |p| + 1 (the number of consumes exactly), one unit less than with lseg(1, @arg p, null).
    @Requires("exists n:ref. { @arg p == null | lseg(0, @arg q, null) | 2 } || { | [(@arg p).next:ref -> n] * [(@arg p).data:int -> ?] * lseg(1, n, null) * lseg(0, @arg q, null) | 2 }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    @Invariant(id = 1, value = "exists n:ref. { | lseg(0, @arg p, @var t) * [(@var t).next:ref -> n] * [(@var t).data:int -> ?] * lseg(1, n, null) * lseg(0, @arg q, null) | 0 }")
    IntList concatTight(IntList p, IntList q) {
        Resource.consume();
        Resource.consume();
        if (p == null) return q;
        else {
            IntList t = p;
            Loop.invariant(1);
            while (t.next != null) {
                t = t.next;
                Resource.consume();
            }
            t.next = q;
            return p;
        }
    }
}
