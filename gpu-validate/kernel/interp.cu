/* The interpreter of packaged code as a kernel: one instance per thread, the same semantics as
 * `src/vm` (the Rust CPU backend), bit for bit. It compiles as CUDA (NVRTC, with `isa.h` and
 * `abi.h` before it) and as plain C (with `host.h` before it, which turns thread indices into a
 * loop), so the tests run it on every machine.
 *
 * Whatever it does not implement (refusals, which need their reason's text, rare natives, inputs
 * or state past its per-instance capacities) ends the instance as ST_DEFERRED, and the host runs
 * that instance on the CPU backend: a deferred instance costs time, never a different answer. */

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned long long usize;

/* Functions off the hot path are not inlined (COLD): inlining every exception path into the
 * dispatch loop makes the kernel too large for NVRTC to compile quickly. */

/* Flow codes: 0 continues; the others leave the interpreter loop. */
#define GO 0
#define X_RETURNED 1
#define X_THREW 2
#define X_OOM 3
#define X_SO 4
#define X_STEP 5
#define X_DEFER 6

#define UNINITIALIZED 0u
#define IN_PROGRESS 1u
#define INITIALIZED 2u
#define ERRONEOUS 3u
#define STACK_SLACK 4u
#define MAX_MESSAGE 200
#define MAX_HANDLER_VALUES 64

typedef struct {
    const u32 *code, *classes, *supertypes, *init_lists, *methods, *procs, *selectors, *dispatch,
        *handlers, *image, *wk, *name_units, *name_offsets, *literals;
    /* Per instance: interleaved (stride n) and contiguous regions. */
    u32 *stack, *frames, *statics, *cstate, *mirrors, *heap, *logk, *logv, *nodes;
    usize n;
    u32 image_len, heap_top, heap_limit, heap_cap, stack_limit, stack_cap, max_frames, frame_cap;
    u32 log_cap, log_count, node_cap, node_count, cct, class_count;
    u32 pc, sp, base, node, init_depth, fsp; /* fsp: frame-stack words in use */
    u64 max_bytecodes;
    u64 m[8];
    u32 exception, failed_class, failed_exception, defer, defer_detail;
} Vm;

#define S(k) vm->stack[(usize)(k) * vm->n]
#define FR(k) vm->frames[(usize)(k) * vm->n]
#define ST(k) vm->statics[(usize)(k) * vm->n]
#define CS(k) vm->cstate[(usize)(k) * vm->n]
#define MI(k) vm->mirrors[(usize)(k) * vm->n]

DEV static u32 cw(const Vm *vm, u32 c, u32 f) { return vm->classes[(usize)c * CLASS_WORDS + f]; }
DEV static u32 mw(const Vm *vm, u32 m, u32 f) { return vm->methods[(usize)m * METHOD_WORDS + f]; }
DEV static u32 pw(const Vm *vm, u32 p, u32 f) { return vm->procs[(usize)p * PROC_WORDS + f]; }

DEV static u32 length_of(u32 op) {
    switch (op) {
    case OP_G_ICMP: case OP_G_LCMP: case OP_G_ACMP: case OP_PUSH2: return 3;
    case OP_G_INSTANCEOF: return 4;
    case OP_NO_RULE: case OP_REFUSE: case OP_PUSH: case OP_LDC_CLASS: case OP_LOAD: case OP_LOAD2:
    case OP_STORE: case OP_STORE2: case OP_DUP: case OP_DUP2: case OP_FETCH: case OP_FETCH2:
    case OP_POP: case OP_INSTANCEOF: case OP_CONCAT: return 2;
    case OP_ARRAYLENGTH: case OP_MONITOR: case OP_THROW: case OP_RETURN: return 3;
    case OP_GETFIELD: case OP_GETFIELD2: case OP_PUTFIELD2: case OP_ALOAD: case OP_ASTORE: case OP_NEW:
    case OP_NEWARRAY: case OP_CHECKCAST: case OP_TAILCALL: case OP_INIT_CLASS: case OP_INVOKE_ENTRY: return 4;
    case OP_PUTFIELD: case OP_GETSTATIC: case OP_GETSTATIC2: case OP_PUTSTATIC2: case OP_MULTIANEWARRAY:
    case OP_INVOKESTATIC: case OP_INVOKESPECIAL: case OP_CALL: return 5;
    case OP_PUTSTATIC: case OP_INVOKEVIRTUAL: return 6;
    default:
        if (op >= OP_IADD && op <= OP_I2S) return 1;
        if (op >= OP_IDIV && op <= OP_LREM) return 3;
        return 0;
    }
}

COLD static u32 defer(Vm *vm, u32 why, u32 detail) {
    vm->defer = why;
    vm->defer_detail = detail;
    return X_DEFER;
}

/* ---- numbers ---------------------------------------------------------------------------- */

typedef union { u32 u; float f; } F32;
typedef union { u64 u; double d; } F64;
DEV static float f32_of(u32 w) { F32 x; x.u = w; return x.f; }
DEV static u32 bits_f32(float f) { F32 x; x.f = f; return x.u; }
DEV static double f64_of(u64 w) { F64 x; x.u = w; return x.d; }
DEV static u64 bits_f64(double d) { F64 x; x.d = d; return x.u; }

/* Rust's (and Java's) saturating conversions from floating point. */
DEV static i32 d2i(double a) {
    if (a != a) return 0;
    if (a >= 2147483647.0) return 2147483647;
    if (a <= -2147483648.0) return (i32)0x80000000u;
    return (i32)a;
}
DEV static i64 d2l(double a) {
    if (a != a) return 0;
    if (a >= 9223372036854775807.0) return 9223372036854775807LL;
    if (a <= -9223372036854775808.0) return (i64)0x8000000000000000ULL;
    return (i64)a;
}
DEV static i32 compare_f(double a, double b, i32 nan) {
    if (a < b) return -1;
    if (a > b) return 1;
    if (a == b) return 0;
    return nan;
}
DEV static int holds(u32 cmp, int ord) {
    switch (cmp) {
    case CMP_EQ: return ord == 0;
    case CMP_NE: return ord != 0;
    case CMP_LT: return ord < 0;
    case CMP_LE: return ord <= 0;
    case CMP_GT: return ord > 0;
    default: return ord >= 0;
    }
}
DEV static u32 narrow(u32 kind, u32 v) {
    switch (kind) {
    case ELEM_BOOLEAN: return v & 1u;
    case ELEM_BYTE: return (u32)(i32)(signed char)(unsigned char)(v & 0xFFu);
    case ELEM_CHAR: return v & 0xFFFFu;
    case ELEM_SHORT: return (u32)(i32)(short)(unsigned short)(v & 0xFFFFu);
    default: return v;
    }
}
DEV static u32 element_words(u32 kind) { return (kind == ELEM_LONG || kind == ELEM_DOUBLE) ? 2u : 1u; }

/* ---- stack ------------------------------------------------------------------------------- */

DEV static u32 pop(Vm *vm) { vm->sp -= 1; return S(vm->sp); }
DEV static void push(Vm *vm, u32 v) { S(vm->sp) = v; vm->sp += 1; }
DEV static u64 pop_long(Vm *vm) {
    vm->sp -= 2;
    return (u64)S(vm->sp) | ((u64)S(vm->sp + 1) << 32);
}
DEV static void push_long(Vm *vm, u64 v) {
    S(vm->sp) = (u32)v;
    S(vm->sp + 1) = (u32)(v >> 32);
    vm->sp += 2;
}

/* ---- heap: the shared image with a per-instance log of the image words written, then the
 * instance's own words ---------------------------------------------------------------------- */

DEV static u32 log_slot(const Vm *vm, u32 a) { return (a * 2654435761u) & (vm->log_cap - 1u); }

DEV static u32 hread(const Vm *vm, u32 a) {
    if (a >= vm->image_len) return vm->heap[a - vm->image_len];
    if (vm->log_count != 0) {
        u32 s = log_slot(vm, a);
        for (;;) {
            u32 k = vm->logk[(usize)s * vm->n];
            if (k == a) return vm->logv[(usize)s * vm->n];
            if (k == NONE) break;
            s = (s + 1u) & (vm->log_cap - 1u);
        }
    }
    return vm->image[a];
}

/* Writes a heap word; GO, or X_DEFER when the image log is full. */
DEV static u32 hwrite(Vm *vm, u32 a, u32 v) {
    if (a >= vm->image_len) {
        vm->heap[a - vm->image_len] = v;
        return GO;
    }
    u32 s = log_slot(vm, a);
    for (;;) {
        u32 k = vm->logk[(usize)s * vm->n];
        if (k == a) { vm->logv[(usize)s * vm->n] = v; return GO; }
        if (k == NONE) break;
        s = (s + 1u) & (vm->log_cap - 1u);
    }
    if ((vm->log_count + 1u) * 4u > vm->log_cap * 3u) return defer(vm, DEFER_LOG, 0);
    vm->logk[(usize)s * vm->n] = a;
    vm->logv[(usize)s * vm->n] = v;
    vm->log_count += 1u;
    return GO;
}

/* ---- counters ---------------------------------------------------------------------------- */

DEV static void node_add(Vm *vm, u32 counter, u64 amount) {
    u32 *w = vm->nodes + (usize)vm->node * NODE_WORDS + 8 + 2 * counter;
    u64 v = ((u64)w[0] | ((u64)w[1] << 32)) + amount;
    w[0] = (u32)v;
    w[1] = (u32)(v >> 32);
}

DEV static u32 add_bytecodes(Vm *vm, u32 count) {
    vm->m[vm->init_depth > 0 ? 4 : 0] += count;
    if (vm->cct) node_add(vm, 0, count);
    if (vm->m[0] + vm->m[4] > vm->max_bytecodes) return X_STEP;
    return GO;
}
DEV static void add_counter(Vm *vm, u32 counter, u64 amount) {
    vm->m[(vm->init_depth > 0 ? 4 : 0) + counter] += amount;
    if (vm->cct) node_add(vm, counter, amount);
}

/* The child of `parent` for (method, site), made on first entry (as `FlatTree::enter`). */
COLD static u32 tree_enter(Vm *vm, u32 parent, u32 method, u32 site, u32 init, u32 *id) {
    u32 child = vm->nodes[(usize)parent * NODE_WORDS + 3];
    while (child != NONE) {
        u32 *c = vm->nodes + (usize)child * NODE_WORDS;
        if (c[1] == method && c[2] == site) {
            u64 e = ((u64)c[6] | ((u64)c[7] << 32)) + 1;
            c[6] = (u32)e;
            c[7] = (u32)(e >> 32);
            *id = child;
            return GO;
        }
        child = c[4];
    }
    if (vm->node_count >= vm->node_cap) return defer(vm, DEFER_TREE, 0);
    u32 fresh = vm->node_count++;
    u32 *c = vm->nodes + (usize)fresh * NODE_WORDS;
    u32 k;
    for (k = 0; k < NODE_WORDS; k++) c[k] = 0;
    c[0] = parent;
    c[1] = method;
    c[2] = site;
    c[3] = NONE;
    c[4] = vm->nodes[(usize)parent * NODE_WORDS + 3];
    c[5] = init;
    c[6] = 1;
    vm->nodes[(usize)parent * NODE_WORDS + 3] = fresh;
    *id = fresh;
    return GO;
}

/* ---- allocation -------------------------------------------------------------------------- */

COLD static u32 alloc(Vm *vm, u64 words, u32 *at) {
    u64 top = vm->heap_top;
    if (top + words > (u64)vm->heap_limit) return X_OOM;
    if (top + words - vm->image_len > (u64)vm->heap_cap) return defer(vm, DEFER_HEAP, 0);
    u32 k;
    for (k = 0; k < (u32)words; k++) vm->heap[top - vm->image_len + k] = 0;
    vm->heap_top = (u32)(top + words);
    *at = (u32)top;
    return GO;
}

COLD static u32 new_object(Vm *vm, u32 c, u32 *at) {
    u32 e = alloc(vm, (u64)OBJECT_HEADER_WORDS + cw(vm, c, C_INSTANCE_WORDS), at);
    if (e) return e;
    vm->heap[*at - vm->image_len] = c;
    return GO;
}

COLD static u32 new_array(Vm *vm, u32 c, u32 length, u32 *at) {
    u64 words = (u64)ARRAY_HEADER_WORDS + (u64)length * element_words(cw(vm, c, C_ELEMENT));
    u32 e = alloc(vm, words, at);
    if (e) return e;
    vm->heap[*at - vm->image_len] = c;
    vm->heap[*at - vm->image_len + 1] = length;
    return GO;
}

/* A new String of these UTF-16 units (the VM's own, not counted). */
COLD static u32 new_string(Vm *vm, const unsigned short *units, u32 count, u32 *at) {
    u32 string_class = vm->wk[WK_STRING], byte_array = vm->wk[WK_BYTE_ARRAY];
    if (string_class == NONE || byte_array == NONE) return defer(vm, DEFER_REFUSED, 0);
    u32 latin1 = 1, k, array, e;
    for (k = 0; k < count; k++)
        if (units[k] > 0xFF) latin1 = 0;
    u32 bytes = latin1 ? count : 2 * count;
    if ((e = new_array(vm, byte_array, bytes, &array))) return e;
    u32 *elements = vm->heap + (array - vm->image_len) + 2;
    for (k = 0; k < count; k++) {
        if (latin1) {
            elements[k] = narrow(ELEM_BYTE, units[k]);
        } else {
            elements[2 * k] = narrow(ELEM_BYTE, units[k] & 0xFFu);
            elements[2 * k + 1] = narrow(ELEM_BYTE, units[k] >> 8);
        }
    }
    if ((e = new_object(vm, string_class, at))) return e;
    vm->heap[*at - vm->image_len + 1 + vm->wk[WK_STRING_VALUE]] = array;
    vm->heap[*at - vm->image_len + 1 + vm->wk[WK_STRING_CODER]] = latin1 ? 0u : 1u;
    return GO;
}

/* The java.lang.Class mirror of a class, made on first use (not counted); for an array class,
 * the mirrors of its component types too, outermost first. */
COLD static u32 mirror(Vm *vm, u32 c, u32 *out) {
    u32 class_class = vm->wk[WK_CLASS], handle = vm->wk[WK_MIRROR_HANDLE];
    u32 component_field = vm->wk[WK_CLASS_COMPONENT_TYPE];
    u32 current = c, previous = NONE, e, made;
    for (;;) {
        u32 existing = MI(current);
        if (existing != 0) {
            if (previous != NONE) vm->heap[previous - vm->image_len + 1 + component_field] = existing;
            break;
        }
        if (class_class == NONE) return defer(vm, DEFER_REFUSED, 0);
        u32 words = cw(vm, class_class, C_INSTANCE_WORDS) + 1;
        if ((e = alloc(vm, (u64)OBJECT_HEADER_WORDS + words, &made))) return e;
        vm->heap[made - vm->image_len] = class_class;
        vm->heap[made - vm->image_len + 1 + handle] = current;
        MI(current) = made;
        if (previous != NONE) vm->heap[previous - vm->image_len + 1 + component_field] = made;
        u32 flags = cw(vm, current, C_FLAGS);
        u32 component = cw(vm, current, C_COMPONENT);
        if ((flags & FLAG_ARRAY) && component_field != NONE && component != NONE) {
            previous = made;
            current = component;
            continue;
        }
        break;
    }
    *out = MI(c);
    return GO;
}

DEV static u32 mirror_class(const Vm *vm, u32 m) { return hread(vm, m + 1 + vm->wk[WK_MIRROR_HANDLE]); }

/* ---- types ------------------------------------------------------------------------------- */

COLD static int assignable(const Vm *vm, u32 from, u32 to) {
    for (;;) {
        if (from == to) return 1;
        if (cw(vm, from, C_FLAGS) & FLAG_ARRAY) {
            if (cw(vm, to, C_FLAGS) & FLAG_ARRAY) {
                int refs = cw(vm, from, C_ELEMENT) == ELEM_REF && cw(vm, to, C_ELEMENT) == ELEM_REF;
                if (!refs) return 0;
                from = cw(vm, from, C_COMPONENT);
                to = cw(vm, to, C_COMPONENT);
                continue;
            }
            return to == vm->wk[WK_OBJECT] || to == vm->wk[WK_CLONEABLE] || to == vm->wk[WK_SERIALIZABLE];
        }
        u32 start = cw(vm, from, C_SUPERS_START), count = cw(vm, from, C_SUPERS_COUNT), k;
        for (k = 0; k < count; k++)
            if (vm->supertypes[start + k] == to) return 1;
        return 0;
    }
}
DEV static int is_instance(const Vm *vm, u32 object, u32 c) { return assignable(vm, hread(vm, object), c); }

/* ---- messages ---------------------------------------------------------------------------- */

/* A message the VM puts in an exception it raises; one longer than MAX_MESSAGE defers the
 * instance (`overflow`), so messages are never cut. */
typedef struct { unsigned short units[MAX_MESSAGE]; u32 count, overflow; } Message;

DEV static void unit(Message *msg, u32 u) {
    if (msg->count < MAX_MESSAGE) msg->units[msg->count++] = (unsigned short)u;
    else msg->overflow = 1;
}

COLD static void say(Message *msg, const char *text) {
    while (*text) unit(msg, (unsigned char)*text++);
}
COLD static void say_int(Message *msg, i64 v) {
    char digits[24];
    u32 n = 0;
    u64 magnitude = v < 0 ? (u64)0 - (u64)v : (u64)v;
    do { digits[n++] = (char)('0' + magnitude % 10); magnitude /= 10; } while (magnitude);
    if (v < 0) unit(msg, '-');
    while (n) unit(msg, (unsigned char)digits[--n]);
}
/* A class's binary name with dots. */
COLD static void say_class(const Vm *vm, Message *msg, u32 c) {
    u32 k;
    for (k = vm->name_offsets[c]; k < vm->name_offsets[c + 1]; k++) {
        u32 u = vm->name_units[k];
        unit(msg, u == '/' ? '.' : u);
    }
}

/* ---- frames ------------------------------------------------------------------------------ */

DEV static u32 top(const Vm *vm, u32 field) { return vm->frames[(usize)(vm->fsp - FRAME_WORDS + field) * vm->n]; }
DEV static void set_top(Vm *vm, u32 field, u32 v) { FR(vm->fsp - FRAME_WORDS + field) = v; }

COLD static u32 check_frame(Vm *vm, u32 base, u32 proc, int new_frame) {
    u64 need = (u64)base + pw(vm, proc, P_FRAME_WORDS) + pw(vm, proc, P_MAX_STACK) + STACK_SLACK;
    u32 frames = vm->fsp / FRAME_WORDS;
    if (need > vm->stack_limit || (new_frame && frames >= vm->max_frames)) return X_SO;
    if (need > vm->stack_cap || (new_frame && frames >= vm->frame_cap)) return defer(vm, DEFER_STACK, 0);
    return GO;
}

COLD static u32 push_frame(Vm *vm, u32 proc, u32 arg_words, u32 call_pc, u32 kind, u32 node, u32 extra) {
    u32 base = vm->sp - arg_words, e;
    if ((e = check_frame(vm, base, proc, 1))) return e;
    FR(vm->fsp + F_PROC) = proc;
    FR(vm->fsp + F_CALL_PC) = call_pc;
    FR(vm->fsp + F_BASE) = base;
    FR(vm->fsp + F_NODE) = node;
    FR(vm->fsp + F_KIND) = kind;
    FR(vm->fsp + F_EXTRA) = extra;
    vm->fsp += FRAME_WORDS;
    vm->base = base;
    vm->node = node;
    vm->sp = base + pw(vm, proc, P_FRAME_WORDS);
    vm->pc = pw(vm, proc, P_CODE);
    return GO;
}

DEV static void pop_frame(Vm *vm) {
    vm->fsp -= FRAME_WORDS;
    if (vm->fsp != 0) {
        vm->base = top(vm, F_BASE);
        vm->node = top(vm, F_NODE);
    }
}

DEV static u32 enter_in_frame(Vm *vm, u32 proc) {
    u32 e;
    if ((e = check_frame(vm, vm->base, proc, 0))) return e;
    set_top(vm, F_PROC, proc);
    vm->sp = vm->base + pw(vm, proc, P_FRAME_WORDS);
    vm->pc = pw(vm, proc, P_CODE);
    return GO;
}

COLD static u32 throw_vm(Vm *vm, u32 c, int cause, const Message *msg, u32 cause_exception, u32 at);
COLD static u32 native_call(Vm *vm, u32 m, u32 call_pc, int *advance);

/* Enters method m whose arguments are on the stack (see `Machine::enter_method`). */
COLD static u32 enter_method(Vm *vm, u32 m, u32 site, u32 call_pc, u32 kind, u32 extra, int *advance) {
    u32 arg_words = mw(vm, m, M_ARG_WORDS), e;
    *advance = 0;
    switch (mw(vm, m, M_KIND)) {
    case KIND_CODE: {
        u32 node = 0;
        if (vm->cct) {
            u32 init = (vm->init_depth > 0 || kind == FRAME_CLINIT) ? 1u : 0u;
            if ((e = tree_enter(vm, vm->node, m, site, init, &node))) return e;
        }
        if (kind == FRAME_CLINIT) vm->init_depth += 1;
        return push_frame(vm, mw(vm, m, M_TARGET), arg_words, call_pc, kind, node, extra);
    }
    case KIND_NATIVE: {
        u32 bytecodes = mw(vm, m, M_NATIVE_BYTECODES);
        if (bytecodes > 0 && (e = add_bytecodes(vm, bytecodes))) return e;
        return native_call(vm, m, call_pc, advance);
    }
    default:
        return defer(vm, DEFER_REFUSED, m);
    }
}

COLD static u32 raise(Vm *vm, u32 exception, u32 at);

COLD static u32 return_from_frame(Vm *vm, u32 words) {
    u32 base = vm->base, k;
    for (k = 0; k < words; k++) S(base + k) = S(vm->sp - words + k);
    u32 kind = top(vm, F_KIND), call_pc = top(vm, F_CALL_PC), extra = top(vm, F_EXTRA);
    if (kind == FRAME_LAUNCHER) return X_RETURNED;
    pop_frame(vm);
    vm->sp = base + words;
    if (kind == FRAME_CLINIT) {
        CS(extra) = INITIALIZED;
        vm->init_depth -= 1;
        vm->pc = call_pc;
    } else if (kind == FRAME_EXCEPTION) {
        return raise(vm, extra, call_pc);
    } else {
        vm->pc = call_pc + length_of(vm->code[call_pc]);
    }
    return GO;
}

/* ---- exceptions -------------------------------------------------------------------------- */

COLD static u32 enter_handler(Vm *vm, u32 handler, u32 exception) {
    u32 values[MAX_HANDLER_VALUES], count = 0, k, e;
    u32 target = vm->handlers[handler], arguments = vm->handlers[handler + 1];
    values[count++] = exception;
    for (k = 0; k < arguments; k++) {
        const u32 *entry = vm->handlers + handler + 2 + 3 * k;
        if (count + 2 > MAX_HANDLER_VALUES) return defer(vm, DEFER_HANDLER, 0);
        switch (entry[0]) {
        case HARG_FRAME1: values[count++] = S(vm->base + entry[1]); break;
        case HARG_FRAME2:
            values[count++] = S(vm->base + entry[1]);
            values[count++] = S(vm->base + entry[1] + 1);
            break;
        case HARG_CONST1: values[count++] = entry[1]; break;
        case HARG_CONST2: values[count++] = entry[1]; values[count++] = entry[2]; break;
        default: {
            u32 made;
            if ((e = mirror(vm, entry[1], &made))) return e;
            values[count++] = made;
        }
        }
    }
    if ((e = check_frame(vm, vm->base, target, 0))) return e;
    for (k = 0; k < count; k++) S(vm->base + k) = values[k];
    return enter_in_frame(vm, target);
}

DEV static u32 top_operand_end(const Vm *vm) {
    u32 end = vm->base + pw(vm, top(vm, F_PROC), P_FRAME_WORDS);
    return vm->sp > end ? vm->sp : end;
}

/* Throws `exception` at instruction `at` of the top frame, down the frames (`Machine::raise`). */
COLD static u32 raise(Vm *vm, u32 exception, u32 at) {
    for (;;) {
        u32 length = length_of(vm->code[at]);
        u32 bytecodes = vm->code[at + length - 2], handler = vm->code[at + length - 1], e;
        if ((e = add_bytecodes(vm, bytecodes))) return e;
        if (handler != NONE) return enter_handler(vm, handler, exception);
        u32 kind = top(vm, F_KIND);
        if (kind == FRAME_LAUNCHER) {
            vm->exception = exception;
            return X_THREW;
        }
        u32 call_pc = top(vm, F_CALL_PC), extra = top(vm, F_EXTRA);
        pop_frame(vm);
        at = call_pc;
        if (kind == FRAME_CLINIT) {
            CS(extra) = ERRONEOUS;
            vm->init_depth -= 1;
            if (vm->failed_class == NONE) {
                vm->failed_class = extra;
                vm->failed_exception = hread(vm, exception);
            }
            u32 error = vm->wk[WK_ERROR];
            if (error == NONE || !is_instance(vm, exception, error)) {
                vm->sp = top_operand_end(vm);
                return throw_vm(vm, vm->wk[WK_INITIALIZER_ERROR], 2, 0, exception, at);
            }
        }
    }
}

/* Raises a new exception of class c as the JVM does (`Machine::throw_vm`): cause 0 none, 1 the
 * message, 2 the exception `cause_exception`. */
COLD static u32 throw_vm(Vm *vm, u32 c, int cause, const Message *msg, u32 cause_exception, u32 at) {
    u32 e, argument = 0, exception;
    if (c == NONE || (cw(vm, c, C_FLAGS) & FLAG_MISSING)) return defer(vm, DEFER_REFUSED, 0);
    u32 constructor = cw(vm, c, cause == 0 ? C_CTOR_VOID : cause == 1 ? C_CTOR_STRING : C_CTOR_THROWABLE);
    if (constructor == NONE) return defer(vm, DEFER_REFUSED, 0);
    if (cause == 1) {
        if (msg->overflow) return defer(vm, DEFER_REFUSED, 0);
        if ((e = new_string(vm, msg->units, msg->count, &argument))) return e;
    } else if (cause == 2) {
        argument = cause_exception;
    }
    if ((e = new_object(vm, c, &exception))) return e;
    add_counter(vm, 2, 1);
    S(vm->sp) = exception;
    vm->sp += 1;
    if (cause != 0) {
        S(vm->sp) = argument;
        vm->sp += 1;
    }
    u32 op = vm->code[at], site = NONE;
    if (op == OP_INVOKESTATIC || op == OP_INVOKESPECIAL) site = vm->code[at + 2];
    else if (op == OP_INVOKEVIRTUAL) site = vm->code[at + 3];
    int advance;
    if ((e = enter_method(vm, constructor, site, at, FRAME_EXCEPTION, exception, &advance))) return e;
    if (advance) {
        vm->sp -= mw(vm, constructor, M_ARG_WORDS);
        return raise(vm, exception, at);
    }
    return GO;
}

COLD static u32 throw_null(Vm *vm, u32 at) { return throw_vm(vm, vm->wk[WK_NULL_POINTER], 0, 0, 0, at); }

COLD static u32 throw_message(Vm *vm, u32 c, const char *text, u32 at) {
    Message msg;
    msg.count = 0;
    msg.overflow = 0;
    say(&msg, text);
    return throw_vm(vm, c, 1, &msg, 0, at);
}

/* ---- class initialisation ---------------------------------------------------------------- */

/* `*ready` is 1 when the class is initialised (the instruction proceeds), 0 when an initialiser
 * frame was entered or an error thrown. */
COLD static u32 ensure_initialized(Vm *vm, u32 c, u32 at, int *ready) {
    *ready = 1;
    if (CS(c) == INITIALIZED) return GO;
    u32 start = cw(vm, c, C_INIT_START), count = cw(vm, c, C_INIT_COUNT), k;
    int pending = 0;
    for (k = 0; k < count; k++) {
        u32 next = vm->init_lists[start + k], state = CS(next);
        if (state == INITIALIZED) continue;
        if (state == IN_PROGRESS) { pending = 1; continue; }
        if (state == ERRONEOUS) {
            Message msg;
            msg.count = 0;
    msg.overflow = 0;
            say(&msg, "Could not initialize class ");
            say_class(vm, &msg, next);
            *ready = 0;
            return throw_vm(vm, vm->wk[WK_NO_CLASS_DEF], 1, &msg, 0, at);
        }
        u32 clinit = cw(vm, next, C_CLINIT);
        if (clinit == NONE) { CS(next) = INITIALIZED; continue; }
        CS(next) = IN_PROGRESS;
        *ready = 0;
        int advance;
        return enter_method(vm, clinit, NONE, at, FRAME_CLINIT, next, &advance);
    }
    if (!pending) CS(c) = INITIALIZED;
    return GO;
}

/* ---- natives ----------------------------------------------------------------------------- */

DEV static u32 identity_hash(u32 reference) {
    if (reference == 0) return 0;
    u32 h = (reference * 0x9E3779B1u) >> 1;
    return h > 1 ? h : 1;
}

/* System.arraycopy's checks and copy; GO with *raised set when it threw. */
COLD static u32 arraycopy(Vm *vm, u32 at, u32 call_pc, int *raised) {
    u32 source = S(at), dest = S(at + 2), e;
    i32 source_pos = (i32)S(at + 1), dest_pos = (i32)S(at + 3), length = (i32)S(at + 4);
    u32 k;
    *raised = 1;
    if (source == 0 || dest == 0) { vm->sp = at; return throw_null(vm, call_pc); }
    u32 source_class = hread(vm, source), dest_class = hread(vm, dest);
    if (!(cw(vm, source_class, C_FLAGS) & FLAG_ARRAY) || !(cw(vm, dest_class, C_FLAGS) & FLAG_ARRAY)) {
        vm->sp = at;
        return throw_message(vm, vm->wk[WK_ARRAY_STORE], "arraycopy: source or destination is not an array", call_pc);
    }
    u32 kind = cw(vm, source_class, C_ELEMENT);
    if (kind != cw(vm, dest_class, C_ELEMENT)) {
        vm->sp = at;
        return throw_message(vm, vm->wk[WK_ARRAY_STORE], "arraycopy: type mismatch", call_pc);
    }
    u64 source_length = hread(vm, source + 1), dest_length = hread(vm, dest + 1);
    if (source_pos < 0 || dest_pos < 0 || length < 0 || (u64)source_pos + (u64)length > source_length
        || (u64)dest_pos + (u64)length > dest_length) {
        vm->sp = at;
        return throw_message(vm, vm->wk[WK_ARRAY_INDEX], "arraycopy: last index out of bounds", call_pc);
    }
    *raised = 0;
    if (length == 0) return GO;
    u32 width = element_words(kind);
    u32 from = source + 2 + (u32)source_pos * width, to = dest + 2 + (u32)dest_pos * width;
    u32 words = (u32)length * width;
    int checks = kind == ELEM_REF
        && !assignable(vm, cw(vm, source_class, C_COMPONENT), cw(vm, dest_class, C_COMPONENT));
    if (!checks) {
        if (to <= from) {
            for (k = 0; k < words; k++)
                if ((e = hwrite(vm, to + k, hread(vm, from + k)))) return e;
        } else {
            for (k = words; k > 0; k--)
                if ((e = hwrite(vm, to + k - 1, hread(vm, from + k - 1)))) return e;
        }
        return GO;
    }
    u32 component = cw(vm, dest_class, C_COMPONENT);
    for (k = 0; k < (u32)length; k++) {
        u32 element = hread(vm, from + k);
        if (element != 0 && !is_instance(vm, element, component)) {
            *raised = 1;
            vm->sp = at;
            return throw_message(vm, vm->wk[WK_ARRAY_STORE], "arraycopy: element type mismatch", call_pc);
        }
        if ((e = hwrite(vm, to + k, element))) return e;
    }
    return GO;
}

/* Object.clone: a shallow copy, or CloneNotSupportedException. */
COLD static u32 clone_object(Vm *vm, u32 object, u32 call_pc, u32 *result, int *raised) {
    u32 c = hread(vm, object), flags = cw(vm, c, C_FLAGS), words, copy, k, e;
    *raised = 0;
    if (!(flags & FLAG_CLONEABLE)) {
        Message msg;
        msg.count = 0;
    msg.overflow = 0;
        say_class(vm, &msg, c);
        *raised = 1;
        return throw_vm(vm, vm->wk[WK_CLONE_NOT_SUPPORTED], 1, &msg, 0, call_pc);
    }
    if (flags & FLAG_ARRAY) {
        u32 length = hread(vm, object + 1);
        add_counter(vm, 2, 1 + (u64)length);
        words = ARRAY_HEADER_WORDS + length * element_words(cw(vm, c, C_ELEMENT));
    } else {
        add_counter(vm, 2, 1);
        words = 1 + cw(vm, c, C_INSTANCE_WORDS);
    }
    if ((e = alloc(vm, words, &copy))) return e;
    for (k = 0; k < words; k++) vm->heap[copy - vm->image_len + k] = hread(vm, object + k);
    *result = copy;
    return GO;
}

/* The UTF-16 unit k of a String's value (`Machine::string_units`). */
DEV static u32 string_unit(const Vm *vm, u32 array, u32 coder, u32 k) {
    if (coder == 0) return hread(vm, array + 2 + k) & 0xFFu;
    return (hread(vm, array + 2 + 2 * k) & 0xFFu) | ((hread(vm, array + 3 + 2 * k) & 0xFFu) << 8);
}

/* Whether two Strings have the same characters. */
COLD static int same_characters(const Vm *vm, u32 a, u32 b) {
    u32 value = vm->wk[WK_STRING_VALUE], coder = vm->wk[WK_STRING_CODER];
    u32 array_a = hread(vm, a + 1 + value), array_b = hread(vm, b + 1 + value);
    u32 coder_a = hread(vm, a + 1 + coder), coder_b = hread(vm, b + 1 + coder), k;
    u32 length_a = array_a == 0 ? 0 : hread(vm, array_a + 1) >> (coder_a != 0 ? 1 : 0);
    u32 length_b = array_b == 0 ? 0 : hread(vm, array_b + 1) >> (coder_b != 0 ? 1 : 0);
    if (length_a != length_b) return 0;
    for (k = 0; k < length_a; k++)
        if (string_unit(vm, array_a, coder_a, k) != string_unit(vm, array_b, coder_b, k)) return 0;
    return 1;
}

/* String.intern when a literal has the string's characters: that literal. Otherwise the machine
 * keeps a list of the strings interned so far, which the kernel does not: the instance is
 * deferred (`*found` stays 0). */
COLD static void intern_literal(const Vm *vm, u32 string, u32 *found) {
    u32 k, count = vm->literals[0];
    *found = 0;
    for (k = 1; k <= count; k++) {
        if (same_characters(vm, string, vm->literals[k])) {
            *found = vm->literals[k];
            return;
        }
    }
}

/* The heap address of the instance field an Unsafe access names (the object at stack word
 * at + 1, the field's word offset after the header at at + 2 and at + 3, as
 * `vm/unsafe_fields.rs` computes it), or 0 for the accesses the machine refuses (to statics or raw
 * memory, array elements, or outside the object's fields): the CPU backend reports those. */
DEV static u32 unsafe_field(const Vm *vm, u32 at) {
    u32 object = S(at + 1), low = S(at + 2), high = S(at + 3), c;
    if (object == 0 || high != 0) return 0;
    c = hread(vm, object);
    if ((cw(vm, c, C_FLAGS) & FLAG_ARRAY) || low >= cw(vm, c, C_INSTANCE_WORDS)) return 0;
    return object + 1 + low;
}

/* Unsafe's get, put and compare-and-set of an int or long instance field: plain accesses, since
 * an instance runs on one thread. The result words go to r[0] and r[1]. */
COLD static u32 unsafe_access(Vm *vm, u32 id, u32 at, u32 *r) {
    u32 field = unsafe_field(vm, at), e;
    if (field == 0) return defer(vm, DEFER_NATIVE, id);
    switch (id) {
    case NAT_UnsafeGetInt: r[0] = hread(vm, field); break;
    case NAT_UnsafeGetLong: r[0] = hread(vm, field); r[1] = hread(vm, field + 1); break;
    case NAT_UnsafePutInt: return hwrite(vm, field, S(at + 4));
    case NAT_UnsafePutLong:
        if ((e = hwrite(vm, field, S(at + 4)))) return e;
        return hwrite(vm, field + 1, S(at + 5));
    case NAT_UnsafeCompareAndSetInt:
        if (hread(vm, field) != S(at + 4)) break;
        r[0] = 1;
        return hwrite(vm, field, S(at + 5));
    default: /* NAT_UnsafeCompareAndSetLong */
        if (hread(vm, field) != S(at + 4) || hread(vm, field + 1) != S(at + 5)) break;
        r[0] = 1;
        if ((e = hwrite(vm, field, S(at + 6)))) return e;
        return hwrite(vm, field + 1, S(at + 7));
    }
    return GO;
}

/* `Array.newArray(component, length)` (`Machine::reflective_new_array`): arguments from stack word
 * at. The array class is the packaged class whose component is the argument's; one that was not
 * packaged is the CPU backend's refusal. */
COLD static u32 reflective_new_array(Vm *vm, u32 at, u32 call_pc, u32 *array, int *raised) {
    u32 component = S(at), c, k, array_class = NONE;
    i32 length = (i32)S(at + 1);
    *raised = 1;
    if (component == 0) { vm->sp = at; return throw_null(vm, call_pc); }
    c = mirror_class(vm, component);
    if (cw(vm, c, C_ELEMENT) == ELEM_VOID && (cw(vm, c, C_FLAGS) & FLAG_PRIMITIVE)) {
        vm->sp = at;
        return throw_message(vm, vm->wk[WK_ILLEGAL_ARGUMENT], "", call_pc);
    }
    if (length < 0) {
        Message msg;
        msg.count = 0;
        msg.overflow = 0;
        say_int(&msg, length);
        vm->sp = at;
        return throw_vm(vm, vm->wk[WK_NEGATIVE_ARRAY_SIZE], 1, &msg, 0, call_pc);
    }
    *raised = 0;
    for (k = 0; k < vm->class_count && array_class == NONE; k++)
        if ((cw(vm, k, C_FLAGS) & FLAG_ARRAY) && cw(vm, k, C_COMPONENT) == c) array_class = k;
    if (array_class == NONE) return defer(vm, DEFER_NATIVE, NAT_ArrayNewArray);
    u32 e = new_array(vm, array_class, (u32)length, array);
    if (e) return e;
    add_counter(vm, 2, 1 + (u64)length);
    return GO;
}

/* Runs native m (`Machine::native`); `*advance` is 1 when it returned normally. */
COLD static u32 native_call(Vm *vm, u32 m, u32 call_pc, int *advance) {
    u32 at = vm->sp - mw(vm, m, M_ARG_WORDS), id = mw(vm, m, M_TARGET), e;
    u32 r0 = 0, r1 = 0;
    int raised = 0;
    *advance = 0;
    switch (id) {
    case NAT_ObjectHashCode: case NAT_SystemIdentityHashCode: r0 = identity_hash(S(at)); break;
    case NAT_ObjectGetClass:
        if ((e = mirror(vm, hread(vm, S(at)), &r0))) return e;
        break;
    case NAT_ObjectClone:
        if ((e = clone_object(vm, S(at), call_pc, &r0, &raised))) return e;
        if (raised) return GO;
        break;
    case NAT_SystemArraycopy:
        if ((e = arraycopy(vm, at, call_pc, &raised))) return e;
        if (raised) return GO;
        break;
    case NAT_ThrowableFillInStackTrace: r0 = S(at); break;
    case NAT_NoOp: case NAT_ReturnNull: case NAT_ReturnZeroLong: break;
    case NAT_ClassDesiredAssertionStatus: case NAT_ReturnFalse: case NAT_ClassIsHidden: break;
    case NAT_ReturnTrue: r0 = 1; break;
    case NAT_FloatToRawIntBits: case NAT_IntBitsToFloat: r0 = S(at); break;
    case NAT_DoubleToRawLongBits: case NAT_LongBitsToDouble: r0 = S(at); r1 = S(at + 1); break;
    case NAT_SqrtDouble: case NAT_AbsDouble: case NAT_FmaDouble: {
        double a = f64_of((u64)S(at) | ((u64)S(at + 1) << 32)), v;
        if (id == NAT_SqrtDouble) v = sqrt(a);
        else if (id == NAT_AbsDouble) v = fabs(a);
        else v = fma(a, f64_of((u64)S(at + 2) | ((u64)S(at + 3) << 32)), f64_of((u64)S(at + 4) | ((u64)S(at + 5) << 32)));
        u64 bits = bits_f64(v);
        r0 = (u32)bits;
        r1 = (u32)(bits >> 32);
        break;
    }
    case NAT_FmaFloat: r0 = bits_f32(fmaf(f32_of(S(at)), f32_of(S(at + 1)), f32_of(S(at + 2)))); break;
    case NAT_ClassIsArray: r0 = (cw(vm, mirror_class(vm, S(at)), C_FLAGS) & FLAG_ARRAY) ? 1u : 0u; break;
    case NAT_ClassIsPrimitive: r0 = (cw(vm, mirror_class(vm, S(at)), C_FLAGS) & FLAG_PRIMITIVE) ? 1u : 0u; break;
    case NAT_ClassIsInterface: r0 = (cw(vm, mirror_class(vm, S(at)), C_FLAGS) & FLAG_INTERFACE) ? 1u : 0u; break;
    case NAT_ClassIsInstance: {
        u32 c = mirror_class(vm, S(at)), object = S(at + 1);
        r0 = (object != 0 && is_instance(vm, object, c)) ? 1u : 0u;
        break;
    }
    case NAT_ClassIsAssignableFrom: {
        u32 other = S(at + 1);
        if (other == 0) { vm->sp = at; return throw_null(vm, call_pc); }
        u32 to = mirror_class(vm, S(at)), from = mirror_class(vm, other);
        int primitive = ((cw(vm, to, C_FLAGS) | cw(vm, from, C_FLAGS)) & FLAG_PRIMITIVE) != 0;
        r0 = (primitive ? to == from : assignable(vm, from, to)) ? 1u : 0u;
        break;
    }
    case NAT_ClassGetSuperclass: {
        u32 c = mirror_class(vm, S(at)), flags = cw(vm, c, C_FLAGS), superclass = cw(vm, c, C_SUPER);
        if (!(flags & (FLAG_INTERFACE | FLAG_PRIMITIVE)) && superclass != NONE) {
            if ((e = mirror(vm, superclass, &r0))) return e;
        }
        break;
    }
    case NAT_UnsafeArrayBaseOffset: r0 = 16; break;
    case NAT_StringIntern:
        intern_literal(vm, S(at), &r0);
        if (r0 == 0) return defer(vm, DEFER_NATIVE, id);
        break;
    case NAT_UnsafeArrayIndexScale: {
        u32 kind = cw(vm, mirror_class(vm, S(at + 1)), C_ELEMENT);
        r0 = (kind == ELEM_BOOLEAN || kind == ELEM_BYTE) ? 1u
            : (kind == ELEM_CHAR || kind == ELEM_SHORT) ? 2u
            : (kind == ELEM_LONG || kind == ELEM_DOUBLE) ? 8u : 4u;
        break;
    }
    case NAT_ArrayGetLength: {
        u32 array = S(at);
        if (array == 0) { vm->sp = at; return throw_null(vm, call_pc); }
        if (!(cw(vm, hread(vm, array), C_FLAGS) & FLAG_ARRAY)) {
            vm->sp = at;
            return throw_message(vm, vm->wk[WK_ILLEGAL_ARGUMENT], "Argument is not an array", call_pc);
        }
        r0 = hread(vm, array + 1);
        break;
    }
    case NAT_ClassInitClassName: {
        /* The binary name as a new String, also stored in the mirror's `name` field. */
        u32 m = S(at), name_field = vm->wk[WK_CLASS_NAME];
        Message msg;
        msg.count = 0;
        msg.overflow = 0;
        say_class(vm, &msg, mirror_class(vm, m));
        if (msg.overflow) return defer(vm, DEFER_NATIVE, id);
        if ((e = new_string(vm, msg.units, msg.count, &r0))) return e;
        if (name_field != NONE && (e = hwrite(vm, m + 1 + name_field, r0))) return e;
        break;
    }
    case NAT_ArrayNewArray:
        if ((e = reflective_new_array(vm, at, call_pc, &r0, &raised))) return e;
        if (raised) return GO;
        break;
    case NAT_UnsafeGetInt: case NAT_UnsafeGetLong: case NAT_UnsafePutInt: case NAT_UnsafePutLong:
    case NAT_UnsafeCompareAndSetInt: case NAT_UnsafeCompareAndSetLong: {
        u32 r[2] = {0, 0};
        if ((e = unsafe_access(vm, id, at, r)) != GO) return e;
        r0 = r[0];
        r1 = r[1];
        break;
    }
    default: return defer(vm, DEFER_NATIVE, id);
    }
    u32 result_words = mw(vm, m, M_RESULT_WORDS);
    if (result_words > 0) S(at) = r0;
    if (result_words > 1) S(at + 1) = r1;
    vm->sp = at + result_words;
    *advance = 1;
    return GO;
}

/* ---- the dispatch loop ------------------------------------------------------------------- */

COLD static u32 select_target(Vm *vm, u32 selector, u32 c, u32 *m) {
    u32 low = vm->selectors[2 * selector], high = low + vm->selectors[2 * selector + 1];
    while (low < high) {
        u32 middle = (low + high) / 2, candidate = vm->dispatch[2 * middle];
        if (candidate == c) { *m = vm->dispatch[2 * middle + 1]; return GO; }
        if (candidate < c) low = middle + 1;
        else high = middle;
    }
    return defer(vm, DEFER_REFUSED, 0);
}

COLD static u32 out_of_bounds(Vm *vm, i32 index, u32 length, u32 pc) {
    Message msg;
    msg.count = 0;
    msg.overflow = 0;
    say(&msg, "Index ");
    say_int(&msg, index);
    say(&msg, " out of bounds for length ");
    say_int(&msg, length);
    return throw_vm(vm, vm->wk[WK_ARRAY_INDEX], 1, &msg, 0, pc);
}

/* The arrays of a multianewarray, as `Machine::multi_array`; *negative is set (and *array left)
 * at the first negative length met. */
COLD static u32 multi_array(Vm *vm, u32 c, u32 first, u32 dims, u32 *array, int *negative, i32 *which) {
    u32 e, k;
#define LENGTH(d) ((i32)S(first + (d)))
    if (LENGTH(0) < 0) { *negative = 1; *which = LENGTH(0); return GO; }
    u32 length = (u32)LENGTH(0);
    if ((e = new_array(vm, c, length, array))) return e;
    add_counter(vm, 2, 1 + (u64)length);
    if (dims > 1) {
        if (length == 0) {
            for (k = 1; k < dims; k++)
                if (LENGTH(k) < 0) { *negative = 1; *which = LENGTH(k); return GO; }
        }
        u32 component = cw(vm, c, C_COMPONENT), outer = *array;
        for (k = 0; k < length; k++) {
            u32 inner;
            if ((e = multi_array(vm, component, first + 1, dims - 1, &inner, negative, which))) return e;
            if (*negative) return GO;
            vm->heap[outer - vm->image_len + 2 + k] = inner;
        }
        *array = outer;
    }
    return GO;
#undef LENGTH
}

/* The dispatch loop keeps the registers of the running frame (pc, sp, base) and the stack in local
 * variables, which stay in GPU registers: the Vm lives in local memory (its address goes to the
 * functions off the hot path), and every store through a pointer could alias it. SYNC writes them
 * back before a call that reads or changes them (a frame, an exception, an initialiser); CALL
 * reloads them after. */
#define LS(k) stack[(usize)(k) * n]
#define PUSH(v) do { u32 v_ = (v); LS(sp) = v_; sp += 1; } while (0)
#define PUSH_LONG(v) do { u64 w_ = (v); LS(sp) = (u32)w_; LS(sp + 1) = (u32)(w_ >> 32); sp += 2; } while (0)
#define SYNC() do { vm->pc = pc; vm->sp = sp; vm->base = base; } while (0)
#define RELOAD() do { pc = vm->pc; sp = vm->sp; base = vm->base; } while (0)
#define CALL(call) do { u32 flow_; SYNC(); flow_ = (call); RELOAD(); if (flow_) return flow_; } while (0)
/* Leaves the loop through a function that raises or changes frames. */
#define LEAVE(call) do { SYNC(); return (call); } while (0)
#define CHECK(call) do { u32 flow_ = (call); if (flow_) return flow_; } while (0)
/* Not wrapped in do-while: its `continue` must reach the dispatch loop (the instruction runs again
 * once the initialiser returns). */
#define READY(c) { int ready_; u32 flow_; SYNC(); flow_ = ensure_initialized(vm, (c), pc, &ready_); RELOAD(); \
    if (flow_) { return flow_; } if (!ready_) { continue; } }

COLD static u32 arithmetic(Vm *vm, u32 op);

DEV static u32 execute(Vm *vm) {
    const u32 *code = vm->code;
    u32 *const stack = vm->stack;
    const usize n = vm->n;
    u32 pc = vm->pc, sp = vm->sp, base = vm->base;
    for (;;) {
        u32 op = code[pc];
        switch (op) {
        case OP_G_ICMP: {
            i32 b = (i32)LS(sp - 1), a = (i32)LS(sp - 2);
            sp -= 2;
            pc = holds(code[pc + 1], (a > b) - (a < b)) ? pc + 3 : code[pc + 2];
            break;
        }
        case OP_G_LCMP: {
            i64 b = (i64)((u64)LS(sp - 2) | ((u64)LS(sp - 1) << 32));
            i64 a = (i64)((u64)LS(sp - 4) | ((u64)LS(sp - 3) << 32));
            sp -= 4;
            pc = holds(code[pc + 1], (a > b) - (a < b)) ? pc + 3 : code[pc + 2];
            break;
        }
        case OP_G_ACMP: {
            u32 b = LS(sp - 1), a = LS(sp - 2);
            sp -= 2;
            pc = holds(code[pc + 1], (a > b) - (a < b)) ? pc + 3 : code[pc + 2];
            break;
        }
        case OP_G_INSTANCEOF: {
            u32 value = LS(sp - 1);
            int instance;
            sp -= 1;
            instance = value != 0 && is_instance(vm, value, code[pc + 1]);
            pc = (instance != (code[pc + 2] != 0)) ? pc + 4 : code[pc + 3];
            break;
        }
        case OP_NO_RULE: case OP_REFUSE: LEAVE(defer(vm, DEFER_REFUSED, 0));
        case OP_PUSH: PUSH(code[pc + 1]); pc += 2; break;
        case OP_PUSH2: PUSH(code[pc + 1]); PUSH(code[pc + 2]); pc += 3; break;
        case OP_LDC_CLASS: {
            u32 made;
            CALL(mirror(vm, code[pc + 1], &made));
            PUSH(made);
            pc += 2;
            break;
        }
        case OP_LOAD: PUSH(LS(base + code[pc + 1])); pc += 2; break;
        case OP_LOAD2: {
            u32 at = base + code[pc + 1], low = LS(at), high = LS(at + 1);
            PUSH(low);
            PUSH(high);
            pc += 2;
            break;
        }
        case OP_STORE: sp -= 1; LS(base + code[pc + 1]) = LS(sp); pc += 2; break;
        case OP_STORE2: {
            u32 at = base + code[pc + 1];
            sp -= 2;
            LS(at) = LS(sp);
            LS(at + 1) = LS(sp + 1);
            pc += 2;
            break;
        }
        case OP_DUP: {
            u32 v = LS(sp - 1), k;
            for (k = 0; k < code[pc + 1]; k++) PUSH(v);
            pc += 2;
            break;
        }
        case OP_DUP2: {
            u32 low = LS(sp - 2), high = LS(sp - 1), k;
            for (k = 0; k < code[pc + 1]; k++) { PUSH(low); PUSH(high); }
            pc += 2;
            break;
        }
        case OP_FETCH: { u32 v = LS(sp - code[pc + 1]); PUSH(v); pc += 2; break; }
        case OP_FETCH2: {
            u32 at = sp - code[pc + 1], low = LS(at), high = LS(at + 1);
            PUSH(low);
            PUSH(high);
            pc += 2;
            break;
        }
        case OP_POP: sp -= code[pc + 1]; pc += 2; break;
        case OP_IADD: LS(sp - 2) = LS(sp - 2) + LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_ISUB: LS(sp - 2) = LS(sp - 2) - LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_IMUL: LS(sp - 2) = LS(sp - 2) * LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_IAND: LS(sp - 2) = LS(sp - 2) & LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_IOR: LS(sp - 2) = LS(sp - 2) | LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_IXOR: LS(sp - 2) = LS(sp - 2) ^ LS(sp - 1); sp -= 1; pc += 1; break;
        case OP_ISHL: LS(sp - 2) = LS(sp - 2) << (LS(sp - 1) & 31u); sp -= 1; pc += 1; break;
        case OP_ISHR: LS(sp - 2) = (u32)((i32)LS(sp - 2) >> (LS(sp - 1) & 31u)); sp -= 1; pc += 1; break;
        case OP_IUSHR: LS(sp - 2) = LS(sp - 2) >> (LS(sp - 1) & 31u); sp -= 1; pc += 1; break;
        case OP_INEG: LS(sp - 1) = 0u - LS(sp - 1); pc += 1; break;
        case OP_I2B: LS(sp - 1) = narrow(ELEM_BYTE, LS(sp - 1)); pc += 1; break;
        case OP_I2C: LS(sp - 1) = narrow(ELEM_CHAR, LS(sp - 1)); pc += 1; break;
        case OP_I2S: LS(sp - 1) = narrow(ELEM_SHORT, LS(sp - 1)); pc += 1; break;
        case OP_IDIV: case OP_IREM: {
            i32 b = (i32)LS(sp - 1), a = (i32)LS(sp - 2);
            u32 r;
            sp -= 2;
            if (b == 0) LEAVE(throw_message(vm, vm->wk[WK_ARITHMETIC], "/ by zero", pc));
            if (b == -1) r = op == OP_IDIV ? 0u - (u32)a : 0u;
            else r = (u32)(op == OP_IDIV ? a / b : a % b);
            PUSH(r);
            pc += 3;
            break;
        }
        case OP_LDIV: case OP_LREM: {
            i64 b = (i64)((u64)LS(sp - 2) | ((u64)LS(sp - 1) << 32));
            i64 a = (i64)((u64)LS(sp - 4) | ((u64)LS(sp - 3) << 32));
            u64 r;
            sp -= 4;
            if (b == 0) LEAVE(throw_message(vm, vm->wk[WK_ARITHMETIC], "/ by zero", pc));
            if (b == -1) r = op == OP_LDIV ? (u64)0 - (u64)a : 0u;
            else r = (u64)(op == OP_LDIV ? a / b : a % b);
            PUSH_LONG(r);
            pc += 3;
            break;
        }
        case OP_GETFIELD: case OP_GETFIELD2: {
            u32 object = LS(sp - 1), at;
            sp -= 1;
            if (object == 0) LEAVE(throw_null(vm, pc));
            at = object + 1 + code[pc + 1];
            PUSH(hread(vm, at));
            if (op == OP_GETFIELD2) PUSH(hread(vm, at + 1));
            pc += 4;
            break;
        }
        case OP_PUTFIELD: {
            u32 v = LS(sp - 1), object = LS(sp - 2);
            sp -= 2;
            if (object == 0) LEAVE(throw_null(vm, pc));
            CHECK(hwrite(vm, object + 1 + code[pc + 1], narrow(code[pc + 2], v)));
            pc += 5;
            break;
        }
        case OP_PUTFIELD2: {
            u64 v = (u64)LS(sp - 2) | ((u64)LS(sp - 1) << 32);
            u32 object = LS(sp - 3), at;
            sp -= 3;
            if (object == 0) LEAVE(throw_null(vm, pc));
            at = object + 1 + code[pc + 1];
            CHECK(hwrite(vm, at, (u32)v));
            CHECK(hwrite(vm, at + 1, (u32)(v >> 32)));
            pc += 4;
            break;
        }
        case OP_GETSTATIC: case OP_GETSTATIC2: {
            u32 at;
            READY(code[pc + 1]);
            at = code[pc + 2];
            PUSH(ST(at));
            if (op == OP_GETSTATIC2) PUSH(ST(at + 1));
            pc += 5;
            break;
        }
        case OP_PUTSTATIC: {
            READY(code[pc + 1]);
            sp -= 1;
            ST(code[pc + 2]) = narrow(code[pc + 3], LS(sp));
            pc += 6;
            break;
        }
        case OP_PUTSTATIC2: {
            READY(code[pc + 1]);
            sp -= 2;
            ST(code[pc + 2]) = LS(sp);
            ST(code[pc + 2] + 1) = LS(sp + 1);
            pc += 5;
            break;
        }
        case OP_ALOAD: {
            i32 index = (i32)LS(sp - 1);
            u32 array = LS(sp - 2), length, kind = code[pc + 1];
            sp -= 2;
            if (array == 0) LEAVE(throw_null(vm, pc));
            length = hread(vm, array + 1);
            if (index < 0 || (u32)index >= length) LEAVE(out_of_bounds(vm, index, length, pc));
            if (kind == ELEM_LONG || kind == ELEM_DOUBLE) {
                u32 at = array + 2 + 2 * (u32)index;
                PUSH(hread(vm, at));
                PUSH(hread(vm, at + 1));
            } else {
                PUSH(hread(vm, array + 2 + (u32)index));
            }
            pc += 4;
            break;
        }
        case OP_ASTORE: {
            u32 kind = code[pc + 1], array, length, array_class;
            int wide = kind == ELEM_LONG || kind == ELEM_DOUBLE;
            u64 v;
            i32 index;
            if (wide) { v = (u64)LS(sp - 2) | ((u64)LS(sp - 1) << 32); sp -= 2; }
            else { v = LS(sp - 1); sp -= 1; }
            index = (i32)LS(sp - 1);
            array = LS(sp - 2);
            sp -= 2;
            if (array == 0) LEAVE(throw_null(vm, pc));
            length = hread(vm, array + 1);
            if (index < 0 || (u32)index >= length) LEAVE(out_of_bounds(vm, index, length, pc));
            array_class = hread(vm, array);
            if (wide) {
                u32 at = array + 2 + 2 * (u32)index;
                CHECK(hwrite(vm, at, (u32)v));
                CHECK(hwrite(vm, at + 1, (u32)(v >> 32)));
            } else {
                u32 value = (u32)v, stored;
                if (kind == ELEM_REF) {
                    if (value != 0 && !is_instance(vm, value, cw(vm, array_class, C_COMPONENT))) {
                        Message msg;
                        msg.count = 0;
                        msg.overflow = 0;
                        say_class(vm, &msg, hread(vm, value));
                        LEAVE(throw_vm(vm, vm->wk[WK_ARRAY_STORE], 1, &msg, 0, pc));
                    }
                    stored = value;
                } else {
                    stored = narrow(cw(vm, array_class, C_ELEMENT), value);
                }
                CHECK(hwrite(vm, array + 2 + (u32)index, stored));
            }
            pc += 4;
            break;
        }
        case OP_ARRAYLENGTH: {
            u32 array = LS(sp - 1);
            sp -= 1;
            if (array == 0) LEAVE(throw_null(vm, pc));
            PUSH(hread(vm, array + 1));
            pc += 3;
            break;
        }
        case OP_NEW: {
            u32 object;
            READY(code[pc + 1]);
            CHECK(new_object(vm, code[pc + 1], &object));
            add_counter(vm, 2, 1);
            PUSH(object);
            pc += 4;
            break;
        }
        case OP_NEWARRAY: {
            i32 length = (i32)LS(sp - 1);
            u32 array;
            sp -= 1;
            if (length < 0) {
                Message msg;
                msg.count = 0;
                msg.overflow = 0;
                say_int(&msg, length);
                LEAVE(throw_vm(vm, vm->wk[WK_NEGATIVE_ARRAY_SIZE], 1, &msg, 0, pc));
            }
            CHECK(new_array(vm, code[pc + 1], (u32)length, &array));
            add_counter(vm, 2, 1 + (u64)length);
            PUSH(array);
            pc += 4;
            break;
        }
        case OP_MULTIANEWARRAY: {
            u32 dims = code[pc + 2], array = 0;
            i32 which = 0;
            int negative = 0;
            sp -= dims;
            CALL(multi_array(vm, code[pc + 1], sp, dims, &array, &negative, &which));
            if (negative) {
                Message msg;
                msg.count = 0;
                msg.overflow = 0;
                say_int(&msg, which);
                LEAVE(throw_vm(vm, vm->wk[WK_NEGATIVE_ARRAY_SIZE], 1, &msg, 0, pc));
            }
            PUSH(array);
            pc += 5;
            break;
        }
        case OP_INVOKESTATIC: {
            u32 m = code[pc + 1], c = mw(vm, m, M_CLASS), flags;
            int advance;
            if (c != NONE) READY(c);
            add_counter(vm, 1, 1);
            flags = mw(vm, m, M_FLAGS);
            if (flags & MFLAG_CONSUME_UNITS) {
                i32 units = (i32)LS(sp - 1);
                add_counter(vm, 3, units > 0 ? (u64)units : 0u);
            } else if (flags & MFLAG_CONSUME_ONE) {
                add_counter(vm, 3, 1);
            }
            CALL(enter_method(vm, m, code[pc + 2], pc, FRAME_METHOD, 0, &advance));
            if (advance) pc += 5;
            break;
        }
        case OP_INVOKESPECIAL: {
            u32 m = code[pc + 1];
            int advance;
            add_counter(vm, 1, 1);
            if (LS(sp - mw(vm, m, M_ARG_WORDS)) == 0) LEAVE(throw_null(vm, pc));
            CALL(enter_method(vm, m, code[pc + 2], pc, FRAME_METHOD, 0, &advance));
            if (advance) pc += 5;
            break;
        }
        case OP_INVOKEVIRTUAL: {
            u32 receiver, m;
            int advance;
            add_counter(vm, 1, 1);
            receiver = LS(sp - code[pc + 2]);
            if (receiver == 0) LEAVE(throw_null(vm, pc));
            CHECK(select_target(vm, code[pc + 1], hread(vm, receiver), &m));
            CALL(enter_method(vm, m, code[pc + 3], pc, FRAME_METHOD, 0, &advance));
            if (advance) pc += 6;
            break;
        }
        case OP_CALL: CALL(push_frame(vm, code[pc + 1], code[pc + 2], pc, FRAME_PROC, vm->node, 0)); break;
        case OP_CHECKCAST: {
            u32 v = LS(sp - 1), c = code[pc + 1];
            sp -= 1;
            if (v != 0 && !is_instance(vm, v, c)) {
                Message msg;
                msg.count = 0;
                msg.overflow = 0;
                say(&msg, "class ");
                say_class(vm, &msg, hread(vm, v));
                say(&msg, " cannot be cast to class ");
                say_class(vm, &msg, c);
                LEAVE(throw_vm(vm, vm->wk[WK_CLASS_CAST], 1, &msg, 0, pc));
            }
            pc += 4;
            break;
        }
        case OP_INSTANCEOF: {
            u32 v = LS(sp - 1);
            LS(sp - 1) = (v != 0 && is_instance(vm, v, code[pc + 1])) ? 1u : 0u;
            pc += 2;
            break;
        }
        case OP_MONITOR:
            sp -= 1;
            if (LS(sp) == 0) LEAVE(throw_null(vm, pc));
            pc += 3;
            break;
        case OP_RETURN:
            CHECK(add_bytecodes(vm, code[pc + 2]));
            LEAVE(return_from_frame(vm, code[pc + 1]));
        case OP_TAILCALL: {
            u32 words = code[pc + 2], k;
            CHECK(add_bytecodes(vm, code[pc + 3]));
            for (k = 0; k < words; k++) LS(base + k) = LS(sp - words + k);
            CALL(enter_in_frame(vm, code[pc + 1]));
            break;
        }
        case OP_THROW: {
            u32 exception = LS(sp - 1);
            sp -= 1;
            if (exception == 0) LEAVE(throw_null(vm, pc));
            LEAVE(raise(vm, exception, pc));
        }
        case OP_INIT_CLASS: READY(code[pc + 1]); pc += 4; break;
        case OP_INVOKE_ENTRY: {
            u32 m = code[pc + 1], arg_words = mw(vm, m, M_ARG_WORDS);
            int advance;
            if (!(mw(vm, m, M_FLAGS) & MFLAG_STATIC) && LS(sp - arg_words) == 0) LEAVE(throw_null(vm, pc));
            CALL(enter_method(vm, m, NONE, pc, FRAME_METHOD, 0, &advance));
            if (advance) pc += 4;
            break;
        }
        default:
            if (op >= OP_LADD && op <= OP_I2S) {
                CALL(arithmetic(vm, op));
                pc += 1;
                break;
            }
            /* OP_CONCAT formats numbers and reads the program's strings: the CPU runs it. */
            LEAVE(defer(vm, DEFER_REFUSED, 0));
        }
    }
}

/* The instructions without operands (`Machine::arithmetic`). */
COLD static u32 arithmetic(Vm *vm, u32 op) {
    if (op <= OP_IUSHR) {
        u32 b = pop(vm), a = pop(vm), r, s = b & 31u;
        switch (op) {
        case OP_IADD: r = a + b; break;
        case OP_ISUB: r = a - b; break;
        case OP_IMUL: r = a * b; break;
        case OP_IAND: r = a & b; break;
        case OP_IOR: r = a | b; break;
        case OP_IXOR: r = a ^ b; break;
        case OP_ISHL: r = a << s; break;
        case OP_ISHR: r = (u32)((i32)a >> s); break;
        default: r = a >> s; break;
        }
        push(vm, r);
        return GO;
    }
    switch (op) {
    case OP_INEG: push(vm, 0u - pop(vm)); return GO;
    case OP_LSHL: case OP_LSHR: case OP_LUSHR: {
        u32 s = pop(vm) & 63u;
        u64 a = pop_long(vm);
        push_long(vm, op == OP_LSHL ? a << s : op == OP_LSHR ? (u64)((i64)a >> s) : a >> s);
        return GO;
    }
    case OP_LADD: case OP_LSUB: case OP_LMUL: case OP_LAND: case OP_LOR: case OP_LXOR: {
        u64 b = pop_long(vm), a = pop_long(vm), r;
        switch (op) {
        case OP_LADD: r = a + b; break;
        case OP_LSUB: r = a - b; break;
        case OP_LMUL: r = a * b; break;
        case OP_LAND: r = a & b; break;
        case OP_LOR: r = a | b; break;
        default: r = a ^ b; break;
        }
        push_long(vm, r);
        return GO;
    }
    case OP_LNEG: push_long(vm, (u64)0 - pop_long(vm)); return GO;
    case OP_LCMP: {
        i64 b = (i64)pop_long(vm), a = (i64)pop_long(vm);
        push(vm, (u32)(i32)((a > b) - (a < b)));
        return GO;
    }
    case OP_FADD: case OP_FSUB: case OP_FMUL: case OP_FDIV: case OP_FREM: {
        float b = f32_of(pop(vm)), a = f32_of(pop(vm)), r;
        switch (op) {
        case OP_FADD: r = a + b; break;
        case OP_FSUB: r = a - b; break;
        case OP_FMUL: r = a * b; break;
        case OP_FDIV: r = a / b; break;
        default: r = fmodf(a, b); break;
        }
        push(vm, bits_f32(r));
        return GO;
    }
    case OP_FNEG: push(vm, pop(vm) ^ 0x80000000u); return GO;
    case OP_FCMPL: case OP_FCMPG: {
        float b = f32_of(pop(vm)), a = f32_of(pop(vm));
        push(vm, (u32)compare_f(a, b, op == OP_FCMPL ? -1 : 1));
        return GO;
    }
    case OP_DADD: case OP_DSUB: case OP_DMUL: case OP_DDIV: case OP_DREM: {
        double b = f64_of(pop_long(vm)), a = f64_of(pop_long(vm)), r;
        switch (op) {
        case OP_DADD: r = a + b; break;
        case OP_DSUB: r = a - b; break;
        case OP_DMUL: r = a * b; break;
        case OP_DDIV: r = a / b; break;
        default: r = fmod(a, b); break;
        }
        push_long(vm, bits_f64(r));
        return GO;
    }
    case OP_DNEG: push_long(vm, pop_long(vm) ^ 0x8000000000000000ULL); return GO;
    case OP_DCMPL: case OP_DCMPG: {
        double b = f64_of(pop_long(vm)), a = f64_of(pop_long(vm));
        push(vm, (u32)compare_f(a, b, op == OP_DCMPL ? -1 : 1));
        return GO;
    }
    case OP_I2L: push_long(vm, (u64)(i64)(i32)pop(vm)); return GO;
    case OP_I2F: push(vm, bits_f32((float)(i32)pop(vm))); return GO;
    case OP_I2D: push_long(vm, bits_f64((double)(i32)pop(vm))); return GO;
    case OP_L2I: push(vm, (u32)pop_long(vm)); return GO;
    case OP_L2F: push(vm, bits_f32((float)(i64)pop_long(vm))); return GO;
    case OP_L2D: push_long(vm, bits_f64((double)(i64)pop_long(vm))); return GO;
    case OP_F2I: push(vm, (u32)d2i((double)f32_of(pop(vm)))); return GO;
    case OP_F2L: push_long(vm, (u64)d2l((double)f32_of(pop(vm)))); return GO;
    case OP_F2D: push_long(vm, bits_f64((double)f32_of(pop(vm)))); return GO;
    case OP_D2I: push(vm, (u32)d2i(f64_of(pop_long(vm)))); return GO;
    case OP_D2L: push_long(vm, (u64)d2l(f64_of(pop_long(vm)))); return GO;
    case OP_D2F: push(vm, bits_f32((float)f64_of(pop_long(vm)))); return GO;
    case OP_I2B: push(vm, narrow(ELEM_BYTE, pop(vm))); return GO;
    case OP_I2C: push(vm, narrow(ELEM_CHAR, pop(vm))); return GO;
    default: push(vm, narrow(ELEM_SHORT, pop(vm))); return GO;
    }
}

/* ---- one instance ------------------------------------------------------------------------ */

/* A grid of inputs (CF_DECODE, `abi::InputGrid`): the number of the launch's first instance (2
 * words), the parameters' count, then per parameter its words per value, its values' count and
 * the values. Instance i is number start + i, read as a mixed-radix number whose digits pick each
 * parameter's value, the first parameter's digit least significant (Tempo's numbering). */
DEV static u32 grid_words(const u32 *grid) {
    u32 p, at = 3, words = 0;
    for (p = 0; p < grid[2]; p++) {
        words += grid[at];
        at += 2 + grid[at] * grid[at + 1];
    }
    return words;
}

/* Writes instance i's argument words, decoded from the grid, onto the stack. */
DEV static void grid_arguments(Vm *vm, const u32 *grid, u32 i) {
    u64 number = ((u64)grid[1] << 32 | grid[0]) + i;
    u32 p, j, at = 3, k = 0;
    for (p = 0; p < grid[2]; p++) {
        u32 words = grid[at], radix = grid[at + 1];
        const u32 *value = grid + at + 2 + (u32)(number % radix) * words;
        number /= radix;
        for (j = 0; j < words; j++) S(k++) = value[j];
        at += 2 + words * radix;
    }
}

COLD static void run_instance(const u32 *prog, const u32 *cfg, const u32 *inputs, u32 *state, u32 *results, u32 i) {
    Vm vm_;
    Vm *vm = &vm_;
    usize n = cfg[CF_COUNT];
    u32 k;
    vm->code = prog + prog[PD_CODE];
    vm->classes = prog + prog[PD_CLASSES];
    vm->supertypes = prog + prog[PD_SUPERTYPES];
    vm->init_lists = prog + prog[PD_INIT_LISTS];
    vm->methods = prog + prog[PD_METHODS];
    vm->procs = prog + prog[PD_PROCS];
    vm->selectors = prog + prog[PD_SELECTORS];
    vm->dispatch = prog + prog[PD_DISPATCH];
    vm->handlers = prog + prog[PD_HANDLERS];
    vm->image = prog + prog[PD_IMAGE];
    vm->wk = prog + prog[PD_WELL_KNOWN];
    vm->name_units = prog + prog[PD_NAME_UNITS];
    vm->name_offsets = prog + prog[PD_NAME_OFFSETS];
    vm->literals = prog + prog[PD_LITERALS];
    vm->n = n;
    vm->image_len = cfg[CF_IMAGE_LEN];
    vm->heap_limit = cfg[CF_HEAP_LIMIT];
    vm->heap_cap = cfg[CF_HEAP_CAP];
    vm->stack_limit = cfg[CF_STACK_LIMIT];
    vm->stack_cap = cfg[CF_STACK_CAP];
    vm->max_frames = cfg[CF_MAX_FRAMES];
    vm->frame_cap = cfg[CF_FRAME_CAP];
    vm->log_cap = cfg[CF_LOG_CAP];
    vm->node_cap = cfg[CF_NODE_CAP];
    vm->cct = cfg[CF_CCT];
    vm->max_bytecodes = (u64)cfg[CF_MAX_BYTECODES_LOW] | ((u64)cfg[CF_MAX_BYTECODES_HIGH] << 32);
    usize statics_len = cfg[CF_STATICS_LEN], classes = cfg[CF_CLASS_COUNT];
    vm->class_count = (u32)classes;
    usize at = 0;
    vm->stack = state + at + i; at += (usize)vm->stack_cap * n;
    vm->frames = state + at + i; at += (usize)vm->frame_cap * FRAME_WORDS * n;
    vm->statics = state + at + i; at += statics_len * n;
    vm->cstate = state + at + i; at += classes * n;
    vm->mirrors = state + at + i; at += classes * n;
    vm->heap = state + at + (usize)i * vm->heap_cap; at += (usize)vm->heap_cap * n;
    vm->logk = state + at + i; at += (usize)vm->log_cap * n;
    vm->logv = state + at + i; at += (usize)vm->log_cap * n;
    vm->nodes = state + at + (usize)i * vm->node_cap * NODE_WORDS;

    u32 *result = results + (usize)i * RES_WORDS;
    for (k = 0; k < RES_WORDS; k++) result[k] = 0;
    for (k = 0; k < 8; k++) vm->m[k] = 0;
    vm->log_count = 0;
    vm->node_count = 0;
    vm->init_depth = 0;
    vm->failed_class = NONE;
    vm->failed_exception = NONE;
    vm->defer = 0;
    vm->defer_detail = 0;
    vm->exception = 0;
    for (k = 0; k < vm->log_cap; k++) vm->logk[(usize)k * n] = NONE;
    const u32 *initial_statics = prog + prog[PD_STATICS];
    const u32 *initial_states = prog + prog[PD_CLASS_STATE];
    const u32 *initial_mirrors = prog + prog[PD_MIRRORS];
    for (k = 0; k < statics_len; k++) ST(k) = initial_statics[k];
    for (k = 0; k < classes; k++) { CS(k) = initial_states[k]; MI(k) = initial_mirrors[k]; }
    if (vm->cct) {
        for (k = 0; k < NODE_WORDS; k++) vm->nodes[k] = 0;
        vm->nodes[0] = NONE;
        vm->nodes[1] = NONE;
        vm->nodes[2] = NONE;
        vm->nodes[3] = NONE;
        vm->nodes[4] = NONE;
        vm->node_count = 1;
    }
    vm->node = 0;

    /* The inputs: argument words on the stack, the heap words of input objects after the image. */
    u32 flow;
    u32 decode = cfg[CF_DECODE];
    const u32 *record = decode ? inputs : inputs + inputs[i];
    u32 arg_words = decode ? grid_words(inputs) : record[0];
    u32 segment = decode ? 0 : inputs[i + 1] - inputs[i] - 1 - arg_words;
    u32 launcher = cfg[CF_LAUNCHER];
    vm->heap_top = vm->image_len;
    if (segment > vm->heap_cap || arg_words + pw(vm, launcher, P_FRAME_WORDS) + pw(vm, launcher, P_MAX_STACK) + 64 > vm->stack_cap
        || vm->frame_cap < 1) {
        flow = defer(vm, DEFER_INPUTS, 0);
    } else {
        for (k = 0; k < segment; k++) vm->heap[k] = record[1 + arg_words + k];
        vm->heap_top = vm->image_len + segment;
        if (decode) grid_arguments(vm, inputs, i);
        else for (k = 0; k < arg_words; k++) S(k) = record[1 + k];
        FR(0 + F_PROC) = launcher;
        FR(0 + F_CALL_PC) = NONE;
        FR(0 + F_BASE) = 0;
        FR(0 + F_NODE) = 0;
        FR(0 + F_KIND) = FRAME_LAUNCHER;
        FR(0 + F_EXTRA) = 0;
        vm->fsp = FRAME_WORDS;
        vm->base = 0;
        vm->sp = pw(vm, launcher, P_FRAME_WORDS);
        vm->pc = pw(vm, launcher, P_CODE);
        do { flow = execute(vm); } while (flow == GO);
    }

    u32 status;
    switch (flow) {
    case X_RETURNED:
        status = ST_RETURNED;
        result[RES_VALUE] = S(vm->base);
        result[RES_VALUE_HIGH] = S(vm->base + 1);
        break;
    case X_THREW: status = ST_THREW; result[RES_VALUE] = hread(vm, vm->exception); break;
    case X_OOM: status = ST_OUT_OF_MEMORY; break;
    case X_SO: status = ST_STACK_OVERFLOW; break;
    case X_STEP: status = ST_STEP_LIMIT; break;
    default: status = ST_DEFERRED; break;
    }
    result[RES_STATUS] = status;
    for (k = 0; k < 8; k++) {
        result[RES_METRICS + 2 * k] = (u32)vm->m[k];
        result[RES_METRICS + 2 * k + 1] = (u32)(vm->m[k] >> 32);
    }
    result[RES_HEAP_TOP] = vm->heap_top;
    result[RES_LOG_COUNT] = vm->log_count;
    result[RES_NODES] = vm->node_count;
    result[RES_FAILED_CLASS] = vm->failed_class;
    result[RES_FAILED_EXCEPTION] = vm->failed_exception;
    result[RES_DEFER] = vm->defer;
    result[RES_DEFER_DETAIL] = vm->defer_detail;
}

KERNEL_ENTRY void jresa_run(const u32 *prog, const u32 *cfg, const u32 *inputs, u32 *state, u32 *results) {
    FOR_EACH_INSTANCE(i, cfg[CF_COUNT], cfg[CF_SPREAD]) {
        run_instance(prog, cfg, inputs, state, results, i);
    }
}

/* Copies the heap words each instance allocated (its inputs first) into `packed`, instance i's at
 * offsets[i] (the host's prefix sums of `heap_top - image_len`), so the host reads every heap it
 * needs in one transfer. */
KERNEL_ENTRY void jresa_pack(const u32 *cfg, const u32 *state, const u32 *offsets, u32 *packed) {
    FOR_EACH_INSTANCE(i, cfg[CF_COUNT], 1) {
        usize n = cfg[CF_COUNT];
        usize at = (usize)cfg[CF_STACK_CAP] * n + (usize)cfg[CF_FRAME_CAP] * FRAME_WORDS * n
            + (usize)cfg[CF_STATICS_LEN] * n + 2 * (usize)cfg[CF_CLASS_COUNT] * n;
        const u32 *heap = state + at + (usize)i * cfg[CF_HEAP_CAP];
        u32 used = offsets[i + 1] - offsets[i], k;
        for (k = 0; k < used; k++) packed[offsets[i] + k] = heap[k];
    }
}
