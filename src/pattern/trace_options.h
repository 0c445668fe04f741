/* The trace pattern's own options (docs/trace.md, "The trace pattern"):
 * --trace, --trace-gaps, --trace-gather and --trace-align, one field per
 * own row of trace_options.c,
 * stored in the configuration's trace pattern_settings (cli/config.h),
 * opaque to every file but the pattern's. Pure. */
#ifndef H5PERF_TRACE_OPTIONS_H
#define H5PERF_TRACE_OPTIONS_H

#include "cli/config.h"

/* --trace-gaps: the recorded gaps between a process's calls kept as
 * pauses, or dropped. 0: not given, KEEP. */
enum trace_gaps { TRACE_GAPS_KEEP = 1, TRACE_GAPS_DROP };

struct trace_settings {
    const char *file; /* --trace: the trace file (into argv), NULL = not given */
    int gaps;         /* --trace-gaps: an enum trace_gaps */
    int64_t gather;   /* --trace-gather: the largest gathered call; 0: none */
    int64_t align;    /* --trace-align: each call's boundary; 0: none */
};

static inline const struct trace_settings *trace_settings_of(const struct pattern_settings *s)
{
    return (const struct trace_settings *)(const void *)s->own.bytes;
}

static inline struct trace_settings *trace_settings_edit(struct pattern_settings *s)
{
    return (struct trace_settings *)(void *)s->own.bytes;
}

/* The trace pattern's pattern_settings in c, and its settings there. */
const struct pattern_settings *trace_own(const struct config *c);
const struct trace_settings *trace_of(const struct config *c);

/* "--trace 'app.trace'", as given, for messages. */
void trace_option_text(const struct config *c, char *buf, size_t len);

extern const struct opt_row trace_file_row, trace_gaps_row, trace_gather_row, trace_align_row;

#endif
