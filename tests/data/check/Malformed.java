import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/** Malformed annotations: each gives a diagnostic pointing into the annotation string. */
public class Malformed {
    int value;
    Malformed next;

    // A syntax error: the `|` before the resource is missing.
    @Requires("{ | lseg(1, @arg list, null) 2 }")
    static void missingBar(Malformed list) {
        Resource.consume();
    }

    // No parameter has that name.
    @Requires("{ | lseg(1, @arg lst, null) | 0 }")
    static void unknownParameter(Malformed list) {
        Resource.consume();
    }

    // `@ret` only makes sense after the method.
    @Requires("{ @ret != null | | 1 }")
    static Malformed retInPrecondition(Malformed list) {
        Resource.consume();
        return list;
    }

    // A list segment over an int.
    @Requires("{ | lseg(1, @arg n, null) | 0 }")
    static void segmentOverInt(int n) {
        Resource.consume();
    }

    // The field is an int, not a reference.
    @Requires("{ | [(@arg list).value:ref -> null] | 1 }")
    static void wrongFieldType(Malformed list) {
        Resource.consume();
    }

    // A marker with no invariant, and an invariant with no marker.
    @Requires("{ | lseg(1, @arg list, null) | 0 }")
    @Invariant(id = 3, value = "{ | lseg(1, @var p, null) | 0 }")
    static void mismatchedMarker(Malformed list) {
        Malformed p = list;
        Loop.invariant(2);
        while (p != null) {
            Resource.consume();
            p = p.next;
        }
    }
}
