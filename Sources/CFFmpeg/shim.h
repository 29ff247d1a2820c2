#ifndef MLIB_CFFMPEG_SHIM_H
#define MLIB_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/samplefmt.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

// Swift cannot import these macros (casts, compound literals, MKTAG): expose them as functions.
static inline int mlib_averror(int e) { return AVERROR(e); }
static inline int mlib_averror_eof(void) { return AVERROR_EOF; }
static inline int mlib_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
static inline int mlib_averror_eagain(void) { return AVERROR(EAGAIN); }
static inline int mlib_averror_exit(void) { return AVERROR_EXIT; }
static inline int64_t mlib_nopts_value(void) { return AV_NOPTS_VALUE; }
static inline AVRational mlib_time_base_q(void) { return AV_TIME_BASE_Q; }
static inline int mlib_version_avformat(void) { return LIBAVFORMAT_VERSION_INT; }
static inline int mlib_avseek_size(void) { return AVSEEK_SIZE; }
static inline int mlib_qp2lambda(void) { return FF_QP2LAMBDA; }
static inline int mlib_input_buffer_padding(void) { return AV_INPUT_BUFFER_PADDING_SIZE; }
#endif
