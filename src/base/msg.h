/* The message vocabulary every layer shares (docs/design.md, "Layers"):
 * one refusal line (struct cli_msg, filled by cli_fail), the warnings a
 * step announces (struct cli_warnings, cli_warn), and a byte count in
 * words. Pure: formats only; rank 0 prints what is returned. */
#ifndef H5PERF_BASE_MSG_H
#define H5PERF_BASE_MSG_H

#include <stddef.h>
#include <stdint.h>

/* One complete message line, starting "h5perf: ", without a newline. */
struct cli_msg {
    char line[5120];
};

#define CLI_MAX_WARNINGS 12
struct cli_warnings {
    int count;
    char line[CLI_MAX_WARNINGS][320]; /* each starts "h5perf: warning: " */
};

/* Replaces control characters (newlines included) with '?', so that a
 * message quoting user input stays one line. */
void cli_one_line(char *line);

/* Fills msg with one formatted line (control characters of the quoted input
 * become '?'); returns -1 so callers can return it. */
int cli_fail(struct cli_msg *msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends "h5perf: warning: <text>" to w; more than CLI_MAX_WARNINGS are
 * dropped. */
void cli_warn(struct cli_warnings *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A byte count for a person: "512 bytes", "16 GiB", "22.9 GiB" (binary
 * units, one decimal unless whole). */
void cli_bytes(char *buf, size_t len, int64_t bytes);

#endif
