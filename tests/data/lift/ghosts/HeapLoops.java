// Loops that read heap locations: the ghost pass (`ir::ghosts`) makes the ones no statement of
// the loop can write loop variables, and leaves the others as they are.
class HeapLoops {
    static int limit;
    int size;
    int[] cells;

    // A static field: ghosted.
    static int toStatic(int from) {
        int c = 0;
        for (int i = from; i < limit; i++) {
            c++;
        }
        return c;
    }

    // A field of an object the loop does not change, and an element at a constant index: both
    // ghosted.
    int toField(int[] a) {
        int c = 0;
        for (int i = 0; i < size && i < a[0]; i++) {
            c++;
        }
        return c;
    }

    // An element at an index the inner loop keeps: ghosted in the inner loop only (the outer
    // one changes k).
    static int nested(int[] a) {
        int c = 0;
        for (int k = 0; k < a.length; k++) {
            for (int j = 0; j < a[k]; j++) {
                c++;
            }
        }
        return c;
    }

    // The loop writes an int array: no int element is ghosted.
    static int writes(int[] a, int[] b) {
        int c = 0;
        while (c < a[0]) {
            b[0] = c;
            c++;
        }
        return c;
    }

    // The loop calls a method, which may write anything: nothing is ghosted.
    int calls() {
        int c = 0;
        while (c < size) {
            touch();
            c++;
        }
        return c;
    }

    void touch() {
        size--;
    }

    // The loop writes the field it reads, only through this: a ghost that its stores update.
    int countsDown() {
        int c = 0;
        while (size > 0) {
            size--;
            c++;
        }
        return c;
    }
}
