#ifndef MLIB_TAGLIB_H
#define MLIB_TAGLIB_H
// A small C interface over TagLib 1.13's C++ API. TagLib's own C API has no property map, no pictures
// and no WAV INFO tags; Swift's C++ interop refuses FileRef's accessors. Everything here is copied into
// the handle when it is opened, so the accessors are plain reads and the handle is independent of TagLib
// afterwards. One handle belongs to one thread; distinct handles may be used concurrently.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mlib_tl_file mlib_tl_file;

// Reads tags, audio properties and pictures from `fd`, a file of `size` bytes the caller opened read-only
// (and closes; it is only read here, with pread). `name` is the path, for TagLib's choice by extension
// when there is no hint. `head` and `tail` (either may be NULL) are the file's first `head_length` bytes
// and its last `tail_length` bytes, already read by the caller: TagLib reads them from memory.
// `format_hint` names the TagLib class to use (from content sniffing: "mpeg", "flac", "ogg-vorbis",
// "ogg-opus", "ogg-flac", "ogg-speex", "mp4", "wav", "aiff", "wavpack", "ape", "asf", "mpc", "tta"), or
// NULL to let TagLib choose (by extension, then content). Returns NULL when TagLib cannot read the file
// as that format.
mlib_tl_file *mlib_tl_open(int fd, long long size, const char *name, const char *format_hint,
                           int read_audio_properties, const unsigned char *head, size_t head_length,
                           const unsigned char *tail, size_t tail_length);
void mlib_tl_close(mlib_tl_file *file);
// The ID3v2 tag at `offset` of the file (DSF's metadata chunk, DSDIFF's "ID3 " chunk: formats TagLib has
// no class for), read as mlib_tl_open reads one; no audio properties. NULL when no tag starts there.
mlib_tl_file *mlib_tl_open_id3v2(int fd, long long size, const char *name, long long offset,
                                 const unsigned char *head, size_t head_length,
                                 const unsigned char *tail, size_t tail_length);


// Tag format(s) TagLib found, e.g. "ID3v2.4", "ID3v2.3+ID3v1", "Xiph", "MP4", "RIFF INFO", "APE"; "" if none.
const char *mlib_tl_tag_format(const mlib_tl_file *file);

// The unified PropertyMap: keys upper case (TITLE, ALBUMARTIST, DISCNUMBER "1/2", MUSICBRAINZ_ALBUMID,
// REPLAYGAIN_TRACK_GAIN, LYRICS…); a key with several values appears once per value, in order.
int mlib_tl_property_count(const mlib_tl_file *file);
const char *mlib_tl_property_key(const mlib_tl_file *file, int index);
const char *mlib_tl_property_value(const mlib_tl_file *file, int index);

// Audio properties; 0 when unknown. Bitrate in kbit/s.
int mlib_tl_has_audio_properties(const mlib_tl_file *file);
// 1 when TagLib refused a FLAC file and its metadata blocks were read by their structure (a block declared
// too short): the file is damaged, and FFmpeg may refuse it.
int mlib_tl_read_by_structure(const mlib_tl_file *file);
int mlib_tl_length_ms(const mlib_tl_file *file);
int mlib_tl_bitrate(const mlib_tl_file *file);
int mlib_tl_sample_rate(const mlib_tl_file *file);
int mlib_tl_channels(const mlib_tl_file *file);
int mlib_tl_bits_per_sample(const mlib_tl_file *file);

// Embedded pictures (ID3v2 APIC, FLAC/Xiph METADATA_BLOCK_PICTURE, MP4 covr, APE cover art, ASF WM/Picture).
// Type follows ID3v2/FLAC numbering (3 = front cover, 0 = other).
int mlib_tl_picture_count(const mlib_tl_file *file);
const char *mlib_tl_picture_mime(const mlib_tl_file *file, int index);
int mlib_tl_picture_type(const mlib_tl_file *file, int index);
size_t mlib_tl_picture_size(const mlib_tl_file *file, int index);
const unsigned char *mlib_tl_picture_data(const mlib_tl_file *file, int index);

// Chapters from ID3v2 CHAP frames, by start time: start and end in milliseconds, the title ("" if none).
int mlib_tl_chapter_count(const mlib_tl_file *file);
unsigned mlib_tl_chapter_start_ms(const mlib_tl_file *file, int index);
unsigned mlib_tl_chapter_end_ms(const mlib_tl_file *file, int index);
const char *mlib_tl_chapter_title(const mlib_tl_file *file, int index);

// ID3v2 lyrics frames, in tag order: USLT (synced 0: the text) and SYLT (synced 1: lines with times in the
// frame's time format, 1 = MPEG frames, 2 = milliseconds). Language is the frame's three-letter code as
// written ("" if none); description "" if none.
int mlib_tl_lyrics_count(const mlib_tl_file *file);
int mlib_tl_lyrics_synced(const mlib_tl_file *file, int index);
const char *mlib_tl_lyrics_language(const mlib_tl_file *file, int index);
const char *mlib_tl_lyrics_description(const mlib_tl_file *file, int index);
const char *mlib_tl_lyrics_text(const mlib_tl_file *file, int index);
int mlib_tl_lyrics_time_format(const mlib_tl_file *file, int index);
int mlib_tl_lyrics_line_count(const mlib_tl_file *file, int index);
unsigned mlib_tl_lyrics_line_time(const mlib_tl_file *file, int index, int line);
const char *mlib_tl_lyrics_line_text(const mlib_tl_file *file, int index, int line);

#ifdef __cplusplus
}
#endif
#endif
