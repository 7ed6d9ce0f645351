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

    /** A container of a list, for the annotations of container objects below. */
    static final class Box {
        Malformed head;

        Box(Malformed head) {
            this.head = head;
        }

        // Nothing says what the existential is: Box is no list and no field assertion binds it.
        @Requires("exists f: ref. { | lseg(1, f, null) | 0 }")
        void untypedExistential() {
            Resource.consume();
        }
    }

    // An existential declared with a class that does not exist.
    @Requires("exists f: Nowhere. { | [(@arg box).head:ref -> f] * lseg(1, f, null) | 0 }")
    static void unknownClass(Box box) {
        Resource.consume();
    }

    // An existential declared with a class that is not a list.
    @Requires("exists f: Box. { | lseg(1, f, null) | 0 }")
    static void classNotAList(Box box) {
        Resource.consume();
    }

    // A class name cannot start with a digit.
    @Requires("exists f: 3Cell. { | lseg(1, f, null) | 0 }")
    static void badClassName(Box box) {
        Resource.consume();
    }

    // A field the existential's class does not have.
    @Requires("exists f: Malformed. { | [(@arg box).head:ref -> f] * [(f).prev:ref -> ?] | 0 }")
    static void missingFieldOfExistential(Box box) {
        Resource.consume();
    }
}
