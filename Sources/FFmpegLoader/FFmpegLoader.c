// FFmpeg, loaded on first use.
//
// Debian's libavformat and libavcodec pull in about 160 shared libraries (codecs, TLS, X11, ...). Linking
// them made every mlib process spend ~40 ms in the loader and their initialisers before main, which was
// most of an unchanged rescan and of `mlib ls`, neither of which touches FFmpeg. So mlib does not link
// FFmpeg: each function it calls is defined here as a stub that loads the libraries once (dlopen, by the
// soname of the headers it was built with) and forwards to the real function.
//
// The stubs are hidden so they never interpose on the calls FFmpeg's libraries make to one another.
// Adding an FFmpeg call elsewhere in mlib: add it to the list below (the linker names any that is missing,
// and the compiler checks each signature against the headers).
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
#include "FFmpegLoader.h"

#define SONAME(lib, major) "lib" #lib ".so." AV_STRINGIFY(major)

enum { UTIL, RESAMPLE, SCALE, CODEC, FORMAT, LIBRARY_COUNT };
static const char *const sonames[LIBRARY_COUNT] = {
    SONAME(avutil, LIBAVUTIL_VERSION_MAJOR), SONAME(swresample, LIBSWRESAMPLE_VERSION_MAJOR), SONAME(swscale, LIBSWSCALE_VERSION_MAJOR),
    SONAME(avcodec, LIBAVCODEC_VERSION_MAJOR), SONAME(avformat, LIBAVFORMAT_VERSION_MAJOR),
};

// X(library, return type, name, parameters, arguments) for functions that return a value; V(...) for void.
#define MLIB_FFMPEG_FUNCTIONS(X, V) \
    X(UTIL, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    V(UTIL, av_log_set_level, (int level), (level)) \
    X(UTIL, int, av_opt_set_int, (void *obj, const char *name, int64_t val, int search_flags), (obj, name, val, search_flags)) \
    X(UTIL, int, av_opt_set_double, (void *obj, const char *name, double val, int search_flags), (obj, name, val, search_flags)) \
    X(UTIL, AVDictionaryEntry *, av_dict_get, (const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags), (m, key, prev, flags)) \
    X(UTIL, AVFrame *, av_frame_alloc, (void), ()) \
    X(UTIL, void *, av_malloc, (size_t size), (size)) \
    V(UTIL, av_freep, (void *ptr), (ptr)) \
    V(UTIL, av_frame_free, (AVFrame **frame), (frame)) \
    V(UTIL, av_frame_unref, (AVFrame *frame), (frame)) \
    X(UTIL, const char *, av_get_sample_fmt_name, (enum AVSampleFormat sample_fmt), (sample_fmt)) \
    X(UTIL, const char *, av_get_pix_fmt_name, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    V(UTIL, av_channel_layout_default, (AVChannelLayout *ch_layout, int nb_channels), (ch_layout, nb_channels)) \
    V(UTIL, av_channel_layout_uninit, (AVChannelLayout *channel_layout), (channel_layout)) \
    X(UTIL, int, av_channel_layout_copy, (AVChannelLayout *dst, const AVChannelLayout *src), (dst, src)) \
    X(UTIL, int, av_channel_layout_compare, (const AVChannelLayout *chl, const AVChannelLayout *chl1), (chl, chl1)) \
    X(UTIL, int, av_channel_layout_describe, (const AVChannelLayout *channel_layout, char *buf, size_t buf_size), (channel_layout, buf, buf_size)) \
    X(RESAMPLE, int, swr_alloc_set_opts2, (struct SwrContext **ps, AVChannelLayout *out_ch_layout, enum AVSampleFormat out_sample_fmt, int out_sample_rate, AVChannelLayout *in_ch_layout, enum AVSampleFormat in_sample_fmt, int in_sample_rate, int log_offset, void *log_ctx), (ps, out_ch_layout, out_sample_fmt, out_sample_rate, in_ch_layout, in_sample_fmt, in_sample_rate, log_offset, log_ctx)) \
    X(RESAMPLE, int, swr_init, (struct SwrContext *s), (s)) \
    V(RESAMPLE, swr_free, (struct SwrContext **s), (s)) \
    X(RESAMPLE, int, swr_convert, (struct SwrContext *s, uint8_t **out, int out_count, const uint8_t **in, int in_count), (s, out, out_count, in, in_count)) \
    X(RESAMPLE, int, swr_get_out_samples, (struct SwrContext *s, int in_samples), (s, in_samples)) \
    X(CODEC, AVPacket *, av_packet_alloc, (void), ()) \
    V(CODEC, av_packet_free, (AVPacket **pkt), (pkt)) \
    V(CODEC, av_packet_unref, (AVPacket *pkt), (pkt)) \
    X(CODEC, const char *, avcodec_get_name, (enum AVCodecID id), (id)) \
    X(CODEC, const char *, avcodec_profile_name, (enum AVCodecID codec_id, int profile), (codec_id, profile)) \
    X(CODEC, const AVCodecDescriptor *, avcodec_descriptor_get, (enum AVCodecID id), (id)) \
    X(CODEC, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    V(CODEC, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    X(CODEC, int, avcodec_parameters_to_context, (AVCodecContext *codec, const AVCodecParameters *par), (codec, par)) \
    X(CODEC, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    X(CODEC, int, avcodec_send_packet, (AVCodecContext *avctx, const AVPacket *avpkt), (avctx, avpkt)) \
    X(CODEC, int, avcodec_receive_frame, (AVCodecContext *avctx, AVFrame *frame), (avctx, frame)) \
    V(CODEC, avcodec_flush_buffers, (AVCodecContext *avctx), (avctx)) \
    X(FORMAT, AVFormatContext *, avformat_alloc_context, (void), ()) \
    X(FORMAT, AVIOContext *, avio_alloc_context, (unsigned char *buffer, int buffer_size, int write_flag, void *opaque, int (*read_packet)(void *opaque, uint8_t *buf, int buf_size), int (*write_packet)(void *opaque, uint8_t *buf, int buf_size), int64_t (*seek)(void *opaque, int64_t offset, int whence)), (buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek)) \
    V(FORMAT, avio_context_free, (AVIOContext **s), (s)) \
    V(FORMAT, avformat_free_context, (AVFormatContext *s), (s)) \
    X(FORMAT, const AVInputFormat *, av_find_input_format, (const char *short_name), (short_name)) \
    X(FORMAT, int, avformat_open_input, (AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options), (ps, url, fmt, options)) \
    V(FORMAT, avformat_close_input, (AVFormatContext **s), (s)) \
    X(FORMAT, int, avformat_find_stream_info, (AVFormatContext *ic, AVDictionary **options), (ic, options)) \
    X(FORMAT, int, avformat_index_get_entries_count, (const AVStream *st), (st)) \
    X(FORMAT, int, av_find_best_stream, (AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream, const AVCodec **decoder_ret, int flags), (ic, type, wanted_stream_nb, related_stream, decoder_ret, flags)) \
    X(FORMAT, int, av_read_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    X(FORMAT, int, av_seek_frame, (AVFormatContext *s, int stream_index, int64_t timestamp, int flags), (s, stream_index, timestamp, flags)) \
    X(UTIL, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    X(UTIL, int, av_frame_make_writable, (AVFrame *frame), (frame)) \
    X(UTIL, int, av_opt_set, (void *obj, const char *name, const char *val, int search_flags), (obj, name, val, search_flags)) \
    X(CODEC, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    X(CODEC, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    X(CODEC, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    X(CODEC, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec), (par, codec)) \
    V(CODEC, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    X(FORMAT, int, avformat_alloc_output_context2, (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), (ctx, oformat, format_name, filename)) \
    X(FORMAT, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    X(FORMAT, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    X(FORMAT, int, av_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    X(FORMAT, int, av_write_trailer, (AVFormatContext *s), (s)) \
    V(FORMAT, avio_flush, (AVIOContext *s), (s)) \
    X(UTIL, const AVPixFmtDescriptor *, av_pix_fmt_desc_get, (enum AVPixelFormat pix_fmt), (pix_fmt)) \
    X(SCALE, struct SwsContext *, sws_getContext, (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    X(SCALE, int, sws_scale_frame, (struct SwsContext *c, AVFrame *dst, const AVFrame *src), (c, dst, src)) \
    V(SCALE, sws_freeContext, (struct SwsContext *swsContext), (swsContext)) \
    X(CODEC, const AVCodec *, avcodec_find_decoder, (enum AVCodecID id), (id)) \
    X(CODEC, int, av_new_packet, (AVPacket *pkt, int size), (pkt, size)) \
    X(FORMAT, int, avformat_seek_file, (AVFormatContext *s, int stream_index, int64_t min_ts, int64_t ts, int64_t max_ts, int flags), (s, stream_index, min_ts, ts, max_ts, flags))

#define POINTER(lib, type, name, params, args) type (*name) params;
#define VOID_POINTER(lib, name, params, args) void (*name) params;
static struct { MLIB_FFMPEG_FUNCTIONS(POINTER, VOID_POINTER) } ffmpeg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
// Why FFmpeg could not be loaded, or empty. Never exit() here: the caller (a probe running on a worker
// thread, the player) turns it into its own typed error, and main maps that to an exit status.
static char load_error[512];

static void *resolve(void *library, const char *soname, const char *name) {
    void *symbol = dlsym(library, name);
    if (!symbol && !load_error[0]) {
        snprintf(load_error, sizeof load_error, "%s has no %s (%s); mlib was built against other FFmpeg headers",
                 soname, name, dlerror());
    }
    return symbol;
}

static void load(void) {
    void *libraries[LIBRARY_COUNT];
    for (int i = 0; i < LIBRARY_COUNT; i++) {
        // Lazy binding: the libraries' own calls into their ~160 dependencies are resolved when first made
        // (3-4 ms less per process; the functions mlib calls are looked up below either way).
        libraries[i] = dlopen(sonames[i], RTLD_LAZY | RTLD_LOCAL);
        if (!libraries[i]) {
            snprintf(load_error, sizeof load_error,
                     "cannot load FFmpeg: %s (install Debian's libavformat59, libavcodec59, libswresample4, libswscale6)", dlerror());
            return;
        }
    }
#define LOAD(lib, type, name, params, args) *(void **)&ffmpeg.name = resolve(libraries[lib], sonames[lib], #name);
#define VOID_LOAD(lib, name, params, args) *(void **)&ffmpeg.name = resolve(libraries[lib], sonames[lib], #name);
    MLIB_FFMPEG_FUNCTIONS(LOAD, VOID_LOAD)
}

const char *mlib_ffmpeg_load_error(void) {
    pthread_once(&once, load);
    return load_error[0] ? load_error : NULL;
}

// Reached only if a caller skipped mlib_ffmpeg_load_error(): a bug in mlib, not a condition to handle.
static void unloaded(const char *name) {
    fprintf(stderr, "mlib: internal error: %s called although FFmpeg did not load (%s)\n", name, load_error);
    abort();
}

#define STUB(lib, type, name, params, args) \
    __attribute__((visibility("hidden"))) type name params { pthread_once(&once, load); if (load_error[0]) unloaded(#name); return ffmpeg.name args; }
#define VOID_STUB(lib, name, params, args) \
    __attribute__((visibility("hidden"))) void name params { pthread_once(&once, load); if (load_error[0]) unloaded(#name); ffmpeg.name args; }
MLIB_FFMPEG_FUNCTIONS(STUB, VOID_STUB)
