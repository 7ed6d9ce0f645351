package jresa.spec;

/**
 * A counting stand-in for jresa.spec.Resource, put first on the class path when the soundness
 * test runs the fixtures: every consume adds to {@link #count}.
 */
public final class Resource {
    private Resource() {
    }

    /** Units consumed since the last reset. */
    public static long count;

    public static void consume() {
        count++;
    }

    public static void consume(int units) {
        count += units;
    }
}
