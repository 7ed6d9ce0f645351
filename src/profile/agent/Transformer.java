/** The class-file transformer that inserts the profiling code into every method with bytecode. */
package jresa.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.MethodTooLargeException;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;
import jdk.internal.org.objectweb.asm.tree.MethodNode;

/**
 * Instruments classes as they are loaded or retransformed: each method with code is rewritten by
 * {@link MethodRewriter}. A method that grows beyond 64 KiB once instrumented first loses its
 * uninstrumented copy and then, if still too large, its instrumentation.
 */
final class Transformer implements ClassFileTransformer {
    private final Selector[] only;
    /** Instrumented JDK classes of earlier runs, or null. */
    private final ClassCache cache;
    private final ClassLoader platform = ClassLoader.getPlatformClassLoader();

    Transformer(Selector[] only, ClassCache cache) {
        this.only = only;
        this.cache = cache;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        ThreadState state = Probe.state();
        if (state == null || className == null) {
            return null;
        }
        boolean wasInside = state.inside;
        state.inside = true;
        try {
            if (className.startsWith("jresa/agent/")) {
                return null;
            }
            if (state.transforming) {
                // A class loaded by the transformer itself (say, a part of ASM used for the first
                // time): instrumenting it here would recurse into the same code. Premain retries these.
                Methods.nested(className);
                return null;
            }
            state.transforming = true;
            try {
                return register(className, loader, bytes);
            } catch (Throwable error) {
                Methods.uninstrumented(className, "instrumentation failed: " + error);
                return null;
            } finally {
                state.transforming = false;
            }
        } finally {
            state.inside = wasInside;
        }
    }

    /** Instruments a class (or takes it from the cache) and registers what was instrumented. */
    private byte[] register(String className, ClassLoader loader, byte[] bytes) {
        boolean cacheable = cache != null && (loader == null || loader == platform);
        ClassCache.Instrumented result = cacheable ? cache.find(className, bytes) : null;
        if (result == null) {
            result = instrument(className, bytes, true);
            if (cacheable) {
                cache.put(className, bytes, result);
            }
        }
        Methods.instrumented(result.methods, result.selected);
        for (String[] skipped : result.skipped) {
            Methods.uninstrumented(skipped[0], skipped[1]);
        }
        return result.bytes;
    }

    /** Instruments a class file; {@code withIds} false is a dry run that gives out no method ids. */
    ClassCache.Instrumented instrument(String className, byte[] bytes, boolean withIds) {
        int[][] offsets = CodeOffsets.read(bytes);
        ClassReader reader = new ClassReader(bytes);
        // Methods too large once instrumented: first they lose their uninstrumented copy, then, if
        // still too large, their instrumentation.
        Set<String> noCopy = new HashSet<>();
        Set<String> skipped = new HashSet<>();
        List<String[]> notes = new ArrayList<>();
        while (true) {
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            Instrumenter instrumenter = new Instrumenter(writer, className, offsets, noCopy, skipped, withIds);
            reader.accept(instrumenter, ClassReader.EXPAND_FRAMES);
            try {
                byte[] result = writer.toByteArray();
                return new ClassCache.Instrumented(result, instrumenter.methods, instrumenter.selected, notes.toArray(new String[0][]));
            } catch (MethodTooLargeException tooLarge) {
                // The original method fits in 64 KiB but not with the added code.
                String key = tooLarge.getMethodName() + tooLarge.getDescriptor();
                if (noCopy.add(key)) {
                    continue;
                }
                if (!skipped.add(key)) {
                    throw tooLarge;
                }
                notes.add(new String[] {className + "." + key, "method too large once instrumented"});
            }
        }
    }

    /** Whether a method is selected by {@code --only}. */
    private boolean selected(String owner, String name, String descriptor) {
        for (Selector selector : only) {
            if (selector.matches(owner, name, descriptor)) {
                return true;
            }
        }
        return false;
    }

    /** Passes the class through, replacing each method with code by its instrumented version. */
    private final class Instrumenter extends ClassVisitor {
        private final String className;
        private final int[][] offsets;
        private final Set<String> noCopy;
        private final Set<String> skipped;
        private final boolean withIds;
        private int methodIndex;
        int methods;
        int selected;

        Instrumenter(ClassVisitor next, String className, int[][] offsets, Set<String> noCopy, Set<String> skipped, boolean withIds) {
            super(Opcodes.ASM8, next);
            this.className = className;
            this.offsets = offsets;
            this.noCopy = noCopy;
            this.skipped = skipped;
            this.withIds = withIds;
        }

        /** Sealed classes: the JDK's ASM reports them through an "experimental" call; forward it as is. */
        @Override
        @SuppressWarnings("deprecation")
        public void visitPermittedSubclassExperimental(String permitted) {
            cv.visitPermittedSubclassExperimental(permitted);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            int index = methodIndex++;
            if ((access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
                    || index >= offsets.length
                    || offsets[index] == null
                    || skipped.contains(name + descriptor)) {
                return next;
            }
            boolean isSelected = selected(className, name, descriptor);
            int mid = withIds ? Methods.id(className, name, descriptor) : 0;
            methods++;
            if (isSelected) {
                selected++;
            }
            boolean copy = !noCopy.contains(name + descriptor);
            return new InstrumentingMethod(next, className, access, name, descriptor, signature, exceptions, offsets[index], mid, isSelected, copy);
        }
    }

    /** Collects one method as a tree, instruments it and passes it on. */
    private static final class InstrumentingMethod extends MethodNode {
        private final MethodVisitor next;
        private final String owner;
        private final int[] offsets;
        private final int mid;
        private final boolean isSelected;
        private final boolean copy;

        InstrumentingMethod(MethodVisitor next, String owner, int access, String name, String descriptor, String signature, String[] exceptions, int[] offsets, int mid, boolean isSelected, boolean copy) {
            super(Opcodes.ASM8, access, name, descriptor, signature, exceptions);
            this.next = next;
            this.owner = owner;
            this.offsets = offsets;
            this.mid = mid;
            this.isSelected = isSelected;
            this.copy = copy;
        }

        @Override
        public void visitEnd() {
            MethodRewriter.instrument(this, owner, offsets, mid, isSelected, copy);
            accept(next);
        }
    }

}
