package jresa.spec;

/**
 * Explicit resource consumption.
 *
 * <p>The methods of this class have empty bodies and do nothing at run time:
 * they are markers that jresa recognises in the bytecode. Each call site of
 * {@code consume} is counted by the analysis as consuming the given number of
 * resource units, so that a program can state exactly what it wants bounded
 * (calls, iterations, messages sent, ...).
 */
public final class Resource {
    private Resource() {
    }

    /** Marker: consumes one unit of resource. Does nothing at run time. */
    public static void consume() {
    }

    /**
     * Marker: consumes {@code units} units of resource. Does nothing at run
     * time. The argument should be a constant for the analysis to use it
     * precisely.
     */
    public static void consume(int units) {
    }
}
