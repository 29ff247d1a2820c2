#ifndef MLIB_EARLY_SIGNALS_H
#define MLIB_EARLY_SIGNALS_H

/// Installs the stop handler for SIGINT and SIGTERM (idempotent; `mlib scan` has it from before `main`).
void mlib_install_stop_handler(void);

/// The number of the signal once SIGINT or SIGTERM arrived (the first one), 0 before.
int mlib_stop_requested(void);

/// A descriptor that becomes readable when SIGINT or SIGTERM arrives (for poll(2)); -1 before the handler
/// is installed.
int mlib_stop_wake_fd(void);

/// Called once the command's work is done, just before the process exits: returns non-zero if a signal
/// arrived (exit 130 then); from now on a signal ends the process at once with status 130.
int mlib_finishing(void);

/// Installs a handler for `signo` that writes its number (one byte) to a non-blocking pipe, and returns the
/// pipe's read end (the same for every signal; -1 on failure). For `mlib serve` and `mlib play`.
int mlib_signal_pipe_install(int signo);

/// Gives `signo` back its default action.
void mlib_signal_pipe_remove(int signo);

#endif
