/** The instrumented JDK classes of earlier runs, kept on disk so that a run does not instrument them again. */
package jresa.agent;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * A cache of instrumented classes of the JDK (those of the boot and platform class loaders), one file
 * per JDK, agent build and {@code --only} selection, in the agent's own cache directory.
 *
 * <p>Instrumented code carries method ids, so the file also holds the id table of the run that wrote
 * it; a run that reads it starts from that table ({@link Methods#preload}), gives new methods the
 * ids after it, and writes back everything it read plus what it instrumented. A class is taken from
 * the cache only when its original bytes have the length and the two checksums (CRC-32 and
 * Adler-32) recorded with it. The file ends with a CRC-32 of its contents: a damaged or truncated
 * file is ignored with a warning and replaced at exit. It is written to a temporary file and moved
 * into place in one step, so concurrent runs never read a partial file (the last one to finish
 * wins, and each file is consistent on its own).
 */
final class ClassCache {
    private static final int MAGIC = 0x4a524343;
    private static final int FORMAT = 1;
    /** A table this large starts over: it grows with every program's own methods. */
    private static final int MAX_METHODS = 500_000;

    /** What instrumenting one class produced, as the transformer registers it. */
    static final class Instrumented {
        final byte[] bytes;
        final int methods;
        final int selected;
        /** Methods left uninstrumented: what, and why. */
        final String[][] skipped;

        Instrumented(byte[] bytes, int methods, int selected, String[][] skipped) {
            this.bytes = bytes;
            this.methods = methods;
            this.selected = selected;
            this.skipped = skipped;
        }
    }

    /**
     * A class's entry: the original's length and checksum, and what instrumenting it produced,
     * decoded from the file at its first use ({@code at} is where it starts there).
     */
    private final class Entry {
        final int length;
        final long checksum;
        private Instrumented result;
        private final int at;

        Entry(int length, long checksum, Instrumented result) {
            this.length = length;
            this.checksum = checksum;
            this.result = result;
            this.at = -1;
        }

        Entry(int length, long checksum, int at) {
            this.length = length;
            this.checksum = checksum;
            this.at = at;
        }

        Instrumented result() throws IOException {
            if (result == null) {
                DataInputStream in = new DataInputStream(new ByteArrayInputStream(read, at, read.length - at));
                int methods = in.readInt();
                int selected = in.readInt();
                String[][] skipped = new String[in.readInt()][];
                for (int k = 0; k < skipped.length; k++) {
                    skipped[k] = new String[] {in.readUTF(), in.readUTF()};
                }
                byte[] code = new byte[in.readInt()];
                in.readFully(code);
                result = new Instrumented(code, methods, selected, skipped);
            }
            return result;
        }
    }

    private final Path file;
    /** The file as read (entries and method names are decoded from it on demand), or null. */
    private byte[] read;
    private final Map<String, Entry> entries = new HashMap<>();
    private boolean changed;
    /** Set once {@link #save} has started. */
    private boolean saving;
    private long hits;

    private ClassCache(Path file) {
        this.file = file;
    }

    /** The cache file for this JVM and selection in {@code dir}, read if it exists. */
    static ClassCache open(Path dir, List<String> selectors) {
        String identity = System.getProperty("java.home") + '\n' + System.getProperty("java.vm.version") + '\n'
                + System.getProperty("java.runtime.version") + '\n' + String.join("\n", selectors);
        byte[] bytes = identity.getBytes(StandardCharsets.UTF_8);
        ClassCache cache = new ClassCache(dir.resolve(String.format("classes-%016x.bin", checksum(bytes))));
        cache.read();
        return cache;
    }

    /** CRC-32 in the high half, Adler-32 in the low half. */
    static long checksum(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length);
        Adler32 adler = new Adler32();
        adler.update(bytes, 0, bytes.length);
        return (crc.getValue() << 32) | adler.getValue();
    }

    /** The instrumented version of a class, if this cache has it for these original bytes. */
    synchronized Instrumented find(String name, byte[] original) {
        Entry entry = entries.get(name);
        if (entry == null || entry.length != original.length || entry.checksum != checksum(original)) {
            return null;
        }
        try {
            Instrumented result = entry.result();
            hits++;
            return result;
        } catch (IOException | RuntimeException damaged) {
            entries.remove(name);
            return null;
        }
    }

    /** The class, name and descriptor of a method of the file's id table, decoded at {@code at}. */
    synchronized String[] method(int at) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(read, at, read.length - at));
            return new String[] {in.readUTF(), in.readUTF(), in.readUTF()};
        } catch (IOException error) {
            throw new IllegalStateException("the class cache's method table is damaged", error);
        }
    }

    /** Records a class instrumented in this run. */
    synchronized void put(String name, byte[] original, Instrumented result) {
        if (saving) {
            return;
        }
        entries.put(name, new Entry(original.length, checksum(original), result));
        changed = true;
    }

    /** How many classes this run took from the cache. */
    synchronized long hits() {
        return hits;
    }

    private void read() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException absent) {
            return;
        } catch (IOException | RuntimeException error) {
            System.err.println("jresa agent: cannot read the class cache " + file + ": " + error);
            return;
        }
        try {
            parse(bytes);
        } catch (IOException | RuntimeException damaged) {
            entries.clear();
            System.err.println("jresa agent: ignoring the damaged class cache " + file + ": " + damaged);
        }
    }

    /**
     * Checks the file and indexes it: the method table's entries and the classes' results are
     * decoded only when used (a run uses few of them, and decoding them all would cost start-up).
     */
    private void parse(byte[] bytes) throws IOException {
        if (bytes.length < 16) {
            throw new IOException("truncated");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        Cursor in = new Cursor(bytes, bytes.length - 8);
        if (Cursor.readLong(bytes, bytes.length - 8) != crc.getValue()) {
            throw new IOException("checksum mismatch");
        }
        if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
            throw new IOException("not a class cache of this version");
        }
        int methodCount = in.readInt();
        if (methodCount < 0 || methodCount > MAX_METHODS) {
            return;
        }
        int[] methods = new int[methodCount];
        for (int i = 0; i < methodCount; i++) {
            methods[i] = in.position();
            in.skipUTF();
            in.skipUTF();
            in.skipUTF();
        }
        int classCount = in.readInt();
        for (int i = 0; i < classCount; i++) {
            String name = in.readUTF();
            int length = in.readInt();
            long checksum = in.readLong();
            entries.put(name, new Entry(length, checksum, in.position()));
            in.skip(8);
            int skipped = in.readInt();
            for (int k = 0; k < 2 * skipped; k++) {
                in.skipUTF();
            }
            in.skip(in.readInt());
        }
        read = bytes;
        Methods.preload(methods, this);
    }

    /** Reads the big-endian fields of the cache file, up to {@code end}, and skips over them. */
    private static final class Cursor {
        private final byte[] bytes;
        private final int end;
        private int at;

        Cursor(byte[] bytes, int end) {
            this.bytes = bytes;
            this.end = end;
        }

        int position() {
            return at;
        }

        void skip(int count) throws IOException {
            if (count < 0 || count > end - at) {
                throw new IOException("truncated");
            }
            at += count;
        }

        int readInt() throws IOException {
            skip(4);
            return (bytes[at - 4] & 0xff) << 24 | (bytes[at - 3] & 0xff) << 16 | (bytes[at - 2] & 0xff) << 8 | bytes[at - 1] & 0xff;
        }

        long readLong() throws IOException {
            skip(8);
            return readLong(bytes, at - 8);
        }

        static long readLong(byte[] bytes, int from) {
            long value = 0;
            for (int i = 0; i < 8; i++) {
                value = value << 8 | (bytes[from + i] & 0xff);
            }
            return value;
        }

        void skipUTF() throws IOException {
            skip(2);
            skip((bytes[at - 2] & 0xff) << 8 | bytes[at - 1] & 0xff);
        }

        String readUTF() throws IOException {
            int from = at;
            skipUTF();
            return new DataInputStream(new ByteArrayInputStream(bytes, from, at - from)).readUTF();
        }
    }

    /**
     * Writes the cache back if this run added to it (at shutdown, with the probes off). Classes the
     * writing itself loads are not added: the file would never hold them, so each run would find
     * them missing and write the whole cache again.
     */
    synchronized void save() {
        saving = true;
        if (!changed) {
            return;
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
        try {
            byte[] bytes = serialise();
            Files.write(temporary, bytes);
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException error) {
            System.err.println("jresa agent: cannot write the class cache " + file + ": " + error);
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // Nothing more to do: the next run rebuilds what is missing.
            }
        }
    }

    private byte[] serialise() throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(1 << 20);
        DataOutputStream out = new DataOutputStream(buffer);
        out.writeInt(MAGIC);
        out.writeInt(FORMAT);
        String[][] table = Methods.table();
        out.writeInt(table.length);
        for (String[] method : table) {
            out.writeUTF(method[0]);
            out.writeUTF(method[1]);
            out.writeUTF(method[2]);
        }
        List<String> names = new ArrayList<>(entries.keySet());
        names.sort(null);
        out.writeInt(names.size());
        for (String name : names) {
            Entry entry = entries.get(name);
            Instrumented result = entry.result();
            out.writeUTF(name);
            out.writeInt(entry.length);
            out.writeLong(entry.checksum);
            out.writeInt(result.methods);
            out.writeInt(result.selected);
            out.writeInt(result.skipped.length);
            for (String[] skipped : result.skipped) {
                out.writeUTF(skipped[0]);
                out.writeUTF(skipped[1]);
            }
            out.writeInt(result.bytes.length);
            out.write(result.bytes);
        }
        out.flush();
        byte[] content = buffer.toByteArray();
        CRC32 crc = new CRC32();
        crc.update(content, 0, content.length);
        byte[] all = Arrays.copyOf(content, content.length + 8);
        long value = crc.getValue();
        for (int i = 0; i < 8; i++) {
            all[content.length + i] = (byte) (value >>> (56 - 8 * i));
        }
        return all;
    }
}
