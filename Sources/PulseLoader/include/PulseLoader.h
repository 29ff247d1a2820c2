#ifndef MLIB_PULSE_LOADER_H
#define MLIB_PULSE_LOADER_H
// This target defines the PulseAudio functions mlib calls (declared by PulseAudio's own headers, through
// the CPulse module) as stubs that load libpulse-simple on first use; see PulseLoader.c.

/// Loads PulseAudio's client library if not done yet; NULL when it is usable, else why not (one line).
/// Call it before any pa_ function and turn a failure into an error of your own.
const char *mlib_pulse_load_error(void);
#endif
