/** The shutdown hook that merges the per-thread trees and writes the CCT file jresa reads. */
package jresa.agent;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * Merges every thread's tree into one (children with the same method and call site are summed) and
 * writes it as a line-based file:
 *
 * <pre>
 * jresa-cct 1
 * meta NAME VALUE                       (tab-separated, numbers)
 * uninstrumented WHAT REASON
 * method ID CLASS NAME DESCRIPTOR
 * node ID PARENT METHOD SITE CALLS BYTECODES   (the root is node 0 with parent and method -1)
 * end
 * </pre>
 *
 * Fields are separated by tabs; backslash, tab, newline and carriage return inside names are escaped
 * as {@code \\ \t \n \r}. Nodes come in preorder, so a parent precedes its children. The final
 * {@code end} line tells a complete file from a truncated one.
 *
 * <p>This runs as a subclass of {@link Thread} so that the hook's own code is never instrumented; it
 * sets its thread's guard first, so the JDK code it calls is not counted either. Threads that still
 * run while the hook does (daemon threads) are read racily: their counts may be a little short.
 */
final class Dump extends Thread {
    private final String path;
    /** The class cache to write back after the profile, or null. */
    private final ClassCache cache;

    Dump(String path, ClassCache cache) {
        super("jresa-profile-dump");
        this.path = path;
        this.cache = cache;
    }

    /** A context of the merged tree. */
    /**
     * A node of the merged tree. Children are found by a linear scan while few, then through an
     * open-addressing index (no boxing: the trees have hundreds of thousands of nodes).
     */
    private static final class Merged {
        final int mid;
        final int site;
        long calls;
        long bytecodes;
        Merged[] children = NONE;
        int childCount;
        private Merged[] index;

        private static final Merged[] NONE = new Merged[0];
        private static final int LINEAR_LIMIT = 8;

        Merged(int mid, int site) {
            this.mid = mid;
            this.site = site;
        }

        Merged child(int mid, int site) {
            Merged kid = find(mid, site);
            if (kid == null) {
                kid = new Merged(mid, site);
                if (childCount == children.length) {
                    Merged[] grown = new Merged[Math.max(2, children.length * 2)];
                    System.arraycopy(children, 0, grown, 0, childCount);
                    children = grown;
                }
                children[childCount++] = kid;
                if (childCount > LINEAR_LIMIT) {
                    if (index == null || childCount * 2 > index.length) {
                        index = new Merged[Integer.highestOneBit(childCount * 4) * 2];
                        for (int i = 0; i < childCount; i++) {
                            insert(index, children[i]);
                        }
                    } else {
                        insert(index, kid);
                    }
                }
            }
            return kid;
        }

        private Merged find(int mid, int site) {
            if (index == null) {
                for (int i = 0; i < childCount; i++) {
                    Merged kid = children[i];
                    if (kid.mid == mid && kid.site == site) {
                        return kid;
                    }
                }
                return null;
            }
            int mask = index.length - 1;
            for (int i = Node.hash(mid, site) & mask; ; i = (i + 1) & mask) {
                Merged kid = index[i];
                if (kid == null || (kid.mid == mid && kid.site == site)) {
                    return kid;
                }
            }
        }

        private static void insert(Merged[] table, Merged kid) {
            int mask = table.length - 1;
            int i = Node.hash(kid.mid, kid.site) & mask;
            while (table[i] != null) {
                i = (i + 1) & mask;
            }
            table[i] = kid;
        }
    }

    @Override
    public void run() {
        Probe.enterAgent();
        try {
            write();
        } catch (Throwable error) {
            System.err.println("jresa agent: cannot write the profile to " + path + ": " + error);
        }
        if (cache != null) {
            cache.save();
        }
    }

    private void write() throws IOException {
        Merged root = new Merged(-1, -1);
        int threads = 0;
        for (ThreadState state : Probe.allStates()) {
            if (state.root.childCount > 0) {
                threads++;
            }
            merge(state.root, root);
        }
        try (Out out = new Out(new FileOutputStream(path))) {
            out.text("jresa-cct\t1\n");
            meta(out, "threads", threads);
            meta(out, "instrumented_classes", Methods.instrumentedClasses());
            meta(out, "instrumented_methods", Methods.instrumentedMethods());
            meta(out, "selected_methods", Methods.selectedMethods());
            meta(out, "cached_classes", cache == null ? 0 : cache.hits());
            for (String[] entry : Methods.uninstrumentedList()) {
                out.text("uninstrumented\t").escaped(entry[0]).tab().escaped(entry[1]).newline();
            }
            writeNodes(out, root);
            out.text("end\n");
        }
    }

    private static void meta(Out out, String name, long value) throws IOException {
        out.text("meta\t").text(name).tab().number(value).newline();
    }

    /** Adds a thread's tree below {@code target}, depth first with explicit stacks. */
    private static void merge(Node source, Merged target) {
        Node[] from = new Node[64];
        Merged[] into = new Merged[64];
        int top = 0;
        from[top] = source;
        into[top++] = target;
        while (top > 0) {
            top--;
            Node node = from[top];
            Merged merged = into[top];
            from[top] = null;
            merged.calls += node.calls;
            merged.bytecodes += node.bytecodes;
            Node[] kids = node.children;
            if (kids == null) {
                continue;
            }
            int count = Math.min(node.childCount, kids.length);
            for (int i = 0; i < count; i++) {
                Node kid = kids[i];
                if (kid == null) {
                    continue;
                }
                if (top == from.length) {
                    from = java.util.Arrays.copyOf(from, top * 2);
                    into = java.util.Arrays.copyOf(into, top * 2);
                }
                from[top] = kid;
                into[top++] = merged.child(kid.mid, kid.bci());
            }
        }
    }

    /** Writes the merged tree in preorder, each method's line before its first node. */
    private static void writeNodes(Out out, Merged root) throws IOException {
        BitSet written = new BitSet();
        Merged[] nodes = new Merged[64];
        int[] parents = new int[64];
        int top = 0;
        nodes[top] = root;
        parents[top++] = -1;
        int next = 0;
        while (top > 0) {
            top--;
            Merged node = nodes[top];
            int parent = parents[top];
            nodes[top] = null;
            int id = next++;
            if (node.mid >= 0 && !written.get(node.mid)) {
                written.set(node.mid);
                String[] m = Methods.method(node.mid);
                out.text("method\t").number(node.mid).tab().escaped(m[0]).tab().escaped(m[1]).tab().escaped(m[2]).newline();
            }
            out.text("node\t").number(id).tab().number(parent).tab().number(node.mid).tab().number(node.site)
                    .tab().number(node.calls).tab().number(node.bytecodes).newline();
            if (top + node.childCount > nodes.length) {
                int size = Math.max(nodes.length * 2, top + node.childCount);
                nodes = java.util.Arrays.copyOf(nodes, size);
                parents = java.util.Arrays.copyOf(parents, size);
            }
            for (int i = node.childCount - 1; i >= 0; i--) {
                nodes[top] = node.children[i];
                parents[top++] = id;
            }
        }
    }

    /** A buffered writer of ASCII lines that formats numbers itself (no strings per line). */
    private static final class Out implements AutoCloseable {
        private final OutputStream sink;
        private final byte[] buffer = new byte[1 << 16];
        private int used;
        private final byte[] digits = new byte[20];

        Out(OutputStream sink) {
            this.sink = sink;
        }

        private void room(int bytes) throws IOException {
            if (used + bytes > buffer.length) {
                sink.write(buffer, 0, used);
                used = 0;
            }
        }

        Out text(String ascii) throws IOException {
            byte[] bytes = ascii.getBytes(StandardCharsets.UTF_8);
            if (bytes.length > buffer.length) {
                room(buffer.length);
                sink.write(bytes);
                return this;
            }
            room(bytes.length);
            System.arraycopy(bytes, 0, buffer, used, bytes.length);
            used += bytes.length;
            return this;
        }

        Out escaped(String name) throws IOException {
            return text(escape(name));
        }

        Out tab() throws IOException {
            room(1);
            buffer[used++] = '\t';
            return this;
        }

        Out newline() throws IOException {
            room(1);
            buffer[used++] = '\n';
            return this;
        }

        Out number(long value) throws IOException {
            room(21);
            if (value < 0) {
                if (value == Long.MIN_VALUE) {
                    return text(Long.toString(value));
                }
                buffer[used++] = '-';
                value = -value;
            }
            int n = 0;
            do {
                digits[n++] = (byte) ('0' + value % 10);
                value /= 10;
            } while (value != 0);
            while (n > 0) {
                buffer[used++] = digits[--n];
            }
            return this;
        }

        @Override
        public void close() throws IOException {
            try {
                sink.write(buffer, 0, used);
                used = 0;
            } finally {
                sink.close();
            }
        }
    }

    private static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '\\': out.append("\\\\"); break;
                case '\t': out.append("\\t"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                default: out.append(c);
            }
        }
        return out.toString();
    }
}
