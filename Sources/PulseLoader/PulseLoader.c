// PulseAudio's client library, loaded on first use, as FFmpegLoader.c does for FFmpeg.
//
// libpulse-simple brings libpulse, libpulsecommon, dbus, X11, xcb, systemd, gcrypt, sndfile and its codecs:
// 23 shared libraries that every mlib process loaded and relocated before main (about 6 ms), although
// only `play` and `serve` with an audio output ever open a stream. So mlib does not link them: each function
// it calls is a hidden stub that loads the library once (dlopen) and forwards to it.
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <pulse/simple.h>
#include <pulse/error.h>
#include "PulseLoader.h"

#define SONAME "libpulse-simple.so.0"

static struct {
    pa_simple *(*pa_simple_new)(const char *, const char *, pa_stream_direction_t, const char *, const char *,
                                const pa_sample_spec *, const pa_channel_map *, const pa_buffer_attr *, int *);
    int (*pa_simple_write)(pa_simple *, const void *, size_t, int *);
    int (*pa_simple_drain)(pa_simple *, int *);
    int (*pa_simple_flush)(pa_simple *, int *);
    void (*pa_simple_free)(pa_simple *);
    const char *(*pa_strerror)(int);
} pulse;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char load_error[512];

static void load(void) {
    // libpulse-simple depends on libpulse, so pa_strerror is found through the same handle.
    void *library = dlopen(SONAME, RTLD_LAZY | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "cannot load PulseAudio: %s (install Debian's libpulse0)", dlerror());
        return;
    }
#define RESOLVE(name) \
    if (!(*(void **)&pulse.name = dlsym(library, #name)) && !load_error[0]) \
        snprintf(load_error, sizeof load_error, SONAME " has no " #name " (%s)", dlerror());
    RESOLVE(pa_simple_new) RESOLVE(pa_simple_write) RESOLVE(pa_simple_drain) RESOLVE(pa_simple_flush)
    RESOLVE(pa_simple_free) RESOLVE(pa_strerror)
}

const char *mlib_pulse_load_error(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

// Reached only if a caller skipped mlib_pulse_load_error(): a bug in mlib, not a condition to handle.
static void loaded(const char *name) {
    pthread_once(&once, load);
    if (!load_error[0]) return;
    fprintf(stderr, "mlib: internal error: %s called although PulseAudio did not load (%s)\n", name, load_error);
    abort();
}

#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN pa_simple *pa_simple_new(const char *server, const char *name, pa_stream_direction_t dir, const char *dev,
                                const char *stream_name, const pa_sample_spec *ss, const pa_channel_map *map,
                                const pa_buffer_attr *attr, int *error) {
    loaded("pa_simple_new");
    return pulse.pa_simple_new(server, name, dir, dev, stream_name, ss, map, attr, error);
}
HIDDEN int pa_simple_write(pa_simple *s, const void *data, size_t bytes, int *error) {
    loaded("pa_simple_write");
    return pulse.pa_simple_write(s, data, bytes, error);
}
HIDDEN int pa_simple_drain(pa_simple *s, int *error) { loaded("pa_simple_drain"); return pulse.pa_simple_drain(s, error); }
HIDDEN int pa_simple_flush(pa_simple *s, int *error) { loaded("pa_simple_flush"); return pulse.pa_simple_flush(s, error); }
HIDDEN void pa_simple_free(pa_simple *s) { loaded("pa_simple_free"); pulse.pa_simple_free(s); }
HIDDEN const char *pa_strerror(int error) { loaded("pa_strerror"); return pulse.pa_strerror(error); }
