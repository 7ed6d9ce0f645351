/** One calling context of one thread's calling-context tree: a method entered from a call site of its parent. */
package jresa.agent;

/**
 * A node of a per-thread calling-context tree (CCT).
 *
 * <p>A node is identified among its siblings by the pair (method id, call site), where the call site is
 * the invoke instruction in the parent's method (its ordinal and bytecode index, see {@link #site}),
 * or -1 when the method was not entered through an instrumented invoke (class initialisation, calls from the JVM itself, the root of
 * a thread). Only the owning thread mutates a node; the shutdown dump reads nodes of other threads
 * racily, which is safe because the children array is always published fully built.
 */
public final class Node {
    /** The method id from {@link Methods}, or -1 for a thread's root and its "outside" sentinel. */
    final int mid;
    /**
     * The call site in the parent's method, or -1: the invoke's ordinal among the method's invokes
     * (0 for the first) times 65,536 plus its bytecode index, so that {@link #bySite} can be indexed
     * by the high half and the CCT file gets the low half ({@link #bci}).
     */
    final int site;
    /** The context to return to when this activation exits. */
    final Node parent;
    /** The thread this node belongs to. */
    final ThreadState state;
    /**
     * The call site this context's activation is about to call from, or -1 (JP2's {@code getBI}):
     * set before each invoke, reset when the call returns and at entry, so that code the JVM runs on
     * its own in between (the constructor of an exception an instruction throws, a class initialiser)
     * is not taken for a callee of that call. Only one activation of a context runs at a time.
     */
    int pending = -1;
    /** Activations of this context. */
    long calls;
    /** Bytecode instructions executed in this context, excluding callees. */
    long bytecodes;
    /**
     * The children entered from each call site, by invoke ordinal: the first of a list linked by
     * {@link #nextAtSite}, the fast path of {@code Probe.enter}. A site usually calls one method; a
     * virtual call, or a lambda's code that is not instrumented (which calls the lambda's body and
     * its boxing methods from its caller's call site), a few. Grown on demand. The lists of
     * ordinals 0 and 1 start in {@link #atSite0} and {@link #atSite1} instead, so that entering a
     * context from one of a method's first two call sites reads only the parent and the child (on a
     * tree too large for the caches, the array would be one more miss per call).
     */
    Node[] bySite = NO_NODES;
    /** The first child entered from invoke ordinal 0 (the head of its {@link #nextAtSite} list). */
    Node atSite0;
    /** The first child entered from invoke ordinal 1. */
    Node atSite1;
    /** The next child entered from the same call site of the parent (see {@link #bySite}). */
    Node nextAtSite;
    /** Whether this node is in one of its parent's lists by call site. */
    boolean atSite;
    /** The children, in creation order; only the first {@link #childCount} entries are used. */
    Node[] children;
    /** The number of children. */
    int childCount;
    /** An open-addressing index of the children, built once there are many of them. */
    private Node[] index;

    private static final Node[] NO_NODES = new Node[0];

    /** The number of children below which a linear scan beats the hash index. */
    private static final int LINEAR_LIMIT = 8;

    Node(int mid, int site, Node parent, ThreadState state) {
        this.mid = mid;
        this.site = site;
        this.parent = parent == null ? this : parent;
        this.state = state;
    }

    /** Returns the child for (mid, site), creating it with the given parent link when absent. */
    Node child(int mid, int site, Node parentForNew) {
        Node found = find(mid, site);
        if (found == null) {
            found = add(mid, site, parentForNew);
        }
        return found;
    }

    /** Adds {@code kid} to the list of the children entered from an invoke ordinal, once. */
    void remember(int ordinal, Node kid) {
        if (kid.atSite) {
            return;
        }
        if (ordinal < 2) {
            if (ordinal == 0) {
                kid.nextAtSite = atSite0;
                atSite0 = kid;
            } else {
                kid.nextAtSite = atSite1;
                atSite1 = kid;
            }
            kid.atSite = true;
            return;
        }
        Node[] slots = bySite;
        if (ordinal >= slots.length) {
            boolean wasInside = state.inside;
            state.inside = true;
            try {
                Node[] grown = new Node[Math.max(ordinal + 1, slots.length * 2)];
                System.arraycopy(slots, 0, grown, 0, slots.length);
                bySite = slots = grown;
            } finally {
                state.inside = wasInside;
            }
        }
        kid.nextAtSite = slots[ordinal];
        kid.atSite = true;
        slots[ordinal] = kid;
    }

    /** The bytecode index of the call site in the parent's method, or -1. */
    int bci() {
        return site < 0 ? -1 : site & 0xFFFF;
    }

    private Node find(int mid, int site) {
        Node[] table = index;
        if (table == null) {
            Node[] kids = children;
            for (int i = 0; i < childCount; i++) {
                Node kid = kids[i];
                if (kid.mid == mid && kid.site == site) {
                    return kid;
                }
            }
            return null;
        }
        int mask = table.length - 1;
        int i = hash(mid, site) & mask;
        while (true) {
            Node kid = table[i];
            if (kid == null) {
                return null;
            }
            if (kid.mid == mid && kid.site == site) {
                return kid;
            }
            i = (i + 1) & mask;
        }
    }

    private Node add(int mid, int site, Node parentForNew) {
        // Allocating runs Object.<init>, which is instrumented: the guard keeps it from being counted
        // and from recursing into this method.
        boolean wasInside = state.inside;
        state.inside = true;
        try {
            Node kid = new Node(mid, site, parentForNew, state);
            Node[] kids = children;
            if (kids == null) {
                kids = new Node[2];
            } else if (childCount == kids.length) {
                Node[] grown = new Node[kids.length * 2];
                System.arraycopy(kids, 0, grown, 0, childCount);
                kids = grown;
            }
            kids[childCount] = kid;
            // The array is published before the count grows, so a racy reader never sees a hole.
            children = kids;
            childCount++;
            if (childCount > LINEAR_LIMIT) {
                if (index == null || childCount * 2 > index.length) {
                    rebuildIndex();
                } else {
                    insert(index, kid);
                }
            }
            return kid;
        } finally {
            state.inside = wasInside;
        }
    }

    private void rebuildIndex() {
        int size = 32;
        while (size < childCount * 4) {
            size *= 2;
        }
        Node[] table = new Node[size];
        for (int i = 0; i < childCount; i++) {
            insert(table, children[i]);
        }
        index = table;
    }

    private static void insert(Node[] table, Node kid) {
        int mask = table.length - 1;
        int i = hash(kid.mid, kid.site) & mask;
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = kid;
    }

    /** The hash of a child's key in {@link #index}. */
    static int hash(int mid, int site) {
        int h = mid * 0x9E3779B1 + site * 0x85EBCA6B;
        return h ^ (h >>> 15);
    }
}
