// `mlib scan` stops cleanly on SIGINT/SIGTERM (exit 130, the index consistent), but its Swift handlers can
// only be installed once `main` runs, tens of milliseconds after exec while the runtime and its libraries
// load; a signal in that window killed the process (status 143) instead. This constructor runs before
// `main`, right after the shared libraries are loaded, and for `scan` only (other commands keep the default
// action: Ctrl-C ends `ls` at once) it records the signal in a flag that the scan reads when it starts.
#include "mlib_early_signals.h"
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

static volatile sig_atomic_t early_stop = 0;

static void record(int signo) { (void)signo; early_stop = 1; }

int mlib_early_stop_requested(void) { return early_stop; }

/// Whether the first argument (after the program name) is "scan", read from /proc/self/cmdline.
static int is_scan(void) {
    char buffer[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0) return 0;
    buffer[n] = 0;
    size_t first = strlen(buffer) + 1;
    return first < (size_t)n && strcmp(buffer + first, "scan") == 0;
}

__attribute__((constructor)) static void install(void) {
    if (!is_scan()) return;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = record;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}
