import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/** Specifications that do not hold, each failing for its own reason. */
public class WrongSpecs {
    int value;
    WrongSpecs next;

    // Too little resource per cell: the loop's consume cannot be paid ("LP is infeasible").
    @Requires("{ | lseg(0, @arg list, null) | 5 }")
    @Ensures("{ | | 0 }")
    @Invariant(id = 1, value = "{ | lseg(0, @arg list, @var p) * lseg(0, @var p, null) | 5 }")
    static int tooLittle(WrongSpecs list) {
        int n = 0;
        WrongSpecs p = list;
        Loop.invariant(1);
        while (p != null) {
            Resource.consume();
            n++;
            p = p.next;
        }
        return n;
    }

    // The precondition forgets q, so the result is not known to be a list when p is null (an
    // entailment fails, not the LP).
    @Requires("{ | lseg(1, @arg p, null) | 2 }")
    @Ensures("{ | lseg(0, @ret, null) | 0 }")
    static WrongSpecs concatWithoutQ(WrongSpecs p, WrongSpecs q) {
        Resource.consume();
        Resource.consume();
        if (p == null) {
            return q;
        }
        WrongSpecs t = p;
        while (t.next != null) {
            t = t.next;
            Resource.consume();
        }
        t.next = q;
        return p;
    }

    // The list may be empty, but the loop reads list.next first: a null dereference.
    @Requires("{ | lseg(2, @arg list, null) | 3 }")
    @Ensures("{ | lseg(0, @arg list, null) | 0 }")
    static void appendToEmpty(WrongSpecs list, WrongSpecs cell) {
        WrongSpecs p = list;
        while (p.next != null) {
            p = p.next;
        }
        p.next = cell;
    }

    // The postcondition claims an acyclic list, but the method closes a cycle.
    @Requires("{ @arg p != null | lseg(0, @arg p, null) | 0 }")
    @Ensures("{ | lseg(0, @arg p, null) | 0 }")
    static void closeCycle(WrongSpecs p) {
        p.next = p;
    }

    // Keeps two units per cell of the result...
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(2, @ret, null) | 0 }")
    static WrongSpecs reverseKeeping(WrongSpecs list) {
        WrongSpecs reversed = null;
        WrongSpecs rest = list;
        while (rest != null) {
            WrongSpecs next = rest.next;
            rest.next = reversed;
            reversed = rest;
            rest = next;
            Resource.consume();
        }
        return reversed;
    }

    // ...but needs three per cell of its argument, so calling it twice cannot be paid.
    @Requires("{ | lseg(x, @arg list, null) | c }")
    @Ensures("{ | lseg(y, @ret, null) | d }")
    static WrongSpecs reverseTwice(WrongSpecs list) {
        return reverseKeeping(reverseKeeping(list));
    }
}
