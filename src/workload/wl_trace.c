/* workload.h: what the application of a trace data set did, from its
 * trace's text (docs/advisor.md, "Traces"), for the answer beside the
 * recommendation. Pure: the caller reads the file. */
#include "pattern/trace.h"
#include "workload/workload.h"

int workload_trace_recorded(const char *data, size_t len, struct workload_recorded *out, char *why,
                            size_t wlen)
{
    struct trace_totals t;
    if (trace_text_totals(data, len, &t, why, wlen) < 0)
        return -1;
    for (int w = 0; w < 2; w++) {
        out->calls[w] = t.calls[w];
        out->bytes[w] = t.bytes[w];
        out->seconds[w] = t.seconds[w];
    }
    return 0;
}
