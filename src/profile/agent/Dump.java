/** The shutdown hook that writes the per-thread trees as the CCT file jresa reads. */
package jresa.agent;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;

/**
 * Writes every thread's tree below one root as a line-based file:
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
 * {@code end} line tells a complete file from a truncated one. Siblings may share a method and call
 * site (one per thread that entered the context); the reader sums them, so merging the threads' trees
 * costs the JVM nothing at exit.
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
        ThreadState[] states = Probe.allStates();
        int threads = 0;
        long rootCalls = 0;
        long rootBytecodes = 0;
        for (ThreadState state : states) {
            if (state.root.childCount > 0) {
                threads++;
            }
            rootCalls += state.root.calls;
            rootBytecodes += state.root.bytecodes;
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
            out.text("node\t0\t-1\t-1\t-1\t").number(rootCalls).tab().number(rootBytecodes).newline();
            Trees trees = new Trees(out);
            for (ThreadState state : states) {
                trees.writeBelowRoot(state.root);
            }
            out.text("end\n");
        }
    }

    private static void meta(Out out, String name, long value) throws IOException {
        out.text("meta\t").text(name).tab().number(value).newline();
    }

    /**
     * Writes threads' trees in preorder below one root (node 0), each method's line before its first
     * node. The threads' trees are not merged here: a context several threads entered appears once
     * per thread, and the reader sums siblings with the same method and call site.
     */
    private static final class Trees {
        private static final byte[] NODE = "node\t".getBytes(StandardCharsets.US_ASCII);
        private final Out out;
        private final BitSet written = new BitSet();
        private int next = 1;
        private Node[] nodes = new Node[64];
        private int[] parents = new int[64];

        Trees(Out out) {
            this.out = out;
        }

        /** Writes the subtrees of a thread's root's children, with node 0 as their parent. */
        void writeBelowRoot(Node root) throws IOException {
            int top = push(root, 0, 0);
            while (top > 0) {
                top--;
                Node node = nodes[top];
                int parent = parents[top];
                nodes[top] = null;
                int id = next++;
                if (!written.get(node.mid)) {
                    written.set(node.mid);
                    String[] m = Methods.method(node.mid);
                    out.text("method\t").number(node.mid).tab().escaped(m[0]).tab().escaped(m[1]).tab().escaped(m[2]).newline();
                }
                out.bytes(NODE).number(id).tab().number(parent).tab().number(node.mid).tab().number(node.bci())
                        .tab().number(node.calls).tab().number(node.bytecodes).newline();
                top = push(node, id, top);
            }
        }

        /** Pushes a node's children, last first so that they come out in order; returns the new top. */
        private int push(Node node, int id, int top) {
            Node[] kids = node.children;
            if (kids == null) {
                return top;
            }
            // Another thread may still be adding children: read the count once, then the array.
            int count = Math.min(node.childCount, kids.length);
            if (top + count > nodes.length) {
                int size = Math.max(nodes.length * 2, top + count);
                nodes = java.util.Arrays.copyOf(nodes, size);
                parents = java.util.Arrays.copyOf(parents, size);
            }
            for (int i = count - 1; i >= 0; i--) {
                if (kids[i] != null) {
                    nodes[top] = kids[i];
                    parents[top++] = id;
                }
            }
            return top;
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

        Out bytes(byte[] ascii) throws IOException {
            room(ascii.length);
            System.arraycopy(ascii, 0, buffer, used, ascii.length);
            used += ascii.length;
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
