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

    private static final class Entry {
        final int length;
        final long checksum;
        final Instrumented result;

        Entry(int length, long checksum, Instrumented result) {
            this.length = length;
            this.checksum = checksum;
            this.result = result;
        }
    }

    private final Path file;
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
        hits++;
        return entry.result;
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

    private void parse(byte[] bytes) throws IOException {
        if (bytes.length < 16) {
            throw new IOException("truncated");
        }
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 8);
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        in.skipNBytes(bytes.length - 8);
        if (in.readLong() != crc.getValue()) {
            throw new IOException("checksum mismatch");
        }
        in = new DataInputStream(new ByteArrayInputStream(bytes, 0, bytes.length - 8));
        if (in.readInt() != MAGIC || in.readInt() != FORMAT) {
            throw new IOException("not a class cache of this version");
        }
        int methodCount = in.readInt();
        if (methodCount < 0 || methodCount > MAX_METHODS) {
            return;
        }
        String[][] table = new String[methodCount][];
        for (int i = 0; i < methodCount; i++) {
            table[i] = new String[] {in.readUTF(), in.readUTF(), in.readUTF()};
        }
        int classCount = in.readInt();
        for (int i = 0; i < classCount; i++) {
            String name = in.readUTF();
            int length = in.readInt();
            long checksum = in.readLong();
            int methods = in.readInt();
            int selected = in.readInt();
            String[][] skipped = new String[in.readInt()][];
            for (int k = 0; k < skipped.length; k++) {
                skipped[k] = new String[] {in.readUTF(), in.readUTF()};
            }
            byte[] code = new byte[in.readInt()];
            in.readFully(code);
            entries.put(name, new Entry(length, checksum, new Instrumented(code, methods, selected, skipped)));
        }
        Methods.preload(table);
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
            out.writeUTF(name);
            out.writeInt(entry.length);
            out.writeLong(entry.checksum);
            out.writeInt(entry.result.methods);
            out.writeInt(entry.result.selected);
            out.writeInt(entry.result.skipped.length);
            for (String[] skipped : entry.result.skipped) {
                out.writeUTF(skipped[0]);
                out.writeUTF(skipped[1]);
            }
            out.writeInt(entry.result.bytes.length);
            out.write(entry.result.bytes);
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
