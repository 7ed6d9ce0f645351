/** The class-file transformer that inserts the profiling code into every method with bytecode. */
package jresa.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.internal.org.objectweb.asm.ClassReader;
import jdk.internal.org.objectweb.asm.ClassVisitor;
import jdk.internal.org.objectweb.asm.ClassWriter;
import jdk.internal.org.objectweb.asm.ConstantDynamic;
import jdk.internal.org.objectweb.asm.Handle;
import jdk.internal.org.objectweb.asm.MethodTooLargeException;
import jdk.internal.org.objectweb.asm.MethodVisitor;
import jdk.internal.org.objectweb.asm.Opcodes;
import jdk.internal.org.objectweb.asm.Type;
import jdk.internal.org.objectweb.asm.tree.AbstractInsnNode;
import jdk.internal.org.objectweb.asm.tree.FrameNode;
import jdk.internal.org.objectweb.asm.tree.InsnList;
import jdk.internal.org.objectweb.asm.tree.InsnNode;
import jdk.internal.org.objectweb.asm.tree.InvokeDynamicInsnNode;
import jdk.internal.org.objectweb.asm.tree.IntInsnNode;
import jdk.internal.org.objectweb.asm.tree.JumpInsnNode;
import jdk.internal.org.objectweb.asm.tree.LabelNode;
import jdk.internal.org.objectweb.asm.tree.LdcInsnNode;
import jdk.internal.org.objectweb.asm.tree.LocalVariableNode;
import jdk.internal.org.objectweb.asm.tree.LookupSwitchInsnNode;
import jdk.internal.org.objectweb.asm.tree.MethodInsnNode;
import jdk.internal.org.objectweb.asm.tree.MethodNode;
import jdk.internal.org.objectweb.asm.tree.TableSwitchInsnNode;
import jdk.internal.org.objectweb.asm.tree.TryCatchBlockNode;
import jdk.internal.org.objectweb.asm.tree.VarInsnNode;

/**
 * Instruments classes as they are loaded or retransformed, in the manner of JP2 (Sarimbekov et al.),
 * with exact bytecode counts.
 *
 * <p>Each method with code gets, using a new local variable {@code node} (and, in {@code <clinit>}, a
 * second one with the saved call site):
 *
 * <ul>
 *   <li>at entry, {@code node = Probe.enter(methodId)} (or {@code enterSelected}, {@code enterClinit});
 *   <li>before every {@code xreturn}, {@code Probe.exit(node)}; exceptional exits need no code (see
 *       below);
 *   <li>a count of each code segment. A segment is a maximal run of instructions that starts at a
 *       jump or handler target, after a branch, or after an instruction that may throw, and ends at a
 *       branch, a return, or an instruction that may throw. All instructions of a segment but the last
 *       cannot throw, so once a segment starts every one of its instructions up to the last executes,
 *       and if the last throws it has still executed: adding the segment's length at its start is
 *       exact even when exceptions are thrown, and the instructions after a throwing one are never
 *       counted because they belong to later segments. Segments that end with an invoke are counted
 *       just before the invoke by {@code Probe.site(node, n, bci)}, which also records the call site.
 * </ul>
 *
 * <p>No handler is added around the method (which would be impossible around a constructor's
 * {@code super()} call), so a method left by an exception does not restore its caller's context.
 * Instead every call site makes its method current before the invoke, and the first segment after a
 * call and at an exception handler does the same ({@code Probe.countReset}), which repairs the state
 * on the next thing the caller does.
 *
 * <p>As in JP2, the original code is also kept, uninstrumented, after the instrumented code; the
 * entry probe returns null when the thread must not be profiled (the agent itself is running, or the
 * thread is outside every {@code --only} extent) and the method then branches to that copy. Apart
 * from that branch the inserted code has no branches, so the existing stack map frames stay valid
 * once the new locals are appended to them; the copy gets one frame, the method's entry state, and
 * ASM only recomputes the maximum stack. A method that grows beyond 64 KiB loses its copy, and if
 * still too large, its instrumentation; a method with an {@code invokedynamic} has no copy, since
 * the copy's call site would be linked a second time.
 */
final class Transformer implements ClassFileTransformer {
    private static final String PROBE = "jresa/agent/Probe";
    private static final String NODE = "jresa/agent/Node";
    private static final String NODE_DESC = "Ljresa/agent/Node;";

    private final Selector[] only;

    Transformer(Selector[] only) {
        this.only = only;
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
                return instrument(className, bytes, true);
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

    /** Instruments a class file; {@code register} false is a dry run that records nothing. */
    byte[] instrument(String className, byte[] bytes, boolean register) {
        int[][] offsets = CodeOffsets.read(bytes);
        ClassReader reader = new ClassReader(bytes);
        // Methods too large once instrumented: first they lose their uninstrumented copy, then, if
        // still too large, their instrumentation.
        Set<String> noCopy = new HashSet<>();
        Set<String> skipped = new HashSet<>();
        while (true) {
            ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
            Instrumenter instrumenter = new Instrumenter(writer, className, offsets, noCopy, skipped, register);
            reader.accept(instrumenter, ClassReader.EXPAND_FRAMES);
            try {
                byte[] result = writer.toByteArray();
                if (register) {
                    Methods.instrumented(instrumenter.methods, instrumenter.selected);
                }
                return result;
            } catch (MethodTooLargeException tooLarge) {
                // The original method fits in 64 KiB but not with the added code.
                String key = tooLarge.getMethodName() + tooLarge.getDescriptor();
                if (noCopy.add(key)) {
                    continue;
                }
                if (!skipped.add(key)) {
                    throw tooLarge;
                }
                if (register) {
                    Methods.uninstrumented(className + "." + key, "method too large once instrumented");
                }
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
        private final boolean register;
        private int methodIndex;
        int methods;
        int selected;

        Instrumenter(ClassVisitor next, String className, int[][] offsets, Set<String> noCopy, Set<String> skipped, boolean register) {
            super(Opcodes.ASM8, next);
            this.className = className;
            this.offsets = offsets;
            this.noCopy = noCopy;
            this.skipped = skipped;
            this.register = register;
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
            int mid = register ? Methods.id(className, name, descriptor) : 0;
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
            instrumentMethod(this, owner, offsets, mid, isSelected, copy);
            accept(next);
        }
    }

    /**
     * Inserts entry, exit, call-site and counting code into one method and, with {@code copy}, appends
     * an uninstrumented copy of the original code that runs when the entry probe returns null.
     */
    static void instrumentMethod(MethodNode method, String owner, int[] offsets, int mid, boolean isSelected, boolean copy) {
        InsnList code = method.instructions;
        // The JVM links each invokedynamic instruction on its own: a copy of one would run its bootstrap
        // method a second time (and give a lambda a second identity), so such methods get no copy.
        boolean hasInvokeDynamic = false;
        for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
            hasInvokeDynamic |= insn.getOpcode() == Opcodes.INVOKEDYNAMIC;
        }
        Copy original = copy && !hasInvokeDynamic ? new Copy(method) : null;
        AbstractInsnNode[] all = code.toArray();
        int n = 0;
        for (AbstractInsnNode insn : all) {
            if (insn.getOpcode() >= 0) {
                n++;
            }
        }
        if (n != offsets.length) {
            throw new IllegalStateException(method.name + method.desc + ": " + n + " instructions but " + offsets.length + " offsets");
        }
        Set<LabelNode> targets = new HashSet<>();
        Set<LabelNode> handlers = new HashSet<>();
        for (AbstractInsnNode insn : all) {
            if (insn instanceof JumpInsnNode) {
                targets.add(((JumpInsnNode) insn).label);
            } else if (insn instanceof TableSwitchInsnNode) {
                TableSwitchInsnNode s = (TableSwitchInsnNode) insn;
                targets.add(s.dflt);
                targets.addAll(s.labels);
            } else if (insn instanceof LookupSwitchInsnNode) {
                LookupSwitchInsnNode s = (LookupSwitchInsnNode) insn;
                targets.add(s.dflt);
                targets.addAll(s.labels);
            }
        }
        for (TryCatchBlockNode block : method.tryCatchBlocks) {
            handlers.add(block.handler);
        }

        // Mark where segments start: the first instruction, jump and handler targets, and the
        // instruction after every branch, return, throw or other instruction that may throw.
        AbstractInsnNode[] real = new AbstractInsnNode[n];
        boolean[] leader = new boolean[n];
        boolean[] afterCall = new boolean[n];
        boolean[] handlerStart = new boolean[n];
        boolean pendingTarget = false;
        boolean pendingHandler = false;
        int r = 0;
        for (AbstractInsnNode insn : all) {
            if (insn instanceof LabelNode) {
                pendingTarget |= targets.contains(insn);
                pendingHandler |= handlers.contains(insn);
                continue;
            }
            if (insn.getOpcode() < 0) {
                continue;
            }
            real[r] = insn;
            if (r == 0 || pendingTarget || pendingHandler) {
                leader[r] = true;
            }
            handlerStart[r] = pendingHandler;
            pendingTarget = false;
            pendingHandler = false;
            if (r + 1 < n && (endsFlow(insn) || mayThrow(insn))) {
                leader[r + 1] = true;
                afterCall[r + 1] = isInvoke(insn);
            }
            r++;
        }

        boolean clinit = method.name.equals("<clinit>");
        int nodeLocal = method.maxLocals;
        int savedSiteLocal = nodeLocal + 1;

        for (int start = 0; start < n; start++) {
            if (!leader[start]) {
                continue;
            }
            int end = start + 1;
            while (end < n && !leader[end]) {
                end++;
            }
            int length = end - start;
            AbstractInsnNode last = real[end - 1];
            InsnList count = new InsnList();
            count.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
            count.add(pushInt(length));
            if (isInvoke(last)) {
                count.add(pushInt(offsets[end - 1]));
                count.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "site", "(" + NODE_DESC + "II)V", false));
                code.insertBefore(last, count);
            } else {
                String hook = afterCall[start] || handlerStart[start] ? "countReset" : "count";
                count.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, hook, "(" + NODE_DESC + "I)V", false));
                // Inserted right before the instruction, so after its label and frame: jumps run it too.
                int inserted = count.size();
                code.insertBefore(real[start], count);
                if (real[start].getOpcode() == Opcodes.NEW) {
                    keepNewLabel(method, real[start], inserted);
                }
            }
        }

        // Exits go after the counts inserted before the same return: a count that resets the current
        // context must not run after the exit that left it.
        for (int i = 0; i < n; i++) {
            int op = real[i].getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                InsnList exit = new InsnList();
                exit.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
                if (clinit) {
                    exit.add(new VarInsnNode(Opcodes.ILOAD, savedSiteLocal));
                    exit.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "exitClinit", "(" + NODE_DESC + "I)V", false));
                } else {
                    exit.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "exit", "(" + NODE_DESC + ")V", false));
                }
                code.insertBefore(real[i], exit);
            }
        }
        InsnList prologue = new InsnList();
        if (clinit) {
            prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "pendingSite", "()I", false));
            prologue.add(new VarInsnNode(Opcodes.ISTORE, savedSiteLocal));
            prologue.add(pushInt(mid));
            prologue.add(pushInt(isSelected ? 1 : 0));
            prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "enterClinit", "(II)" + NODE_DESC, false));
        } else {
            prologue.add(pushInt(mid));
            String enter = isSelected ? "enterSelected" : "enter";
            prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, enter, "(I)" + NODE_DESC, false));
        }
        prologue.add(new VarInsnNode(Opcodes.ASTORE, nodeLocal));
        if (original != null) {
            prologue.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
            prologue.add(new JumpInsnNode(Opcodes.IFNULL, original.start));
        }
        code.insert(prologue);
        if (original != null) {
            original.append(method, entryLocals(method, owner));
            all = code.toArray();
        }

        // Every frame gets the new locals; slots between the method's own locals and them are TOP.
        for (AbstractInsnNode insn : all) {
            if (insn instanceof FrameNode) {
                FrameNode frame = (FrameNode) insn;
                if (frame.type != Opcodes.F_NEW) {
                    throw new IllegalStateException("compressed frame in " + method.name + method.desc);
                }
                List<Object> locals = frame.local == null ? new ArrayList<>() : new ArrayList<>(frame.local);
                int slots = 0;
                for (Object type : locals) {
                    slots += type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1;
                }
                while (slots < nodeLocal) {
                    locals.add(Opcodes.TOP);
                    slots++;
                }
                locals.add(NODE);
                if (clinit) {
                    locals.add(Opcodes.INTEGER);
                }
                frame.local = locals;
            }
        }
        int concatLocals = concatenations(method, nodeLocal + 2);
        method.maxLocals = Math.max(nodeLocal + (clinit ? 2 : 1), concatLocals);
    }

    private static final String STRING_DESC = "Ljava/lang/String;";

    /**
     * Runs each string concatenation ({@code invokedynamic} linked by {@code StringConcatFactory}) as
     * jresa's cost models define it: every reference argument other than a {@code String} goes through
     * {@code String.valueOf(Object)} first, with the probes on (so its {@code toString} is counted, at
     * the concatenation's call site), and then the JDK's concatenation of the strings and primitive
     * values runs with the probes off. The code is inserted after the call-site probe of the
     * {@code invokedynamic}; the arguments pass through new locals from {@code firstFree} on. Returns
     * the locals the method needs.
     */
    static int concatenations(MethodNode method, int firstFree) {
        int needed = firstFree;
        for (AbstractInsnNode insn : method.instructions.toArray()) {
            if (!(insn instanceof InvokeDynamicInsnNode)) {
                continue;
            }
            InvokeDynamicInsnNode site = (InvokeDynamicInsnNode) insn;
            if (!site.bsm.getOwner().equals("java/lang/invoke/StringConcatFactory")) {
                continue;
            }
            Type[] params = Type.getArgumentTypes(site.desc);
            InsnList before = new InsnList();
            int next = firstFree;
            int[] slots = new int[params.length];
            for (int k = 0; k < params.length; k++) {
                slots[k] = next;
                next += params[k].getSize();
            }
            for (int k = params.length - 1; k >= 0; k--) {
                before.add(new VarInsnNode(params[k].getOpcode(Opcodes.ISTORE), slots[k]));
            }
            StringBuilder desc = new StringBuilder("(");
            for (int k = 0; k < params.length; k++) {
                before.add(new VarInsnNode(params[k].getOpcode(Opcodes.ILOAD), slots[k]));
                int sort = params[k].getSort();
                if ((sort == Type.OBJECT || sort == Type.ARRAY) && !params[k].getDescriptor().equals(STRING_DESC)) {
                    before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, "java/lang/String", "valueOf", "(Ljava/lang/Object;)" + STRING_DESC, false));
                    desc.append(STRING_DESC);
                } else {
                    desc.append(params[k].getDescriptor());
                }
            }
            site.desc = desc.append(')').append(Type.getReturnType(site.desc).getDescriptor()).toString();
            int was = next;
            before.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "concatStart", "()Z", false));
            before.add(new VarInsnNode(Opcodes.ISTORE, was));
            InsnList after = new InsnList();
            after.add(new VarInsnNode(Opcodes.ILOAD, was));
            after.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "concatEnd", "(Z)V", false));
            method.instructions.insertBefore(site, before);
            method.instructions.insert(site, after);
            needed = Math.max(needed, was + 1);
        }
        return needed;
    }

    /**
     * The original code of a method, cloned before instrumentation, with its exception handlers and
     * local variable entries: JP2's code duplication. Instrumented code calls JDK methods, and those
     * the agent calls run while the profiler is off (and, in selective mode, everything outside the
     * profiled extents): their entry probe returns null and they branch to this copy, which runs at
     * the original speed instead of calling probes that do nothing.
     */
    private static final class Copy {
        final LabelNode start = new LabelNode();
        private final InsnList code = new InsnList();
        private final List<TryCatchBlockNode> handlers = new ArrayList<>();
        private final List<LocalVariableNode> locals = new ArrayList<>();

        Copy(MethodNode method) {
            Map<LabelNode, LabelNode> labels = new HashMap<>();
            for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                if (insn instanceof LabelNode) {
                    labels.put((LabelNode) insn, new LabelNode());
                }
            }
            for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
                code.add(insn.clone(labels));
            }
            for (TryCatchBlockNode block : method.tryCatchBlocks) {
                handlers.add(new TryCatchBlockNode(labels.get(block.start), labels.get(block.end), labels.get(block.handler), block.type));
            }
            if (method.localVariables != null) {
                for (LocalVariableNode local : method.localVariables) {
                    locals.add(new LocalVariableNode(local.name, local.desc, local.signature, labels.get(local.start), labels.get(local.end), local.index));
                }
            }
        }

        /**
         * Appends the copy after the instrumented code, behind a frame that is the method's entry state,
         * unless the code starts with a frame of its own (a jump target at offset 0): two frames at one
         * offset would be malformed, and that frame already admits the entry state.
         */
        void append(MethodNode method, List<Object> entry) {
            boolean ownFrame = false;
            for (AbstractInsnNode insn = code.getFirst(); insn != null && insn.getOpcode() < 0; insn = insn.getNext()) {
                ownFrame |= insn instanceof FrameNode;
            }
            InsnList tail = new InsnList();
            tail.add(start);
            if (!ownFrame) {
                tail.add(new FrameNode(Opcodes.F_NEW, entry.size(), entry.toArray(), 0, new Object[0]));
            }
            tail.add(code);
            method.instructions.add(tail);
            // The copy's handlers come after the originals, which cover other code, so the order of
            // the handlers of each instruction is unchanged.
            method.tryCatchBlocks.addAll(handlers);
            if (method.localVariables != null) {
                method.localVariables.addAll(locals);
            }
        }
    }

    /** The frame types of a method's locals at entry: the receiver and the parameters. */
    private static List<Object> entryLocals(MethodNode method, String owner) {
        List<Object> locals = new ArrayList<>();
        if ((method.access & Opcodes.ACC_STATIC) == 0) {
            locals.add(method.name.equals("<init>") ? Opcodes.UNINITIALIZED_THIS : owner);
        }
        for (Type type : Type.getArgumentTypes(method.desc)) {
            switch (type.getSort()) {
                case Type.BOOLEAN: case Type.CHAR: case Type.BYTE: case Type.SHORT: case Type.INT:
                    locals.add(Opcodes.INTEGER);
                    break;
                case Type.FLOAT:
                    locals.add(Opcodes.FLOAT);
                    break;
                case Type.LONG:
                    locals.add(Opcodes.LONG);
                    break;
                case Type.DOUBLE:
                    locals.add(Opcodes.DOUBLE);
                    break;
                case Type.ARRAY:
                    locals.add(type.getDescriptor());
                    break;
                default:
                    locals.add(type.getInternalName());
            }
        }
        return locals;
    }

    /**
     * Frames name an uninitialised object by the label of its {@code new} instruction. Code inserted
     * between that label and the {@code new} would move the label away from it, so the frames are
     * pointed at a fresh label placed right before the {@code new}.
     */
    private static void keepNewLabel(MethodNode method, AbstractInsnNode newInsn, int inserted) {
        Set<LabelNode> old = new HashSet<>();
        AbstractInsnNode before = newInsn.getPrevious();
        // Skip the code just inserted, then collect the labels that used to sit right before the new.
        for (int i = 0; i < inserted && before != null; i++) {
            before = before.getPrevious();
        }
        while (before != null && before.getOpcode() < 0) {
            if (before instanceof LabelNode) {
                old.add((LabelNode) before);
            }
            before = before.getPrevious();
        }
        if (old.isEmpty()) {
            return;
        }
        LabelNode fresh = new LabelNode();
        method.instructions.insertBefore(newInsn, fresh);
        for (AbstractInsnNode insn = method.instructions.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof FrameNode) {
                FrameNode frame = (FrameNode) insn;
                replaceLabels(frame.local, old, fresh);
                replaceLabels(frame.stack, old, fresh);
            }
        }
    }

    private static void replaceLabels(List<Object> types, Set<LabelNode> old, LabelNode fresh) {
        if (types != null) {
            for (int i = 0; i < types.size(); i++) {
                if (types.get(i) instanceof LabelNode && old.contains(types.get(i))) {
                    types.set(i, fresh);
                }
            }
        }
    }

    /** Instructions after which execution does not simply fall through. */
    private static boolean endsFlow(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        return insn instanceof JumpInsnNode
                || insn instanceof TableSwitchInsnNode
                || insn instanceof LookupSwitchInsnNode
                || op == Opcodes.RET
                || op == Opcodes.ATHROW
                || (op >= Opcodes.IRETURN && op <= Opcodes.RETURN);
    }

    private static boolean isInvoke(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        return op >= Opcodes.INVOKEVIRTUAL && op <= Opcodes.INVOKEDYNAMIC;
    }

    /**
     * Instructions that may throw an exception by themselves (JVMS chapter 6), not counting the
     * asynchronous VirtualMachineErrors a JVM may raise anywhere.
     */
    static boolean mayThrow(AbstractInsnNode insn) {
        int op = insn.getOpcode();
        switch (op) {
            case Opcodes.IDIV: case Opcodes.LDIV: case Opcodes.IREM: case Opcodes.LREM:
            case Opcodes.IALOAD: case Opcodes.LALOAD: case Opcodes.FALOAD: case Opcodes.DALOAD:
            case Opcodes.AALOAD: case Opcodes.BALOAD: case Opcodes.CALOAD: case Opcodes.SALOAD:
            case Opcodes.IASTORE: case Opcodes.LASTORE: case Opcodes.FASTORE: case Opcodes.DASTORE:
            case Opcodes.AASTORE: case Opcodes.BASTORE: case Opcodes.CASTORE: case Opcodes.SASTORE:
            case Opcodes.ARRAYLENGTH: case Opcodes.ATHROW:
            case Opcodes.GETSTATIC: case Opcodes.PUTSTATIC: case Opcodes.GETFIELD: case Opcodes.PUTFIELD:
            case Opcodes.INVOKEVIRTUAL: case Opcodes.INVOKESPECIAL: case Opcodes.INVOKESTATIC:
            case Opcodes.INVOKEINTERFACE: case Opcodes.INVOKEDYNAMIC:
            case Opcodes.NEW: case Opcodes.NEWARRAY: case Opcodes.ANEWARRAY: case Opcodes.MULTIANEWARRAY:
            case Opcodes.CHECKCAST: case Opcodes.INSTANCEOF:
            case Opcodes.MONITORENTER: case Opcodes.MONITOREXIT:
            case Opcodes.IRETURN: case Opcodes.LRETURN: case Opcodes.FRETURN: case Opcodes.DRETURN:
            case Opcodes.ARETURN: case Opcodes.RETURN:
                return true;
            case Opcodes.LDC: {
                // Loading a class, method type, method handle or dynamic constant resolves it, which can fail.
                Object constant = ((LdcInsnNode) insn).cst;
                return constant instanceof Type || constant instanceof Handle || constant instanceof ConstantDynamic;
            }
            default:
                return false;
        }
    }

    private static AbstractInsnNode pushInt(int value) {
        if (value >= -1 && value <= 5) {
            return new InsnNode(Opcodes.ICONST_0 + value);
        }
        if (value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE) {
            return new IntInsnNode(Opcodes.BIPUSH, value);
        }
        if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
            return new IntInsnNode(Opcodes.SIPUSH, value);
        }
        return new LdcInsnNode(value);
    }
}
