// Chromaprint, loaded on first use.
//
// libchromaprint links libavcodec for its FFT, and with it the ~160 shared libraries FFmpegLoader exists to
// keep out of every mlib process's start (~40 ms). So, like FFmpeg, it is not linked: each function mlib
// calls is a hidden stub that dlopens the library once (by the soname of the headers) and forwards.
// Adding a Chromaprint call: add it to the list below.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <chromaprint.h>
#include "ChromaprintLoader.h"

#define SONAME "libchromaprint.so.1"

#define MLIB_CHROMAPRINT_FUNCTIONS(X, V) \
    X(ChromaprintContext *, chromaprint_new, (int algorithm), (algorithm)) \
    V(chromaprint_free, (ChromaprintContext *ctx), (ctx)) \
    X(int, chromaprint_start, (ChromaprintContext *ctx, int sample_rate, int num_channels), (ctx, sample_rate, num_channels)) \
    X(int, chromaprint_feed, (ChromaprintContext *ctx, const int16_t *data, int size), (ctx, data, size)) \
    X(int, chromaprint_finish, (ChromaprintContext *ctx), (ctx)) \
    X(int, chromaprint_get_raw_fingerprint, (ChromaprintContext *ctx, uint32_t **fingerprint, int *size), (ctx, fingerprint, size)) \
    X(int, chromaprint_get_sample_rate, (ChromaprintContext *ctx), (ctx)) \
    X(int, chromaprint_encode_fingerprint, (const uint32_t *fp, int size, int algorithm, char **encoded_fp, int *encoded_size, int base64), \
      (fp, size, algorithm, encoded_fp, encoded_size, base64)) \
    V(chromaprint_dealloc, (void *ptr), (ptr))

#define POINTER(type, name, params, args) type (*name) params;
#define VOID_POINTER(name, params, args) void (*name) params;
static struct { MLIB_CHROMAPRINT_FUNCTIONS(POINTER, VOID_POINTER) } chromaprint;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load(void) {
    void *library = dlopen(SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load Chromaprint: %s (install Debian's libchromaprint1)", dlerror());
        return;
    }
#define LOAD(type, name, params, args) \
    if (!(*(void **)&chromaprint.name = dlsym(library, #name)) && !load_error[0]) \
        snprintf(load_error, sizeof load_error, "%s has no %s", SONAME, #name);
#define VOID_LOAD(name, params, args) LOAD(void, name, params, args)
    MLIB_CHROMAPRINT_FUNCTIONS(LOAD, VOID_LOAD)
}

const char *mlib_chromaprint_load_error(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

// Reached only if a caller skipped mlib_chromaprint_load_error(): a bug in mlib, not a condition to handle.
static void unloaded(const char *name) {
    fprintf(stderr, "mlib: internal error: %s called although Chromaprint did not load (%s)\n", name, load_error);
    abort();
}

// chromaprint.h declares its functions with default visibility, so the stubs cannot be hidden as
// FFmpegLoader's are. Harmless: should the library's own calls reach a stub, it forwards to the library.
#define STUB(type, name, params, args) \
    type name params { pthread_once(&once, load); if (load_error[0]) unloaded(#name); return chromaprint.name args; }
#define VOID_STUB(name, params, args) \
    void name params { pthread_once(&once, load); if (load_error[0]) unloaded(#name); chromaprint.name args; }
MLIB_CHROMAPRINT_FUNCTIONS(STUB, VOID_STUB)
