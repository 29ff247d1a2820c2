#ifndef MLIB_TAG_WRITER_H
#define MLIB_TAG_WRITER_H
// Tag writing through TagLib 1.13's C++ API, without TagLib ever touching the file.
//
// TagLib edits a file in place through its IOStream. Here it edits an overlay instead: reads come from
// the caller's read-only descriptor, writes are kept in memory (a piece table: inserts and removals splice it,
// the file's bytes are read only when asked for). After `mlib_tw_save` the
// caller knows, before one byte of the file changed, what the edit is:
// - the same length: a list of patches (offset, new bytes), which the caller can journal and apply in place;
// - another length (the tag outgrew its padding, TagLib inserted or removed bytes): the whole new content,
//   which the caller writes to a new file and renames over the old one.
// One handle belongs to one thread.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mlib_tw_file mlib_tw_file;

// Opens `fd` (read-only, `size` bytes; the caller keeps and closes it) as `format` ("mpeg", "flac",
// "ogg-vorbis", "ogg-opus", "ogg-flac", "mp4", "wav", "aiff", "wavpack", "ape", "asf", or "ogg": whichever
// Ogg codec it is). NULL when TagLib cannot read it as that format.
mlib_tw_file *mlib_tw_open(int fd, long long size, const char *name, const char *format);
void mlib_tw_close(mlib_tw_file *file);

// The tag formats present when the file was opened ("ID3v2.3+ID3v1", "Xiph", "MP4", "RIFF INFO+ID3v2.4"…).
const char *mlib_tw_tag_format(const mlib_tw_file *file);

// The PropertyMap as it is now (after mlib_tw_apply, as TagLib holds it): one entry per value, in order.
int mlib_tw_property_count(mlib_tw_file *file);
const char *mlib_tw_property_key(const mlib_tw_file *file, int index);
const char *mlib_tw_property_value(const mlib_tw_file *file, int index);

// Builds the complete new PropertyMap (keys upper case; a key added several times has several values), then
// mlib_tw_apply hands it to TagLib's setProperties: keys not in it are removed, frames and atoms the map does
// not show (pictures, unknown frames, chapters, private data) stay. Returns how many keys TagLib could not
// store in this format; they are listed by mlib_tw_unsupported_key, never dropped silently.
void mlib_tw_begin(mlib_tw_file *file);
void mlib_tw_add(mlib_tw_file *file, const char *key, const char *value);
int mlib_tw_apply(mlib_tw_file *file);
const char *mlib_tw_unsupported_key(const mlib_tw_file *file, int index);

// Embedded pictures. add returns 0 when the format has no place for one.
int mlib_tw_picture_count(mlib_tw_file *file);
void mlib_tw_remove_pictures(mlib_tw_file *file);
int mlib_tw_add_picture(mlib_tw_file *file, const char *mime, int type, const unsigned char *data, size_t size);

// The rating in the tag mlib writes ratings to (mlib(1), TAGS, Ratings): the tag's key ("POPM", "FMPS_RATING",
// "rate", "WM/SharedUserRating"; "" when the file has no place for one mlib writes) and its value as the
// format stores it ("196", "0.8", "80"; "" when there is none).
const char *mlib_tw_rating_key(mlib_tw_file *file);
const char *mlib_tw_rating_value(mlib_tw_file *file);
// Writes `stars` (1-5) there: POPM (the frame with email "no@email", else the first, else a new one with
// "no@email"; its play counter kept) rating byte 1/64/128/196/255, FMPS_RATING stars/5, MP4 `rate` stars*20,
// ASF WM/SharedUserRating 1/25/50/75/99. 0 when the file has no place for it.
int mlib_tw_set_rating(mlib_tw_file *file, int stars);

// Renders the tags into the overlay, adding no tag type the file did not have (no ID3v1 on an MP3 that had
// none, no ID3v2 beside a WAV's RIFF INFO), keeping an MP3's ID3v2 version (2.3 stays 2.3). 1 on success.
int mlib_tw_save(mlib_tw_file *file);

// After mlib_tw_save: 1 when the new file has another length or moved bytes (use the content), 0 when it is
// patches.
int mlib_tw_changes_length(const mlib_tw_file *file);
// The whole new content, made on the first call (the file read then); size -1 when the file could not be read.
long long mlib_tw_content_size(mlib_tw_file *file);
const unsigned char *mlib_tw_content_data(mlib_tw_file *file);
// When the length changed: if the new content is a head of new bytes followed by the file's own bytes from
// offset `mlib_tw_head_replaces` on (shifted; overwritten only where the patches say, in the file's offsets),
// the head (typically a tag at the start that grew or shrank); mlib_tw_head_replaces is -1 otherwise. A
// caller that makes the head `head_replaces` bytes long again (padding) has an edit in place: the head's
// differences and the patches. Nothing of the file past the head is read to know it.
long long mlib_tw_head_replaces(const mlib_tw_file *file);
long long mlib_tw_head_size(const mlib_tw_file *file);
const unsigned char *mlib_tw_head_data(const mlib_tw_file *file);
// Patches: the byte ranges whose content differs, in order, not overlapping.
int mlib_tw_patch_count(mlib_tw_file *file);
long long mlib_tw_patch_offset(const mlib_tw_file *file, int index);
size_t mlib_tw_patch_length(const mlib_tw_file *file, int index);
const unsigned char *mlib_tw_patch_data(const mlib_tw_file *file, int index);

#ifdef __cplusplus
}
#endif
#endif
