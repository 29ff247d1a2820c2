#ifndef MLIB_FFMPEG_LOADER_H
#define MLIB_FFMPEG_LOADER_H
/// 1 once FFmpeg's libraries are loaded (by the first FFmpeg call), 0 before.
int mlib_ffmpeg_is_loaded(void);
#endif
