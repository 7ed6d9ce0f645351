/* The interpreter kernel built for the host (see host.h): the tests run it on every machine and
 * compare it with the CPU backend. */
#include "host.h"
#include "isa.h"
#include "abi.h"
#include "interp.cu"
