// How `mlib scan` (and `mlib watch`) stop on SIGINT/SIGTERM: the first signal sets a flag that the scan polls
// between files (it then commits what it read and exits 130); a second one, or one that arrives once the
// work is done and the process is exiting, ends the process at once with status 130. A plain C handler,
// not a Dispatch signal source: it runs the moment the signal arrives, so no signal is lost between the
// last check and the exit, and it can be installed before `main`. For `scan`, a constructor installs it
// right after the shared libraries are loaded: Swift's handlers could only be installed tens of
// milliseconds after exec, and a signal in that window killed the process (status 143). Other commands
// keep the default action (Ctrl-C ends `ls` at once) unless they install it themselves.
#define _GNU_SOURCE
#include "mlib_early_signals.h"
#include <signal.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>

static volatile sig_atomic_t stop_requested = 0;
static volatile sig_atomic_t finishing = 0;
/// A pipe the handler writes a byte to, so a loop sleeping in poll(2) (`mlib watch`) wakes at once: poll
/// alone could miss a signal that arrives between its last check of the flag and the call.
static int wake_pipe[2] = {-1, -1};

static void say(const char *message) { ssize_t ignored = write(2, message, strlen(message)); (void)ignored; }

static void on_signal(int signo) {
    if (finishing) {
        say("mlib: interrupted; what was scanned so far is saved, run the scan again to finish\n");
        _exit(130);
    }
    if (stop_requested) {
        say("mlib: interrupted again; stopping now without finishing the current batch\n");
        _exit(130);
    }
    stop_requested = signo;
    if (wake_pipe[1] >= 0) { ssize_t ignored = write(wake_pipe[1], "", 1); (void)ignored; }
}

void mlib_install_stop_handler(void) {
    if (wake_pipe[0] < 0 && pipe2(wake_pipe, O_CLOEXEC | O_NONBLOCK) != 0) wake_pipe[0] = wake_pipe[1] = -1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, NULL);
    sigaction(SIGTERM, &action, NULL);
}

int mlib_stop_requested(void) { return stop_requested; }

int mlib_stop_wake_fd(void) { return wake_pipe[0]; }

int mlib_finishing(void) {
    finishing = 1;
    return stop_requested;
}

/// Whether the first argument (after the program name) is `command`, read from /proc/self/cmdline.
static int first_argument_is(const char *command) {
    char buffer[4096];
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    ssize_t n = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (n <= 0) return 0;
    buffer[n] = 0;
    size_t first = strlen(buffer) + 1;
    return first < (size_t)n && strcmp(buffer + first, command) == 0;
}

__attribute__((constructor)) static void install_for_scan(void) {
    if (first_argument_is("scan") || first_argument_is("watch")) mlib_install_stop_handler();
}

// How `mlib serve` and `mlib play` hear SIGINT/SIGTERM: a plain C handler that writes the signal's number to
// a pipe, whose read end the Swift side waits on (`TerminationSignals`). Not a Dispatch signal source: on
// Linux such a source reads a signalfd, which only sees a signal blocked in the thread it is delivered
// to, while the signal itself was set to SIG_IGN; a process-directed SIGTERM that the kernel gave to a
// thread not blocking it (the main thread, parked in dispatch_main) was discarded as ignored, and `mlib
// serve` never stopped (a test's `stop()` waited forever, twice). A handler runs in whichever thread
// receives the signal, so none is lost.
static int signal_pipe[2] = {-1, -1};

static void on_signal_to_pipe(int signo) {
    int saved = errno;
    unsigned char number = (unsigned char)signo;
    ssize_t ignored = write(signal_pipe[1], &number, 1);
    (void)ignored;
    errno = saved;
}

int mlib_signal_pipe_install(int signo) {
    if (signal_pipe[0] < 0 && pipe2(signal_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        signal_pipe[0] = signal_pipe[1] = -1;
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = on_signal_to_pipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(signo, &action, NULL) != 0) return -1;
    return signal_pipe[0];
}

void mlib_signal_pipe_remove(int signo) { signal(signo, SIG_DFL); }
