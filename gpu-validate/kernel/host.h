/* Compiles the interpreter kernel as plain C for the host: device qualifiers vanish and the
 * threads of a launch become a loop over them, in order; with a spread of k threads per instance,
 * thread t runs instance t / k when it is the first of its k (as on the device). */
#include <math.h>
#define DEV
#define COLD __attribute__((noinline))
#define KERNEL_ENTRY
#define FOR_EACH_INSTANCE(i, count, spread) \
    for (u32 t_ = 0; t_ < (count) * (spread); t_++) \
        for (u32 i = t_ / (spread), once_ = t_ % (spread) == 0; once_; once_ = 0)
