#ifndef MLIB_FFMPEG_LOADER_H
#define MLIB_FFMPEG_LOADER_H
// This target defines the FFmpeg functions mlib calls (declared by FFmpeg's own headers, through the
// CFFmpeg module) as stubs that load FFmpeg on first use; see FFmpegLoader.c. It declares nothing itself.
#endif
