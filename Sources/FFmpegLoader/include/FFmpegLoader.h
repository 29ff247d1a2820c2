#ifndef MLIB_FFMPEG_LOADER_H
#define MLIB_FFMPEG_LOADER_H
// This target defines the FFmpeg functions mlib calls (declared by FFmpeg's own headers, through the
// CFFmpeg module) as stubs that load FFmpeg on first use; see FFmpegLoader.c.

/// Loads FFmpeg if not done yet; NULL when it is usable, else why not (one line). Call it before any
/// FFmpeg function and turn a failure into an error of your own: the stubs cannot return one.
const char *mlib_ffmpeg_load_error(void);
#endif
