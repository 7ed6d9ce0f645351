/** The profiler's per-thread state: the thread's CCT and its current context. */
package jresa.agent;

/**
 * Per-thread profiling state, found through {@link Probe#state()} without touching any instrumented code.
 *
 * <p>{@code current} is the context whose method is executing (JP2's {@code getCurrentNode}); the
 * invoke it is about to execute is that context's {@link Node#pending} (JP2's {@code getBI}). {@code inside} is the guard that is set while the agent's own code runs on this
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
