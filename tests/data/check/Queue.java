import jresa.spec.Ensures;
import jresa.spec.Invariant;
import jresa.spec.Loop;
import jresa.spec.Requires;
import jresa.spec.Resource;

/**
 * The textbook amortised queue: two lists of cells held by a container object. Enqueue pushes
 * on back; dequeue pops front, first moving every cell of back onto front when front is empty.
 * Each cell of back carries the unit its move costs, so enqueue costs 2 units and dequeue 1.
 */
public class Queue {
    static final class Cell {
        int value;
        Cell next;

        Cell(int value, Cell next) {
            this.value = value;
            this.next = next;
        }
    }

    Cell front;
    Cell back;

    // The existentials get the cell class from the fields that hold them.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 2 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    void enqueue(int v) {
        Resource.consume();
        back = new Cell(v, back);
    }

    // The transfer loop keeps the queue's shape: its invariant is the precondition itself.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 1 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    @Invariant(id = 1, value = "exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 1 }")
    int dequeue() {
        if (front == null) {
            Loop.invariant(1);
            while (back != null) {
                Cell c = back;
                back = c.next;
                c.next = front;
                front = c;
                Resource.consume();
            }
        }
        Cell first = front;
        if (first == null) {
            return -1;
        }
        Resource.consume();
        front = first.next;
        return first.value;
    }

    // The queue as a parameter: the existentials of the precondition get the cell class from
    // the fields that hold them, those of the postcondition name it (simple or nested name).
    @Requires("exists f: ref b: ref. { | [(@arg q).front : ref -> f] * [(@arg q).back : ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 2 }")
    @Ensures("exists f: Cell b: Queue.Cell. { | [(@arg q).front : ref -> f] * [(@arg q).back : ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    static void enqueueInto(Queue q, int v) {
        Resource.consume();
        q.back = new Cell(v, q.back);
    }

    // Too little: the new cell of back cannot get the unit its later move costs.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 1 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    void enqueueShort(int v) {
        Resource.consume();
        back = new Cell(v, back);
    }

    // Too little: without its unit, dequeue cannot pay for the pop.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    @Invariant(id = 1, value = "exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    int dequeueShort() {
        if (front == null) {
            Loop.invariant(1);
            while (back != null) {
                Cell c = back;
                back = c.next;
                c.next = front;
                front = c;
                Resource.consume();
            }
        }
        Cell first = front;
        if (first == null) {
            return -1;
        }
        Resource.consume();
        front = first.next;
        return first.value;
    }

    // With one unit per cell of back, the constant enqueue needs is inferred: c = 2.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | c }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    void enqueueGeneric(int v) {
        Resource.consume();
        back = new Cell(v, back);
    }

    // The transfer loop's invariant is inferred through the container.
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 1 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 0 }")
    int dequeueInferred() {
        if (front == null) {
            while (back != null) {
                Cell c = back;
                back = c.next;
                c.next = front;
                front = c;
                Resource.consume();
            }
        }
        Cell first = front;
        if (first == null) {
            return -1;
        }
        Resource.consume();
        front = first.next;
        return first.value;
    }

    // Verified on its own, but its postcondition leaves the new cell of back without the unit
    // that moving it costs dequeue: with dequeue, its 1 unit per call is not an amortised bound,
    // which validation on call sequences shows (enqueueLeaky, dequeue consumes 3 units).
    @Requires("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(1, b, null) | 1 }")
    @Ensures("exists f: ref b: ref. { | [(@arg this).front:ref -> f] * [(@arg this).back:ref -> b] * lseg(0, f, null) * lseg(0, b, null) | 0 }")
    void enqueueLeaky(int v) {
        Resource.consume();
        back = new Cell(v, back);
    }
}
