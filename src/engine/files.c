/* Created-files registry and the interrupt handler (files.h). The registry is
 * file-static because a signal handler can reach nothing else; the handler
 * only reads flags and paths that were complete before the first data file
 * existed, calls unlink() and _exit(). */
#include "engine/files.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_status.h"

/* The only mutable globals of h5perf, shared with the signal handler. */
static char **reg_path;                    /* [reg_slots], set at set-up */
static volatile sig_atomic_t *reg_created; /* [reg_slots] */
static int reg_slots;
static volatile sig_atomic_t reg_keep;
static bool reg_installed;
static struct sigaction old_int, old_term, old_xfsz;

static void files_on_signal(int sig)
{
    if (!reg_keep)
        for (int i = 0; i < reg_slots; i++)
            if (reg_created[i] && reg_path[i])
                unlink(reg_path[i]);
    _exit(EXIT_SIGNAL_BASE + sig);
}

int files_init(int nslots, bool keep)
{
    reg_path = calloc((size_t)nslots, sizeof *reg_path);
    reg_created = calloc((size_t)nslots, sizeof *reg_created);
    if (!reg_path || !reg_created) {
        files_release();
        return -1;
    }
    reg_slots = nslots;
    reg_keep = keep;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = files_on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGXFSZ, &sa, &old_xfsz);
    reg_installed = true;
    return 0;
}

int files_declare(int slot, const char *path)
{
    if (slot < 0 || slot >= reg_slots)
        return -1;
    free(reg_path[slot]);
    reg_path[slot] = strdup(path);
    return reg_path[slot] ? 0 : -1;
}

const char *files_path(int slot)
{
    return reg_path[slot];
}

void files_add(int slot)
{
    reg_created[slot] = 1;
}

void files_forget(int slot)
{
    reg_created[slot] = 0;
}

bool files_contains(int slot)
{
    return reg_created[slot] != 0;
}

void files_remove(int slot, bool do_unlink)
{
    if (!reg_created[slot] || reg_keep)
        return;
    if (do_unlink)
        unlink(reg_path[slot]);
    reg_created[slot] = 0;
}

void files_remove_all(bool do_unlink)
{
    for (int i = 0; i < reg_slots; i++)
        files_remove(i, do_unlink);
}

void files_release(void)
{
    if (reg_installed) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGXFSZ, &old_xfsz, NULL);
        reg_installed = false;
    }
    for (int i = 0; i < reg_slots; i++)
        free(reg_path[i]);
    free(reg_path);
    free((void *)reg_created);
    reg_path = NULL;
    reg_created = NULL;
    reg_slots = 0;
}
