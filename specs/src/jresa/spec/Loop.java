package jresa.spec;

/**
 * Loop markers.
 *
 * <p>The methods of this class have empty bodies and do nothing at run time:
 * they are markers that jresa recognises in the bytecode.
 */
public final class Loop {
    private Loop() {
    }

    /**
     * Marker placed just before a loop (after its initialisation, as the last
     * statement before {@code while}, {@code for} or {@code do}): ties the loop
     * that follows to the {@link Invariant} annotation of the method whose
     * {@code id} equals {@code id}. Does nothing at run time; the argument must
     * be an integer constant.
     */
    public static void invariant(int id) {
    }
}
