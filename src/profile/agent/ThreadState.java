/** The profiler's per-thread state: the thread's CCT, its current context and the pending call site. */
package jresa.agent;

/**
 * Per-thread profiling state, found through {@link Probe#state()} without touching any instrumented code.
 *
 * <p>{@code current} is the context whose method is executing and {@code site} the invoke that
 * method is about to execute (its ordinal and bytecode index, as {@link Node#site} keeps it), or -1:
 * JP2's {@code getCurrentNode} and {@code getBI}. {@code inside} is the guard that is set while the agent's own code runs on this
 * thread: instrumented methods entered meanwhile are not profiled and leave the state untouched.
 */
final class ThreadState {
    final Thread thread;
    /** The root of this thread's tree; its children are the methods the thread entered first. */
    final Node root;
    /**
     * The context that stands for "outside every profiled extent" in selective mode: methods entered
     * there are not profiled, and the roots of extents return to it.
     */
    final Node outside;
    Node current;
    int site = -1;
    boolean inside;
    /** Set while the transformer runs on this thread, to refuse classes loaded by the transformer itself. */
    boolean transforming;

    ThreadState(Thread thread, boolean selective) {
        this.thread = thread;
        this.root = new Node(-1, -1, null, this);
        this.outside = new Node(-1, -1, null, this);
        this.current = selective ? outside : root;
    }
}
