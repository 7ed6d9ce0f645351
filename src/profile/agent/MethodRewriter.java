/** The rewriting of one method: counting code, entry and exit probes, a catch-all and the uninstrumented copy. */
package jresa.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import jdk.internal.org.objectweb.asm.ConstantDynamic;
import jdk.internal.org.objectweb.asm.Handle;
import jdk.internal.org.objectweb.asm.Opcodes;
import jdk.internal.org.objectweb.asm.Type;
import jdk.internal.org.objectweb.asm.tree.AbstractInsnNode;
import jdk.internal.org.objectweb.asm.tree.FrameNode;
import jdk.internal.org.objectweb.asm.tree.InsnList;
import jdk.internal.org.objectweb.asm.tree.InsnNode;
import jdk.internal.org.objectweb.asm.tree.IntInsnNode;
import jdk.internal.org.objectweb.asm.tree.InvokeDynamicInsnNode;
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
 * Instruments one method in the manner of JP2 (Sarimbekov et al.), with exact bytecode counts.
 *
 * <p>The method gets new locals: {@code node}, its calling context, set at entry by
 * {@code Probe.enter(methodId)} (or {@code enterSelected}, {@code enterClinit}); {@code count}, a
 * {@code long} of the instructions executed but not yet added to {@code node}; {@code pos}, what the
 * current block has executed if the instruction running now throws. Counting works on two units:
 *
 * <ul>
 *   <li>A <em>block</em> is a maximal run of instructions that control enters only at its first
 *       one and leaves only after its last one when nothing throws: it starts at a jump or handler
 *       target and after a branch, return, throw or invoke. Its length is added to {@code count}
 *       once, with no memory touched (the JIT keeps {@code count} in a register).
 *   <li>A <em>segment</em> is a run within a block that ends at an instruction that may throw. All
 *       instructions of a segment but the last cannot throw, so when the last one throws, the block
 *       has executed exactly up to the end of that segment: each segment that may throw first sets
 *       {@code pos} to that number (a constant store, which the JIT keeps only in its deoptimisation
 *       records), and the code that catches the exception adds {@code pos} to {@code count}.
 * </ul>
 *
 * Then:
 *
 * <ul>
 *   <li>Before every invoke, {@code Probe.site(node, count, n, ordinal, bci)} adds the local and the block
 *       ending with the invoke to the context, records the call site, and the locals restart at 0.
 *       So every activation on a thread's stack has flushed its counts when the JVM stops it in a
 *       call ({@code System.exit}, the shutdown dump).
 *   <li>After every invoke, {@code Probe.resume(node)}: the method's context is current with no call
 *       pending.
 *   <li>Before every {@code xreturn}, {@code Probe.exit(node, count)} flushes and makes the caller's
 *       context current again.
 *   <li>At each exception handler, {@code count += pos} and {@code Probe.resume(node)}.
 *   <li>A catch-all handler around the instrumented code does {@code Probe.exit(node, count + pos)}
 *       when an exception leaves the method, and rethrows it. It comes after the method's own
 *       handlers, so it only runs when none of them catches.
 * </ul>
 *
 * <p>Constructors get no catch-all: a handler around the code before {@code super()} would have to
 * type {@code this} as both uninitialised and initialised. They count each segment straight into the
 * context at its start ({@code Probe.count}, or {@code countReset} at a handler), and an exception
 * leaving one is handled by its caller's handler or catch-all.
 *
 * <p>As in JP2, the original code is also kept, uninstrumented, after the instrumented code; the
 * entry probe returns null when the thread must not be profiled (the agent itself is running, or the
 * thread is outside every {@code --only} extent) and the method then branches to that copy. Apart
 * from that branch the inserted code has no branches, so the existing stack map frames stay valid
 * once the new locals are appended to them; the copy and the catch-all get one frame each, and ASM
 * only recomputes the maximum stack. A method with an {@code invokedynamic} has no copy, since the
 * copy's call site would be linked a second time; its probes accept a null context.
 */
final class MethodRewriter {
    private static final String PROBE = "jresa/agent/Probe";
    private static final String NODE = "jresa/agent/Node";
    private static final String NODE_DESC = "Ljresa/agent/Node;";

    private final MethodNode method;
    private final InsnList code;
    private final int[] offsets;
    private final boolean clinit;
    /** Whether segment counts go to the {@code count} local (all methods but constructors). */
    private final boolean buffered;
    private final int nodeLocal;
    private final int countLocal;
    private final int posLocal;
    /** The first local after the counting ones (string concatenations use locals from there). */
    private final int freeLocal;
    /** The method's instructions (no labels, frames or line numbers), in order. */
    private AbstractInsnNode[] real;
    /** Which instructions start a segment. */
    private boolean[] leader;
    /** Which instructions start a block: a segment that control enters only at its start. */
    private boolean[] blockStart;
    /** Which instructions start an exception handler. */
    private boolean[] handlerStart;
    /** How many invokes come before each instruction. */
    private int[] invokesBefore;

    private MethodRewriter(MethodNode method, int[] offsets) {
        this.method = method;
        this.code = method.instructions;
        this.offsets = offsets;
        this.clinit = method.name.equals("<clinit>");
        this.buffered = !method.name.equals("<init>");
        this.nodeLocal = method.maxLocals;
        this.countLocal = nodeLocal + 1;
        this.posLocal = nodeLocal + 3;
        this.freeLocal = nodeLocal + 4;
    }

    /**
     * Inserts entry, exit, call-site and counting code into one method and, with {@code copy}, appends
     * an uninstrumented copy of the original code that runs when the entry probe returns null.
     */
    static void instrument(MethodNode method, String owner, int[] offsets, int mid, boolean isSelected, boolean copy) {
        new MethodRewriter(method, offsets).rewrite(owner, mid, isSelected, copy);
    }

    private void rewrite(String owner, int mid, boolean isSelected, boolean copy) {
        // The JVM links each invokedynamic instruction on its own: a copy of one would run its bootstrap
        // method a second time (and give a lambda a second identity), so such methods get no copy.
        Copy original = copy && !hasInvokeDynamic() ? new Copy(method) : null;
        findSegments();
        insertCounts();
        insertExits();
        insertReturns();
        LabelNode bodyStart = new LabelNode();
        LabelNode bodyEnd = new LabelNode();
        insertPrologue(mid, isSelected, original, bodyStart);
        code.add(bodyEnd);
        if (original != null) {
            original.append(method, entryLocals(method, owner));
        }
        extendFrames();
        if (buffered) {
            addCatchAll(bodyStart, bodyEnd);
        }
        int concatLocals = concatenations(method, freeLocal);
        method.maxLocals = Math.max(freeLocal, concatLocals);
    }

    private boolean hasInvokeDynamic() {
        for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn.getOpcode() == Opcodes.INVOKEDYNAMIC) {
                return true;
            }
        }
        return false;
    }

    /**
     * Marks where segments start: the first instruction, jump and handler targets, and the instruction
     * after every branch, return, throw or other instruction that may throw.
     */
    private void findSegments() {
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
        Set<LabelNode> targets = jumpTargets(all);
        Set<LabelNode> handlers = new HashSet<>();
        for (TryCatchBlockNode block : method.tryCatchBlocks) {
            handlers.add(block.handler);
        }
        real = new AbstractInsnNode[n];
        leader = new boolean[n];
        blockStart = new boolean[n];
        invokesBefore = new int[n];
        handlerStart = new boolean[n];
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
            if (r + 1 < n) {
                invokesBefore[r + 1] = invokesBefore[r] + (isInvoke(insn) ? 1 : 0);
            }
            blockStart[r] |= r == 0 || pendingTarget || pendingHandler;
            leader[r] |= blockStart[r];
            handlerStart[r] = pendingHandler;
            pendingTarget = false;
            pendingHandler = false;
            if (r + 1 < n && (endsFlow(insn) || mayThrow(insn))) {
                leader[r + 1] = true;
                blockStart[r + 1] |= endsFlow(insn) || isInvoke(insn);
            }
            r++;
        }
    }

    private static Set<LabelNode> jumpTargets(AbstractInsnNode[] all) {
        Set<LabelNode> targets = new HashSet<>();
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
        return targets;
    }

    /** Counts every instruction: per block in buffered methods, per segment in constructors. */
    private void insertCounts() {
        for (int start = 0; start < real.length; ) {
            int end = start + 1;
            while (end < real.length && !blockStart[end]) {
                end++;
            }
            if (buffered) {
                countBlock(start, end);
            } else {
                countSegments(start, end);
            }
            start = end;
        }
    }

    /**
     * A block of a buffered method: its length is added to {@code count} once, before its last
     * instruction when that one branches, calls, returns or throws, after it otherwise. Each segment
     * that may throw first sets {@code pos} to the instructions of the block up to its end, which is
     * what an exception thrown there has executed of the block; handlers add it ({@link #resume}).
     */
    private void countBlock(int start, int end) {
        AbstractInsnNode last = real[end - 1];
        boolean transfers = isInvoke(last) || endsFlow(last);
        if (handlerStart[start]) {
            insertBefore(real[start], resume());
        }
        for (int s = start; s < end; ) {
            int e = segmentEnd(s, end);
            boolean lastSegment = e == end;
            if (mayThrow(real[e - 1]) && !(lastSegment && transfers)) {
                insertBefore(real[s], store(posLocal, e - start));
            }
            s = e;
        }
        int length = end - start;
        if (isInvoke(last)) {
            insertBefore(last, site(length, end - 1));
        } else if (transfers) {
            InsnList add = add(length);
            add.add(store(posLocal, 0));
            insertBefore(last, add);
        } else {
            code.insert(last, add(length));
        }
    }

    /** The end (exclusive) of the segment that starts at {@code start}, within a block ending at {@code end}. */
    private int segmentEnd(int start, int end) {
        int e = start + 1;
        while (e < end && !leader[e]) {
            e++;
        }
        return e;
    }

    /** A constructor's block: each segment is added to the context at its start (see the class comment). */
    private void countSegments(int start, int end) {
        for (int s = start; s < end; ) {
            int e = segmentEnd(s, end);
            AbstractInsnNode last = real[e - 1];
            boolean reset = s == start && handlerStart[start];
            if (isInvoke(last) && !reset) {
                insertBefore(last, site(e - s, e - 1));
            } else {
                insertBefore(real[s], direct(reset ? "countReset" : "count", e - s));
                if (isInvoke(last)) {
                    insertBefore(last, site(0, e - 1));
                }
            }
            s = e;
        }
    }

    /**
     * Inserts code right before an instruction, so after its label and frame: jumps run it too. Frames
     * name an uninitialised object by the label of its {@code new}, which is kept on the {@code new}.
     */
    private void insertBefore(AbstractInsnNode insn, InsnList list) {
        int inserted = list.size();
        code.insertBefore(insn, list);
        if (insn.getOpcode() == Opcodes.NEW) {
            keepNewLabel(method, insn, inserted);
        }
    }

    private static InsnList store(int local, int value) {
        InsnList list = new InsnList();
        list.add(pushInt(value));
        list.add(new VarInsnNode(Opcodes.ISTORE, local));
        return list;
    }

    /** {@code count += length}. */
    private InsnList add(int length) {
        return addToCount(pushInt(length));
    }

    /** {@code count += value}, for an instruction that pushes an {@code int}. */
    private InsnList addToCount(AbstractInsnNode value) {
        InsnList list = new InsnList();
        list.add(new VarInsnNode(Opcodes.LLOAD, countLocal));
        list.add(value);
        list.add(new InsnNode(Opcodes.I2L));
        list.add(new InsnNode(Opcodes.LADD));
        list.add(new VarInsnNode(Opcodes.LSTORE, countLocal));
        return list;
    }

    /**
     * At an exception handler: {@code count += pos} (what the block that threw executed) and the method's
     * context is current again ({@code Probe.resume}), since a constructor left by the exception does
     * not restore it.
     */
    private InsnList resume() {
        InsnList list = addToCount(new VarInsnNode(Opcodes.ILOAD, posLocal));
        list.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
        list.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "resume", "(" + NODE_DESC + ")V", false));
        return list;
    }

    /** {@code Probe.hook(node, length)}: a count added to the context at once. */
    private InsnList direct(String hook, int length) {
        InsnList list = new InsnList();
        list.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
        list.add(pushInt(length));
        list.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, hook, "(" + NODE_DESC + "I)V", false));
        return list;
    }

    /**
     * {@code Probe.site(node, count, length, ordinal, bci); count = 0; pos = 0} before the invoke
     * {@code real[r]}: its ordinal among the method's invokes and its bytecode index in the original
     * class file go as two small constants, which the JIT folds into the site (a site as one int would
     * be a constant pool entry per invoke, and retransforming a class merges its new pool with the old
     * one in time quadratic in the new entries).
     */
    private InsnList site(int length, int r) {
        InsnList list = new InsnList();
        list.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
        list.add(new VarInsnNode(Opcodes.LLOAD, countLocal));
        list.add(pushInt(length));
        list.add(pushInt(invokesBefore[r]));
        list.add(pushInt(offsets[r]));
        list.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "site", "(" + NODE_DESC + "JIII)V", false));
        list.add(new InsnNode(Opcodes.LCONST_0));
        list.add(new VarInsnNode(Opcodes.LSTORE, countLocal));
        if (buffered) {
            list.add(store(posLocal, 0));
        }
        return list;
    }

    /** {@code Probe.exit(node, count)}; when an exception unwinds the method, {@code count + pos}. */
    private InsnList exit(boolean unwinding) {
        InsnList list = new InsnList();
        list.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
        list.add(new VarInsnNode(Opcodes.LLOAD, countLocal));
        if (unwinding) {
            list.add(new VarInsnNode(Opcodes.ILOAD, posLocal));
            list.add(new InsnNode(Opcodes.I2L));
            list.add(new InsnNode(Opcodes.LADD));
        }
        list.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "exit", "(" + NODE_DESC + "J)V", false));
        return list;
    }

    /**
     * Exits go after the counts inserted before the same return: a count that resets the current
     * context must not run after the exit that left it.
     */
    private void insertExits() {
        for (AbstractInsnNode insn : real) {
            int op = insn.getOpcode();
            if (op >= Opcodes.IRETURN && op <= Opcodes.RETURN) {
                code.insertBefore(insn, exit(false));
            }
        }
    }

    /**
     * After every invoke, {@code Probe.returned(node)}: no call is pending any more, so that code the
     * JVM runs on its own before the next call (the constructor of an exception an instruction
     * throws) is not taken for a callee of the call that returned.
     */
    private void insertReturns() {
        for (AbstractInsnNode insn : real) {
            if (isInvoke(insn)) {
                InsnList list = new InsnList();
                list.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
                list.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "returned", "(" + NODE_DESC + ")V", false));
                code.insert(insn, list);
            }
        }
    }

    /** The entry probe, the count's initial 0 and, with a copy, the branch to it; then {@code bodyStart}. */
    private void insertPrologue(int mid, boolean isSelected, Copy original, LabelNode bodyStart) {
        InsnList prologue = new InsnList();
        if (clinit) {
            prologue.add(pushInt(mid));
            prologue.add(pushInt(isSelected ? 1 : 0));
            prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, "enterClinit", "(II)" + NODE_DESC, false));
        } else {
            prologue.add(pushInt(mid));
            String enter = isSelected ? "enterSelected" : "enter";
            prologue.add(new MethodInsnNode(Opcodes.INVOKESTATIC, PROBE, enter, "(I)" + NODE_DESC, false));
        }
        prologue.add(new VarInsnNode(Opcodes.ASTORE, nodeLocal));
        prologue.add(new InsnNode(Opcodes.LCONST_0));
        prologue.add(new VarInsnNode(Opcodes.LSTORE, countLocal));
        prologue.add(store(posLocal, 0));
        if (original != null) {
            prologue.add(new VarInsnNode(Opcodes.ALOAD, nodeLocal));
            prologue.add(new JumpInsnNode(Opcodes.IFNULL, original.start));
        }
        prologue.add(bodyStart);
        code.insert(prologue);
    }

    /** The new locals' types in a frame, after the method's own locals (padded with TOP). */
    private void appendLocals(List<Object> locals) {
        int slots = 0;
        for (Object type : locals) {
            slots += type == Opcodes.LONG || type == Opcodes.DOUBLE ? 2 : 1;
        }
        while (slots < nodeLocal) {
            locals.add(Opcodes.TOP);
            slots++;
        }
        locals.add(NODE);
        locals.add(Opcodes.LONG);
        locals.add(Opcodes.INTEGER);
    }

    /** Every frame gets the new locals; slots between the method's own locals and them are TOP. */
    private void extendFrames() {
        for (AbstractInsnNode insn = code.getFirst(); insn != null; insn = insn.getNext()) {
            if (insn instanceof FrameNode) {
                FrameNode frame = (FrameNode) insn;
                if (frame.type != Opcodes.F_NEW) {
                    throw new IllegalStateException("compressed frame in " + method.name + method.desc);
                }
                List<Object> locals = frame.local == null ? new ArrayList<>() : new ArrayList<>(frame.local);
                appendLocals(locals);
                frame.local = locals;
            }
        }
    }

    /**
     * A handler for any exception leaving the instrumented code: flushes the count, restores the
     * caller's context and rethrows. Added last, so the method's own handlers come first.
     */
    private void addCatchAll(LabelNode bodyStart, LabelNode bodyEnd) {
        LabelNode handler = new LabelNode();
        List<Object> locals = new ArrayList<>();
        appendLocals(locals);
        InsnList list = new InsnList();
        list.add(handler);
        list.add(new FrameNode(Opcodes.F_NEW, locals.size(), locals.toArray(), 1, new Object[] {"java/lang/Throwable"}));
        list.add(exit(true));
        list.add(new InsnNode(Opcodes.ATHROW));
        code.add(list);
        method.tryCatchBlocks.add(new TryCatchBlockNode(bodyStart, bodyEnd, handler, null));
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
