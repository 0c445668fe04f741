/* Prints the sizes of h5perf's per-run records, one "name bytes" a line,
 * for tests that make one of their allocations fail (tests/tools/allocs.c):
 * iter_result (a run point's record holds 8, 16, 32... of them as its
 * iterations come) and latency_hist (one merged per run point). */
#include <stdio.h>

#include "report/latency.h"
#include "report/results.h"

int main(void)
{
    printf("iter_result %zu\n", sizeof(struct iter_result));
    printf("latency_hist %zu\n", sizeof(struct latency_hist));
    return 0;
}
