/* Runs h5perf with the null backend in every API slot: the whole sweep,
 * timers, agreement, header and report, without any I/O. Takes h5perf's own
 * arguments and writes its outputs as h5perf does, through h5perf's own
 * program (h5perf_program()), so that nothing here repeats its steps.
 * With $H5PERF_NULL_SECONDS every timer reads the null backend's synthetic
 * clock (null_backend.h); --advise races its candidates on it too. */
#include <stdlib.h>

#include "null_backend.h"
#include "program.h"

int main(int argc, char **argv)
{
    struct run_hooks hooks = {.clock = NULL};
    for (int i = 0; i < API_COUNT; i++)
        hooks.ops[i] = &backend_null;
    if (getenv("H5PERF_NULL_SECONDS")) {
        hooks.clock = null_clock;
        hooks.clock_name = "synthetic";
        hooks.clock_hz = 0;
    }
    return h5perf_program(argc, argv, &hooks);
}
