#ifndef MLIB_EARLY_SIGNALS_H
#define MLIB_EARLY_SIGNALS_H

/// Installs the stop handler for SIGINT and SIGTERM (idempotent; `mlib scan` has it from before `main`).
void mlib_install_stop_handler(void);

/// Non-zero once SIGINT or SIGTERM arrived.
int mlib_stop_requested(void);

/// Called once the command's work is done, just before the process exits: returns non-zero if a signal
/// arrived (exit 130 then); from now on a signal ends the process at once with status 130.
int mlib_finishing(void);

#endif
