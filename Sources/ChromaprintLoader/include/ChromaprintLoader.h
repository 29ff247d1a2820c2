#ifndef MLIB_CHROMAPRINT_LOADER_H
#define MLIB_CHROMAPRINT_LOADER_H
// This target defines the Chromaprint functions mlib calls (declared by chromaprint.h, through the
// CChromaprint module) as stubs that load libchromaprint on first use; see ChromaprintLoader.c.

/// Loads libchromaprint if not done yet; NULL when it is usable, else why not (one line). Call it before
/// any Chromaprint function and turn a failure into an error of your own.
const char *mlib_chromaprint_load_error(void);
#endif
