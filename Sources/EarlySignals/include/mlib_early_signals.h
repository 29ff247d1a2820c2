#ifndef MLIB_EARLY_SIGNALS_H
#define MLIB_EARLY_SIGNALS_H

/// Non-zero once SIGINT or SIGTERM arrived before the command installed its own handling (see the .c file).
int mlib_early_stop_requested(void);

#endif
