/* Created-files registry and the interrupt handler (files.h). The registry is
 * file-static because a signal handler can reach nothing else; the handler
 * only calls unlink() on paths copied beforehand and _exit(). The registry is
 * changed with the two signals blocked, so the handler never sees it torn. */
#include "engine/files.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exit_status.h"

/* The only mutable globals of h5perf, shared with the signal handler. */
static char **reg_path;
static volatile sig_atomic_t *reg_active;
static int reg_cap, reg_used;
static volatile sig_atomic_t reg_keep;
static bool reg_installed;
static struct sigaction old_int, old_term, old_xfsz;

static void files_on_signal(int sig)
{
    if (!reg_keep)
        for (int i = 0; i < reg_used; i++)
            if (reg_active[i])
                unlink(reg_path[i]);
    _exit(EXIT_SIGNAL_BASE + sig);
}

static void files_block(bool block, sigset_t *old)
{
    if (block) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGINT);
        sigaddset(&set, SIGTERM);
        sigprocmask(SIG_BLOCK, &set, old);
    } else {
        sigprocmask(SIG_SETMASK, old, NULL);
    }
}

void files_init(bool keep)
{
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
}

static int files_find(const char *path)
{
    for (int i = 0; i < reg_used; i++)
        if (strcmp(reg_path[i], path) == 0)
            return i;
    return -1;
}

/* Makes room for one more entry; called with the signals blocked. */
static int files_grow(void)
{
    int cap = reg_cap ? reg_cap * 2 : 16;
    char **p = malloc((size_t)cap * sizeof *p);
    volatile sig_atomic_t *a = calloc((size_t)cap, sizeof *a);
    if (!p || !a) {
        free(p);
        free((void *)a);
        return -1;
    }
    for (int i = 0; i < reg_used; i++) {
        p[i] = reg_path[i];
        a[i] = reg_active[i];
    }
    free(reg_path);
    free((void *)reg_active);
    reg_path = p;
    reg_active = a;
    reg_cap = cap;
    return 0;
}

int files_add(const char *path)
{
    int i = files_find(path), rc = 0;
    sigset_t old;
    files_block(true, &old);
    if (i < 0) {
        char *copy = strdup(path);
        if (!copy || (reg_used == reg_cap && files_grow() < 0)) {
            free(copy);
            rc = -1;
        } else {
            i = reg_used++;
            reg_path[i] = copy;
        }
    }
    if (i >= 0)
        reg_active[i] = 1;
    files_block(false, &old);
    return rc;
}

void files_forget(const char *path)
{
    int i = files_find(path);
    if (i >= 0)
        reg_active[i] = 0;
}

bool files_contains(const char *path)
{
    int i = files_find(path);
    return i >= 0 && reg_active[i];
}

void files_remove(const char *path, bool do_unlink)
{
    int i = files_find(path);
    if (i < 0 || !reg_active[i] || reg_keep)
        return;
    if (do_unlink)
        unlink(reg_path[i]);
    reg_active[i] = 0;
}

void files_remove_all(bool do_unlink)
{
    for (int i = 0; i < reg_used; i++)
        files_remove(reg_path[i], do_unlink);
}

void files_release(void)
{
    sigset_t old;
    files_block(true, &old);
    if (reg_installed) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
        sigaction(SIGXFSZ, &old_xfsz, NULL);
        reg_installed = false;
    }
    for (int i = 0; i < reg_used; i++)
        free(reg_path[i]);
    free(reg_path);
    free((void *)reg_active);
    reg_path = NULL;
    reg_active = NULL;
    reg_cap = reg_used = 0;
    files_block(false, &old);
}
