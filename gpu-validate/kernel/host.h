/* Compiles the interpreter kernel as plain C for the host: device qualifiers vanish and the
 * threads of a launch become a loop over its instances, in order. */
#include <math.h>
#define DEV
#define COLD __attribute__((noinline))
#define KERNEL_ENTRY
#define FOR_EACH_INSTANCE(i, count) for (u32 i = 0; i < (count); i++)
