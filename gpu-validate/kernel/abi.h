/* The interface between the interpreter kernel and its host (`src/kernel/abi.rs` mirrors it; a
 * test checks every value). Every buffer is an array of 32-bit words.
 *
 * prog:    the package, read-only: a directory of PD_WORDS offsets, then the arrays.
 * cfg:     CF_WORDS words of limits and sizes.
 * inputs:  CF_COUNT + 1 offsets, then per instance its record: the argument words count, the
 *          argument words, then the heap words its inputs take (placed at the end of the image);
 *          or, with CF_DECODE, a grid of parameter values each instance decodes its own from.
 * state:   per-instance memory; the stack, frames, statics, class states, mirrors and image
 *          log interleaved (word k of instance i at k * count + i, so that a warp's accesses
 *          coalesce), the heap and context tree contiguous per instance.
 * results: RES_WORDS words per instance. */
#define PD_CODE 0
#define PD_CLASSES 1
#define PD_SUPERTYPES 2
#define PD_INIT_LISTS 3
#define PD_METHODS 4
#define PD_PROCS 5
#define PD_SELECTORS 6
#define PD_DISPATCH 7
#define PD_HANDLERS 8
#define PD_IMAGE 9
#define PD_STATICS 10
#define PD_CLASS_STATE 11
#define PD_MIRRORS 12
#define PD_WELL_KNOWN 13
#define PD_NAME_UNITS 14
#define PD_NAME_OFFSETS 15
/* The string literals: their count, then their heap addresses (in the image). */
#define PD_LITERALS 16
#define PD_WORDS 17

#define WK_OBJECT 0
#define WK_STRING 1
#define WK_CLASS 2
#define WK_BYTE_ARRAY 3
#define WK_CLONEABLE 4
#define WK_SERIALIZABLE 5
#define WK_ERROR 6
#define WK_NULL_POINTER 7
#define WK_ARRAY_INDEX 8
#define WK_ARITHMETIC 9
#define WK_NEGATIVE_ARRAY_SIZE 10
#define WK_CLASS_CAST 11
#define WK_ARRAY_STORE 12
#define WK_INITIALIZER_ERROR 13
#define WK_NO_CLASS_DEF 14
#define WK_CLONE_NOT_SUPPORTED 15
#define WK_ILLEGAL_ARGUMENT 16
#define WK_STRING_VALUE 17
#define WK_STRING_CODER 18
#define WK_CLASS_COMPONENT_TYPE 19
#define WK_CLASS_NAME 20
#define WK_MIRROR_HANDLE 21
#define WK_WORDS 22

#define CF_COUNT 0
#define CF_LAUNCHER 1
#define CF_MAX_BYTECODES_LOW 2
#define CF_MAX_BYTECODES_HIGH 3
#define CF_HEAP_LIMIT 4
#define CF_STACK_LIMIT 5
#define CF_MAX_FRAMES 6
#define CF_CCT 7
#define CF_HEAP_CAP 8
#define CF_STACK_CAP 9
#define CF_FRAME_CAP 10
#define CF_LOG_CAP 11
#define CF_NODE_CAP 12
#define CF_STATICS_LEN 13
#define CF_CLASS_COUNT 14
#define CF_IMAGE_LEN 15
/* Threads per instance: 1 (an instance per thread) or 32 (an instance per warp, its first lane
 * running it and the others idle: no divergence within a warp, as GVM does for divergent work). */
#define CF_SPREAD 16
/* 1 when `inputs` is a grid that every instance decodes its arguments from (see grid_words in
 * interp.cu), 0 when it holds a record per instance. */
#define CF_DECODE 17
#define CF_WORDS 18

/* A context-tree node: parent, method, call site, first child, next sibling, initialisation,
 * entries (2 words), then bytecodes, invocations, allocations, consume (2 words each). */
#define NODE_WORDS 16

#define RES_STATUS 0
/* The result words (Returned) or the exception's class (Threw). */
#define RES_VALUE 1
#define RES_VALUE_HIGH 2
/* Counters outside, then inside, class initialisation: 4 counters of 2 words each. */
#define RES_METRICS 3
#define RES_HEAP_TOP 19
#define RES_LOG_COUNT 20
#define RES_NODES 21
/* The first initialiser that threw: its class and the exception's class (NONE when none). */
#define RES_FAILED_CLASS 22
#define RES_FAILED_EXCEPTION 23
/* For Deferred: what the kernel could not do (DEFER_*), and a detail. */
#define RES_DEFER 24
#define RES_DEFER_DETAIL 25
#define RES_WORDS 26

#define ST_RETURNED 0u
#define ST_THREW 1u
#define ST_OUT_OF_MEMORY 2u
#define ST_STACK_OVERFLOW 3u
#define ST_STEP_LIMIT 4u
/* The kernel did not finish the instance; the host runs it on the CPU backend. */
#define ST_DEFERRED 5u

#define DEFER_REFUSED 1u
#define DEFER_NATIVE 2u
#define DEFER_HEAP 3u
#define DEFER_STACK 4u
#define DEFER_LOG 5u
#define DEFER_TREE 6u
#define DEFER_INPUTS 7u
#define DEFER_HANDLER 8u
