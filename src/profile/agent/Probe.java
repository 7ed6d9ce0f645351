/** The static methods that instrumented bytecode calls: method entry and exit, call sites, bytecode counts. */
package jresa.agent;

/**
 * The profiler's runtime, JP2's {@code JP2Runtime} and {@code CCTNode} operations in one place.
 *
 * <p>Instrumented code calls only the public static methods here. They touch no instrumented code
 * (only {@code Thread.currentThread} and {@code System.identityHashCode}, which are native, plus this
 * package's classes, which are never instrumented), so the profiler cannot recurse into itself. The
 * only allocations (a thread's state, a new CCT node) run {@code Object.<init>}, which is
 * instrumented; they happen with the thread's {@code inside} guard set, or, for the thread state
 * itself, while {@link #creating} names the thread.
 *
 * <p>A method's activation keeps its node and its pending count in local variables (see
 * {@link MethodRewriter}), so counting a segment touches no memory; only entry, exit, call sites and
 * exception handlers touch the node and the thread state. When an entry probe returns null (the agent's own code is running on the thread,
 * or, in selective mode, the thread is outside every profiled extent) the method runs its
 * uninstrumented copy instead; the other probes accept null for methods too large to have one.
 */
public final class Probe {
    private Probe() {}

    /** Guards registration of thread states. */
    private static final Object LOCK = new Object();
    /** Open-addressing table of thread states keyed by thread identity; replaced, never resized in place. */
    private static volatile ThreadState[] table = new ThreadState[64];
    private static int tableCount;
    /** The state looked up last, by any thread; a racy cache that is checked before use. */
    private static ThreadState cache;
    /** The thread registering its state right now (its own allocations must not recurse). */
    private static Thread creating;
    /** Every thread state ever created, for the dump. */
    private static ThreadState[] states = new ThreadState[16];
    private static int stateCount;
    /** Whether profiling is restricted to the dynamic extent of selected methods. */
    static volatile boolean selective;

    /** Forces initialisation of this class and the classes it uses before any code is instrumented. */
    static void initialise(boolean selectiveMode) {
        selective = selectiveMode;
        ThreadState probe = state();
        if (probe == null) {
            throw new IllegalStateException("jresa agent: cannot create the thread state");
        }
    }

    /** The current thread's state, created on first use; null while that creation is under way. */
    static ThreadState state() {
        ThreadState cached = cache;
        if (cached != null && cached.thread == Thread.currentThread()) {
            return cached;
        }
        return lookup();
    }

    /** {@link #state()} when the state looked up last belongs to another thread (kept out of line). */
    private static ThreadState lookup() {
        Thread thread = Thread.currentThread();
        ThreadState[] tab = table;
        int mask = tab.length - 1;
        int i = System.identityHashCode(thread) & mask;
        while (true) {
            ThreadState entry = tab[i];
            if (entry == null) {
                break;
            }
            if (entry.thread == thread) {
                cache = entry;
                return entry;
            }
            i = (i + 1) & mask;
        }
        return register(thread);
    }

    private static ThreadState register(Thread thread) {
        synchronized (LOCK) {
            if (creating == thread) {
                return null;
            }
            ThreadState[] tab = table;
            int mask = tab.length - 1;
            int i = System.identityHashCode(thread) & mask;
            while (tab[i] != null) {
                if (tab[i].thread == thread) {
                    return tab[i];
                }
                i = (i + 1) & mask;
            }
            creating = thread;
            try {
                ThreadState created = new ThreadState(thread, selective);
                if ((tableCount + 1) * 2 > tab.length) {
                    ThreadState[] grown = new ThreadState[tab.length * 2];
                    int grownMask = grown.length - 1;
                    for (ThreadState entry : tab) {
                        if (entry != null) {
                            int k = System.identityHashCode(entry.thread) & grownMask;
                            while (grown[k] != null) {
                                k = (k + 1) & grownMask;
                            }
                            grown[k] = entry;
                        }
                    }
                    tab = grown;
                    mask = grownMask;
                    i = System.identityHashCode(thread) & mask;
                    while (tab[i] != null) {
                        i = (i + 1) & mask;
                    }
                }
                tab[i] = created;
                tableCount++;
                table = tab;
                if (stateCount == states.length) {
                    ThreadState[] more = new ThreadState[states.length * 2];
                    System.arraycopy(states, 0, more, 0, stateCount);
                    states = more;
                }
                states[stateCount++] = created;
                cache = created;
                return created;
            } finally {
                creating = null;
            }
        }
    }

    /** A snapshot of all thread states. */
    static ThreadState[] allStates() {
        synchronized (LOCK) {
            ThreadState[] copy = new ThreadState[stateCount];
            System.arraycopy(states, 0, copy, 0, stateCount);
            return copy;
        }
    }

    /** Sets the current thread's guard and returns its previous value (true when there is no state). */
    static boolean enterAgent() {
        ThreadState s = state();
        if (s == null) {
            return true;
        }
        boolean was = s.inside;
        s.inside = true;
        return was;
    }

    /** Restores the current thread's guard to what {@link #enterAgent()} returned. */
    static void leaveAgent(boolean was) {
        ThreadState s = state();
        if (s != null) {
            s.inside = was;
        }
    }

    /**
     * Before the JDK's part of a string concatenation (see {@code Transformer.concatenations}): turns
     * the probes off on this thread and returns what {@link #concatEnd} restores.
     */
    public static boolean concatStart() {
        return enterAgent();
    }

    /** After a string concatenation: the probes as they were before {@link #concatStart}. */
    public static void concatEnd(boolean was) {
        leaveAgent(was);
    }

    /**
     * Method entry: returns the callee's context (made current), or null when not profiling. The
     * context is looked up among the contexts the caller entered from the same call site first (see
     * {@link Node#bySite}). The fast path, the context entered last from that site, is kept small
     * so that the JIT inlines it into every instrumented method.
     */
    public static Node enter(int mid) {
        ThreadState s = state();
        if (s == null || s.inside) {
            return null;
        }
        Node parent = s.current;
        int site = parent.pending;
        Node node = lastAtSite(parent, site >>> 16);
        if (node != null && node.mid == mid) {
            node.calls++;
            node.pending = -1;
            s.current = node;
            return node;
        }
        return enterSlowly(s, parent, mid, site);
    }

    /** The head of the list of children {@code parent} entered from invoke ordinal {@code slot}, or null. */
    private static Node lastAtSite(Node parent, int slot) {
        if (slot == 0) {
            return parent.atSite0;
        }
        if (slot == 1) {
            return parent.atSite1;
        }
        Node[] slots = parent.bySite;
        return slot < slots.length ? slots[slot] : null;
    }

    /** Counts an entry of {@code node} and makes it current, with no call pending. */
    private static Node activate(ThreadState s, Node node) {
        node.calls++;
        node.pending = -1;
        s.current = node;
        return node;
    }

    /**
     * {@link #enter} when the context is not the one entered last from the call site (kept out of
     * line): the site's other contexts, then all children.
     */
    private static Node enterSlowly(ThreadState s, Node parent, int mid, int site) {
        if (parent == s.outside) {
            return null;
        }
        for (Node node = lastAtSite(parent, site >>> 16); node != null; node = node.nextAtSite) {
            if (node.mid == mid) {
                return activate(s, node);
            }
        }
        Node node = parent.child(mid, site, parent);
        if (site >= 0) {
            parent.remember(site >>> 16, node);
        }
        return activate(s, node);
    }

    /** Entry of a method selected with {@code --only}: starts a profiled extent when outside one. */
    public static Node enterSelected(int mid) {
        ThreadState s = state();
        if (s == null || s.inside) {
            return null;
        }
        Node parent = s.current;
        int site = parent.pending;
        Node node;
        if (parent == s.outside) {
            // The extent's root hangs below the thread's root but returns to "outside" on exit. Code
            // outside extents runs uninstrumented, so no call site is known.
            node = s.root.child(mid, -1, s.outside);
        } else {
            node = parent.child(mid, site, parent);
        }
        return activate(s, node);
    }

    /**
     * Entry of a class initialiser. The JVM runs it on its own, so its call site is -1 whatever invoke
     * is pending in the context it interrupts (which keeps that site for the call it is about to make).
     */
    public static Node enterClinit(int mid, int selected) {
        ThreadState s = state();
        if (s == null || s.inside) {
            return null;
        }
        Node parent = s.current;
        Node node;
        if (parent == s.outside) {
            if (selected == 0) {
                return null;
            }
            node = s.root.child(mid, -1, s.outside);
        } else {
            node = parent.child(mid, -1, parent);
        }
        return activate(s, node);
    }

    /**
     * Method exit, normal or by an exception (the catch-all handler): adds the instructions counted in
     * the activation's local and makes the parent current again. The parent's pending call site is
     * still the one it called from (which calls through code that is not instrumented need: a
     * lambda's code calls the lambda's body and its boxing methods from its caller's call site).
     */
    public static void exit(Node node, long count) {
        if (node != null) {
            node.bytecodes += count;
            node.state.current = node.parent;
        }
    }

    /**
     * After a call returned: no call is pending any more. The callee's exit made this activation
     * current again (a callee that is not instrumented never changed it).
     */
    public static void returned(Node node) {
        if (node != null) {
            node.pending = -1;
        }
    }

    /**
     * At an exception handler: this activation is current again, with no call pending (a
     * constructor left by the exception has not restored anything).
     */
    public static void resume(Node node) {
        if (node != null) {
            node.pending = -1;
            node.state.current = node;
        }
    }

    /** Counts the instructions of a code segment of a constructor, at its start. */
    public static void count(Node node, int instructions) {
        if (node != null) {
            node.bytecodes += instructions;
        }
    }

    /**
     * Counts a segment that starts at an exception handler, and makes this activation current again
     * with no call pending (callees left by the exception may not have restored it: constructors
     * have no catch-all).
     */
    public static void countReset(Node node, int instructions) {
        if (node != null) {
            node.bytecodes += instructions;
            node.pending = -1;
            node.state.current = node;
        }
    }

    /**
     * Before an invoke: adds the instructions counted in the activation's local and the segment that
     * ends with the invoke, and records the invoke as the pending call site: its ordinal among the
     * method's invokes in the high half, its bytecode index in the low half (see {@link Node#site}).
     */
    public static void site(Node node, long count, int instructions, int ordinal, int bci) {
        if (node != null) {
            node.bytecodes += count + instructions;
            node.pending = ordinal << 16 | bci;
        }
    }
}
