/** The shutdown hook that merges the per-thread trees and writes the CCT file jresa reads. */
package jresa.agent;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

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
    private static final class Merged {
        final int mid;
        final int site;
        long calls;
        long bytecodes;
        final HashMap<Long, Merged> byKey = new HashMap<>();
        final List<Merged> children = new ArrayList<>();

        Merged(int mid, int site) {
            this.mid = mid;
            this.site = site;
        }

        Merged child(int mid, int site) {
            Long key = ((long) mid << 32) | (site & 0xFFFFFFFFL);
            Merged kid = byKey.get(key);
            if (kid == null) {
                kid = new Merged(mid, site);
                byKey.put(key, kid);
                children.add(kid);
            }
            return kid;
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
        try (Writer out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8), 1 << 16)) {
            out.write("jresa-cct\t1\n");
            meta(out, "threads", threads);
            meta(out, "instrumented_classes", Methods.instrumentedClasses());
            meta(out, "instrumented_methods", Methods.instrumentedMethods());
            meta(out, "selected_methods", Methods.selectedMethods());
            meta(out, "cached_classes", cache == null ? 0 : cache.hits());
            for (String[] entry : Methods.uninstrumentedList()) {
                out.write("uninstrumented\t" + escape(entry[0]) + "\t" + escape(entry[1]) + "\n");
            }
            writeNodes(out, root);
            out.write("end\n");
        }
    }

    private static void meta(Writer out, String name, long value) throws IOException {
        out.write("meta\t" + name + "\t" + value + "\n");
    }

    /** Adds the tree below {@code source} into {@code target}, iteratively (trees can be very deep). */
    private static void merge(Node source, Merged target) {
        ArrayDeque<Object[]> work = new ArrayDeque<>();
        work.push(new Object[] {source, target});
        while (!work.isEmpty()) {
            Object[] pair = work.pop();
            Node from = (Node) pair[0];
            Merged into = (Merged) pair[1];
            into.calls += from.calls;
            into.bytecodes += from.bytecodes;
            Node[] kids = from.children;
            if (kids == null) {
                continue;
            }
            int count = Math.min(from.childCount, kids.length);
            for (int i = 0; i < count; i++) {
                Node kid = kids[i];
                if (kid != null) {
                    work.push(new Object[] {kid, into.child(kid.mid, kid.bci())});
                }
            }
        }
    }

    private static void writeNodes(Writer out, Merged root) throws IOException {
        HashMap<Integer, Boolean> written = new HashMap<>();
        ArrayDeque<Object[]> work = new ArrayDeque<>();
        work.push(new Object[] {root, -1});
        int next = 0;
        while (!work.isEmpty()) {
            Object[] pair = work.pop();
            Merged node = (Merged) pair[0];
            int parent = (Integer) pair[1];
            int id = next++;
            if (node.mid >= 0 && written.put(node.mid, Boolean.TRUE) == null) {
                String[] m = Methods.method(node.mid);
                out.write("method\t" + node.mid + "\t" + escape(m[0]) + "\t" + escape(m[1]) + "\t" + escape(m[2]) + "\n");
            }
            out.write("node\t" + id + "\t" + parent + "\t" + node.mid + "\t" + node.site + "\t" + node.calls + "\t" + node.bytecodes + "\n");
            for (int i = node.children.size() - 1; i >= 0; i--) {
                work.push(new Object[] {node.children.get(i), id});
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
