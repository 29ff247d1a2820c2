#include "mlib_taglib.h"

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/apetag.h>
#include <taglib/asffile.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/chapterframe.h>
#include <taglib/fileref.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/flacproperties.h>
#include <taglib/id3v1tag.h>
#include <taglib/id3v2extendedheader.h>
#include <taglib/id3v2framefactory.h>
#include <taglib/id3v2header.h>
#include <taglib/id3v2synchdata.h>
#include <taglib/id3v2tag.h>
#include <taglib/infotag.h>
#include <taglib/mp4atom.h>
#include <taglib/mp4file.h>
#include <taglib/mpcfile.h>
#include <taglib/mpegfile.h>
#include <taglib/oggflacfile.h>
#include <taglib/opusfile.h>
#include <taglib/popularimeterframe.h>
#include <taglib/speexfile.h>
#include <taglib/synchronizedlyricsframe.h>
#include <taglib/trueaudiofile.h>
#include <taglib/unsynchronizedlyricsframe.h>
#include <taglib/tiostream.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>
#include <taglib/xiphcomment.h>

using namespace TagLib;

struct Picture {
    std::string mime;
    int type;
    std::vector<unsigned char> data;
};

struct Chapter {
    unsigned startMs, endMs;
    std::string title;
};

// An ID3v2 USLT (unsynced: `text`) or SYLT (synced: `times`/`lines`) frame, as the frame says it.
struct LyricsFrame {
    bool synced = false;
    std::string language, description, text;
    int timeFormat = 0;   // SYLT: 1 = MPEG frames, 2 = milliseconds
    std::vector<unsigned> times;
    std::vector<std::string> lines;
};

struct mlib_tl_file {
    std::string tagFormat;
    std::vector<std::pair<std::string, std::string>> properties;
    bool hasAudio = false;
    bool readByStructure = false;   // FLAC blocks read by their structure: TagLib refused the file
    int lengthMs = 0, bitrate = 0, sampleRate = 0, channels = 0, bitsPerSample = 0;
    std::vector<Picture> pictures;
    std::vector<Chapter> chapters;
    std::vector<LyricsFrame> lyrics;
};

namespace {

// A read-only stream over the caller's file descriptor, for every file mlib reads with TagLib.
//
// TagLib's FileStream opens a file read-write whenever it may, so each close raised inotify's
// IN_CLOSE_WRITE, telling watchers such as MPD that the file had changed. It also asks the kernel for its
// position on every seek and tell and for the size on every length() (about 30 system calls for a small
// MP3). This stream reads a descriptor the caller opened read-only, keeps the position itself, and serves
// reads from two windows: at first the file's head and tail, which the caller has already read (for most
// music files TagLib then needs no system call at all), later whatever it read last.
class ReadOnlyStream : public IOStream {
public:
    ReadOnlyStream(int fd, long length, const char *name, const unsigned char *head, size_t headLength,
                   const unsigned char *tail, size_t tailLength)
        : name_(name ? name : ""), fd_(fd), length_(length) {
        // Borrowed, not copied (128 KiB per file): the caller's buffers outlive this stream (mlib_tl_open).
        if (head && headLength) windows_[0].borrow(0, reinterpret_cast<const char *>(head), headLength);
        if (tail && tailLength) windows_[1].borrow(length - static_cast<long>(tailLength), reinterpret_cast<const char *>(tail), tailLength);
    }

    // TagLib's readers search byte by byte for what they expect, to the end of the file if need be: for
    // two consistent MPEG frame headers, 200 MB of random bytes named .mp3 took 4.7 s. Past this many
    // bytes read in small blocks, reads end as at end of file. Reading a real file's tags and headers takes
    // far less (a picture comes in one large block, which does not count; an Ogg comment holding a
    // base64 cover comes page by page, which does).
    void setScanBudget(unsigned long bytes) { scanBudget_ = bytes; }

    FileName name() const override { return name_.c_str(); }
    bool readOnly() const override { return true; }
    bool isOpen() const override { return fd_ >= 0; }
    long tell() const override { return position_; }
    long length() override { return length_; }

    void seek(long offset, Position from = Beginning) override {
        long base = from == Beginning ? 0 : from == Current ? position_ : length_;
        if (base + offset >= 0) position_ = base + offset;   // as fseek: a negative position is refused
    }

    ByteVector readBlock(unsigned long length) override {
        if (fd_ < 0 || length == 0 || position_ >= length_) return ByteVector();
        unsigned long count = std::min<unsigned long>(length, static_cast<unsigned long>(length_ - position_));
        if (count > kWindow) {                        // a large block (cover art): read it straight in
            ByteVector out(static_cast<unsigned int>(count), 0);
            size_t got = readAt(out.data(), count, position_);
            out.resize(static_cast<unsigned int>(got));
            position_ += static_cast<long>(got);
            return out;
        }
        if (scanned_ >= scanBudget_) return ByteVector();   // as at end of file: TagLib gives up
        scanned_ += count;
        const Window &w = window(position_, count);
        long offset = position_ - w.start;
        size_t got = std::min<size_t>(count, w.size - static_cast<size_t>(offset));
        position_ += static_cast<long>(got);
        return ByteVector(w.data + offset, static_cast<unsigned int>(got));
    }

    // Reading only: TagLib never writes through this stream (mlib does not save tags).
    void writeBlock(const ByteVector &) override {}
    void insert(const ByteVector &, unsigned long, unsigned long) override {}
    void removeBlock(unsigned long, unsigned long) override {}
    void truncate(long) override {}

private:
    static constexpr unsigned long kWindow = 64 * 1024;
    unsigned long scanBudget_ = 32UL << 20;
    unsigned long scanned_ = 0;
    // A window's bytes: the caller's (borrowed) or read here into `owned`.
    struct Window {
        long start = -1;
        const char *data = nullptr;
        size_t size = 0;
        std::vector<char> owned;
        void borrow(long at, const char *bytes, size_t count) { start = at; data = bytes; size = count; }
        bool holds(long from, unsigned long count) const {
            return start >= 0 && from >= start && from + static_cast<long>(count) <= start + static_cast<long>(size);
        }
    };

    // The window holding [from, from + count), reading one (page-aligned, kWindow long) in place of the
    // one used less recently when neither holds it. A window that ends at end of file holds all there is.
    const Window &window(long from, unsigned long count) {
        for (int i = 0; i < 2; i++) {
            Window &w = windows_[i];
            bool toEnd = w.start >= 0 && w.start + static_cast<long>(w.size) == length_ && from >= w.start;
            if (w.holds(from, count) || toEnd) { recent_ = i; return w; }
        }
        recent_ = 1 - recent_;
        Window &w = windows_[recent_];
        w.start = from & ~4095L;
        size_t size = std::max<size_t>(kWindow, static_cast<size_t>(from - w.start) + count);
        size = std::min<size_t>(size, static_cast<size_t>(length_ - w.start));
        w.owned.resize(size);
        w.owned.resize(readAt(w.owned.data(), size, w.start));
        w.data = w.owned.data();
        w.size = w.owned.size();
        return w;
    }

    size_t readAt(char *into, size_t count, long at) const {
        size_t done = 0;
        while (done < count) {
            ssize_t n = ::pread(fd_, into + done, count - done, at + static_cast<long>(done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;                        // end of file or an I/O error: a short read
            done += static_cast<size_t>(n);
        }
        return done;
    }

    std::string name_;
    int fd_ = -1;
    long length_ = 0;
    long position_ = 0;
    Window windows_[2];
    int recent_ = 0;
};

std::unique_ptr<File> openAs(ReadOnlyStream *stream, const std::string &hint, bool audio) {
    auto style = AudioProperties::Average;
    auto *id3 = ID3v2::FrameFactory::instance();
    // The caller gives MPEG only files with a frame header within 64 KiB of the tags
    // (FormatSniffer.tagLibCanOpen); the last frame is near the end.
    if (hint == "mpeg") stream->setScanBudget(2UL << 20);
    if (hint == "mpeg") return std::make_unique<MPEG::File>(stream, id3, audio, style);
    if (hint == "flac") return std::make_unique<FLAC::File>(stream, id3, audio, style);
    if (hint == "ogg-vorbis") return std::make_unique<Ogg::Vorbis::File>(stream, audio, style);
    if (hint == "ogg-opus") return std::make_unique<Ogg::Opus::File>(stream, audio, style);
    if (hint == "ogg-flac") return std::make_unique<Ogg::FLAC::File>(stream, audio, style);
    if (hint == "ogg-speex") return std::make_unique<Ogg::Speex::File>(stream, audio, style);
    if (hint == "mp4") return std::make_unique<MP4::File>(stream, audio, style);
    if (hint == "wav") return std::make_unique<RIFF::WAV::File>(stream, audio, style);
    if (hint == "aiff") return std::make_unique<RIFF::AIFF::File>(stream, audio, style);
    if (hint == "wavpack") return std::make_unique<WavPack::File>(stream, audio, style);
    if (hint == "ape") return std::make_unique<APE::File>(stream, audio, style);
    if (hint == "asf") return std::make_unique<ASF::File>(stream, audio, style);
    if (hint == "mpc") return std::make_unique<MPC::File>(stream, audio, style);
    if (hint == "tta") return std::make_unique<TrueAudio::File>(stream, id3, audio, style);
    return nullptr;
}

// --- ID3v2: one bad frame must not cost the frames after it ---------------------------------------------
//
// TagLib 1.13's ID3v2 parser stops at the first frame it cannot take (an empty frame, a frame ID that is not
// four capitals or digits, a size that runs past the tag) and drops every frame after it: one malformed
// POPM frame in front of the title, artist and album lost all three (mutagen skips the frame and keeps the
// rest). mlib walks the frame headers itself, cheaply, from the windows TagLib reads; where TagLib would
// stop, it walks on (an empty frame is skipped, a frame with a bad ID by its size when the next header is
// sound, else up to the next sound header) and gives each sound frame to TagLib's own frame parser.

bool isFrameIDByte(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// A frame ID as TagLib takes it: four capitals or digits, or (iTunes' v2.3 tags holding v2.2 frames) three
// and a NUL.
bool isFrameID(const ByteVector &h, unsigned at) {
    if (at + 4 > h.size()) return false;
    for (unsigned i = 0; i < 3; i++) if (!isFrameIDByte(h[at + i])) return false;
    return isFrameIDByte(h[at + 3]) || h[at + 3] == '\0';
}

// The frame's size as TagLib reads it (v2.4 sizes are synch-safe, but iTunes wrote plain ones: TagLib
// takes the plain size when only it lands on another frame ID). `data` holds the frame at `at` and what
// follows in the tag.
unsigned frameSize(const ByteVector &data, unsigned at, unsigned version) {
    if (version < 4) return data.toUInt(at + 4, true);
    unsigned size = ID3v2::SynchData::toUInt(data.mid(at + 4, 4));
    if (size > 127 && !isFrameID(data, at + 10 + size)) {
        unsigned plain = data.toUInt(at + 4, true);
        if (isFrameID(data, at + 10 + plain)) size = plain;
    }
    return size;
}

// Whether a frame header TagLib would accept starts at `at` of `data` (which ends where the frames end).
bool isSoundFrame(const ByteVector &data, unsigned at, unsigned version) {
    if (at + 10 > data.size() || !isFrameID(data, at)) return false;
    unsigned size = frameSize(data, at, version);
    bool lengthIndicator = version >= 4 && (data[at + 9] & 0x01);
    return size > (lengthIndicator ? 4u : 0u) && size <= data.size() - at - 10;
}

// The frames of the ID3v2 tag at `offset` of `file` that TagLib's parse dropped after a bad frame, added to
// `tag`. Costs a read of 10 bytes per frame header when the tag is sound (the usual case: nothing added).
void recoverID3v2Frames(File *file, ID3v2::Tag *tag, long offset) {
    const ID3v2::Header *header = tag->header();
    unsigned version = header->majorVersion();
    unsigned size = header->tagSize();
    if (version < 3 || version > 4 || size < 10 || size > (64u << 20)) return;
    auto read = [&](unsigned at, unsigned count) {
        file->seek(offset + 10 + static_cast<long>(at));
        return file->readBlock(count);
    };
    // A tag unsynchronised as a whole (v2.3) is decoded first; then the walk is in memory.
    bool whole = header->unsynchronisation() && version == 3;
    ByteVector tagData = whole ? ID3v2::SynchData::decode(read(0, size)) : ByteVector();
    unsigned end = whole ? tagData.size() : size;
    auto bytes = [&](unsigned at, unsigned count) { return whole ? tagData.mid(at, count) : read(at, count); };

    unsigned at = 0;
    if (header->extendedHeader()) {
        ID3v2::ExtendedHeader extended;
        extended.setData(bytes(0, std::min(end, 64u)));
        if (extended.size() > end) return;
        at = extended.size();
    }
    // Where TagLib stopped: the first frame header it refuses before the padding.
    for (;;) {
        if (at + 10 > end) return;                                  // the end: TagLib read every frame
        ByteVector h = bytes(at, 10);
        if (h.size() < 10 || h[0] == '\0') return;                  // padding
        unsigned size = version < 4 ? h.toUInt(4U, true) : 0;
        if (version >= 4) {
            // The iTunes size check looks past the frame: read what it needs, only when it needs it.
            size = ID3v2::SynchData::toUInt(h.mid(4, 4));
            if (size > 127) size = frameSize(bytes(at, std::min(end - at, std::max(size, h.toUInt(4U, true)) + 14)), 0, version);
        }
        bool lengthIndicator = version >= 4 && (h[9] & 0x01);
        if (!isFrameID(h, 0) || size <= (lengthIndicator ? 4u : 0u) || size > end - at - 10) break;
        at += 10 + size;
    }
    // From the bad frame on, in memory: the rest of the tag (rarely large: this is a damaged tag).
    ByteVector rest = whole ? tagData.mid(at) : read(at, end - at);
    const ID3v2::FrameFactory *factory = ID3v2::FrameFactory::instance();
    unsigned p = 0;
    while (p + 10 <= rest.size() && rest[p] != '\0') {
        if (isSoundFrame(rest, p, version)) {
            unsigned size = frameSize(rest, p, version);
            ID3v2::Frame *frame = factory->createFrame(rest.mid(p), header);
            if (frame && frame->size() > 0) tag->addFrame(frame); else delete frame;
            p += 10 + size;
            continue;
        }
        if (isFrameID(rest, p) && frameSize(rest, p, version) == 0) { p += 10; continue; }   // an empty frame
        // A bad ID with a size that lands on a sound frame (or the padding, or the end): skip it by its size.
        unsigned size = frameSize(rest, p, version);
        unsigned next = p + 10 + size;
        if (size <= rest.size() - p - 10 && (next == rest.size() || rest[next] == '\0' || isSoundFrame(rest, next, version))) {
            p = next;
            continue;
        }
        // Else the next sound frame header.
        do { p++; } while (p + 10 <= rest.size() && !isSoundFrame(rest, p, version));
    }
}

void addPicture(mlib_tl_file *out, const String &mime, int type, const ByteVector &data) {
    if (data.isEmpty()) return;
    Picture p;
    p.mime = mime.to8Bit(true);
    p.type = type;
    p.data.assign(data.data(), data.data() + data.size());
    out->pictures.push_back(std::move(p));
}

void addID3v2Pictures(mlib_tl_file *out, ID3v2::Tag *tag) {
    if (!tag) return;
    for (auto *frame : tag->frameListMap()["APIC"]) {
        if (auto *apic = dynamic_cast<ID3v2::AttachedPictureFrame *>(frame))
            addPicture(out, apic->mimeType(), static_cast<int>(apic->type()), apic->picture());
    }
}

void addXiphPictures(mlib_tl_file *out, Ogg::XiphComment *xiph) {
    if (!xiph) return;
    for (auto *pic : xiph->pictureList())
        addPicture(out, pic->mimeType(), static_cast<int>(pic->type()), pic->data());
}

void addAPEPictures(mlib_tl_file *out, APE::Tag *ape) {
    if (!ape) return;
    // APE binary items "Cover Art (Front)" etc.: "<file name>\0<image bytes>".
    for (const auto &entry : ape->itemListMap()) {
        String key = entry.first.upper();
        if (!key.startsWith("COVER ART") || entry.second.type() != APE::Item::Binary) continue;
        ByteVector value = entry.second.binaryData();
        int nul = value.find('\0');
        if (nul < 0) continue;
        ByteVector image = value.mid(nul + 1);
        String mime = image.startsWith("\x89PNG") ? "image/png" : "image/jpeg";
        addPicture(out, mime, key == "COVER ART (FRONT)" ? 3 : 0, image);
    }
}

// ID3v2 CHAP frames (podcasts, audiobooks as MP3): start and end in ms, the title from an embedded TIT2.
void addID3v2Chapters(mlib_tl_file *out, ID3v2::Tag *tag) {
    if (!tag) return;
    for (auto *frame : tag->frameListMap()["CHAP"]) {
        auto *chap = dynamic_cast<ID3v2::ChapterFrame *>(frame);
        if (!chap) continue;
        Chapter c{chap->startTime(), chap->endTime(), ""};
        const auto &titles = chap->embeddedFrameListMap()["TIT2"];
        if (!titles.isEmpty()) c.title = titles.front()->toString().to8Bit(true);
        out->chapters.push_back(std::move(c));
    }
    std::stable_sort(out->chapters.begin(), out->chapters.end(),
                     [](const Chapter &a, const Chapter &b) { return a.startMs < b.startMs; });
}

// ID3v2 USLT and SYLT frames with their language and description (TagLib 1.13's PropertyMap keeps only
// the text of USLT frames, without the language, and drops SYLT). A SYLT frame whose declared length cuts
// it short keeps the entries that fit (TagLib stops at the first one that does not).
std::string language(const ByteVector &code) {
    std::string out;
    for (char c : code) if (c >= 0x20 && c < 0x7f) out += static_cast<char>(c);
    return out;
}

void addID3v2Lyrics(mlib_tl_file *out, ID3v2::Tag *tag) {
    if (!tag) return;
    const auto &map = tag->frameListMap();
    if (map.contains("USLT")) {
        for (auto *frame : map["USLT"]) {
            auto *uslt = dynamic_cast<ID3v2::UnsynchronizedLyricsFrame *>(frame);
            if (!uslt) continue;
            LyricsFrame l;
            l.language = language(uslt->language());
            l.description = uslt->description().to8Bit(true);
            l.text = uslt->text().to8Bit(true);
            out->lyrics.push_back(std::move(l));
        }
    }
    if (map.contains("SYLT")) {
        for (auto *frame : map["SYLT"]) {
            auto *sylt = dynamic_cast<ID3v2::SynchronizedLyricsFrame *>(frame);
            if (!sylt) continue;
            LyricsFrame l;
            l.synced = true;
            l.language = language(sylt->language());
            l.description = sylt->description().to8Bit(true);
            l.timeFormat = static_cast<int>(sylt->timestampFormat());
            for (const auto &entry : sylt->synchedText()) {
                l.times.push_back(entry.time);
                l.lines.push_back(entry.text.to8Bit(true));
            }
            out->lyrics.push_back(std::move(l));
        }
    }
}

// ID3v2 POPM (popularimeter: a player's 0–255 rating) is not in TagLib 1.13's PropertyMap: each rated
// frame becomes a "POPM" property holding its rating byte (TagRating.swift scales it).
void addPopularimeters(mlib_tl_file *out, ID3v2::Tag *tag) {
    for (auto *frame : tag->frameList("POPM")) {
        auto *popm = dynamic_cast<ID3v2::PopularimeterFrame *>(frame);
        if (popm && popm->rating() > 0) out->properties.emplace_back("POPM", std::to_string(popm->rating()));
    }
}

// MP4 `rate` (a 0–100 rating, which taggers write as text): TagLib 1.13 parses it as a 16-bit integer, which
// garbles text ("60" reads as 13872), so its data atom is read again here, as text or as an integer, into a
// "RATE" property. Only for files whose tag has one (the atom tree is parsed a second time).
void addMP4Rate(mlib_tl_file *out, MP4::File *file) {
    MP4::Atoms atoms(file);
    MP4::Atom *ilst = atoms.find("moov", "udta", "meta", "ilst");
    MP4::Atom *rate = ilst ? ilst->find("rate") : nullptr;
    if (!rate || rate->length < 24 || rate->length > 64) return;
    file->seek(rate->offset + 8);
    ByteVector data = file->readBlock(static_cast<size_t>(rate->length - 8));
    if (data.size() < 16 || data.mid(4, 4) != "data") return;
    unsigned size = data.toUInt(0U, true);
    if (size < 16 || size > data.size()) return;
    unsigned type = data.toUInt(8U, true) & 0xFFFFFF;
    ByteVector payload = data.mid(16, size - 16);
    std::string value;
    if (type == 1) {                       // UTF-8 text
        value.assign(payload.data(), payload.size());
    } else if ((type == 21 || type == 0) && payload.size() >= 1 && payload.size() <= 4) {   // big-endian integer
        unsigned v = 0;
        for (char c : payload) v = (v << 8) | static_cast<unsigned char>(c);
        value = std::to_string(v);
    }
    if (!value.empty()) out->properties.emplace_back("RATE", value);
}

std::string id3v2Format(ID3v2::Tag *tag) {
    return "ID3v2." + std::to_string(tag->header()->majorVersion());
}

void join(std::string &acc, const std::string &part) {
    if (part.empty()) return;
    if (!acc.empty()) acc += "+";
    acc += part;
}

// Format-specific extras: pictures and the name of the tag format(s) present.
void readExtras(mlib_tl_file *out, File *file) {
    std::string fmt;
    if (auto *f = dynamic_cast<MPEG::File *>(file)) {
        if (f->hasID3v2Tag()) join(fmt, id3v2Format(f->ID3v2Tag()));
        if (f->hasAPETag()) join(fmt, "APE");
        if (f->hasID3v1Tag()) join(fmt, "ID3v1");
        if (f->hasID3v2Tag()) {
            addID3v2Pictures(out, f->ID3v2Tag());
            addID3v2Chapters(out, f->ID3v2Tag());
            addID3v2Lyrics(out, f->ID3v2Tag());
            addPopularimeters(out, f->ID3v2Tag());
        }
    } else if (auto *f = dynamic_cast<FLAC::File *>(file)) {
        if (f->hasXiphComment()) join(fmt, "Xiph");
        if (f->hasID3v2Tag()) { join(fmt, id3v2Format(f->ID3v2Tag())); addPopularimeters(out, f->ID3v2Tag()); }
        for (auto *pic : f->pictureList())
            addPicture(out, pic->mimeType(), static_cast<int>(pic->type()), pic->data());
        if (out->pictures.empty() && f->hasXiphComment()) addXiphPictures(out, f->xiphComment());
    } else if (auto *f = dynamic_cast<Ogg::File *>(file)) {
        auto *xiph = dynamic_cast<Ogg::XiphComment *>(f->tag());
        if (xiph && !xiph->isEmpty()) join(fmt, "Xiph");
        addXiphPictures(out, xiph);
    } else if (auto *f = dynamic_cast<MP4::File *>(file)) {
        if (f->hasMP4Tag()) {
            join(fmt, "MP4");
            MP4::Tag *tag = f->tag();
            if (tag->contains("rate")) addMP4Rate(out, f);
            if (tag->contains("covr")) {
                for (const auto &art : tag->item("covr").toCoverArtList()) {
                    const char *mime = art.format() == MP4::CoverArt::PNG ? "image/png"
                                     : art.format() == MP4::CoverArt::BMP ? "image/bmp"
                                     : art.format() == MP4::CoverArt::GIF ? "image/gif" : "image/jpeg";
                    addPicture(out, mime, 3, art.data());
                }
            }
        }
    } else if (auto *f = dynamic_cast<RIFF::WAV::File *>(file)) {
        if (f->hasID3v2Tag()) join(fmt, id3v2Format(f->ID3v2Tag()));
        if (f->hasInfoTag()) join(fmt, "RIFF INFO");
        if (f->hasID3v2Tag()) { addID3v2Pictures(out, f->ID3v2Tag()); addID3v2Lyrics(out, f->ID3v2Tag()); addPopularimeters(out, f->ID3v2Tag()); }
    } else if (auto *f = dynamic_cast<RIFF::AIFF::File *>(file)) {
        if (f->hasID3v2Tag()) {
            join(fmt, id3v2Format(f->tag()));
            addID3v2Pictures(out, f->tag());
            addID3v2Lyrics(out, f->tag());
            addPopularimeters(out, f->tag());
        }
    } else if (auto *f = dynamic_cast<WavPack::File *>(file)) {
        if (f->hasAPETag()) { join(fmt, "APE"); addAPEPictures(out, f->APETag()); }
        if (f->hasID3v1Tag()) join(fmt, "ID3v1");
    } else if (auto *f = dynamic_cast<APE::File *>(file)) {
        if (f->hasAPETag()) { join(fmt, "APE"); addAPEPictures(out, f->APETag()); }
        if (f->hasID3v1Tag()) join(fmt, "ID3v1");
    } else if (auto *f = dynamic_cast<MPC::File *>(file)) {
        if (f->hasAPETag()) { join(fmt, "APE"); addAPEPictures(out, f->APETag()); }
    } else if (auto *f = dynamic_cast<ASF::File *>(file)) {
        join(fmt, "ASF");
        ASF::Tag *tag = f->tag();
        // Windows Media Player's rating (0, 1, 25, 50, 75, 99) is not in TagLib 1.13's PropertyMap.
        if (tag && tag->contains("WM/SharedUserRating")) {
            for (const auto &attr : tag->attribute("WM/SharedUserRating")) {
                unsigned v = attr.type() == ASF::Attribute::UnicodeType ? attr.toString().toInt() : attr.toUInt();
                if (v > 0) out->properties.emplace_back("WM/SHAREDUSERRATING", std::to_string(v));
            }
        }
        if (tag && tag->contains("WM/Picture")) {
            for (const auto &attr : tag->attribute("WM/Picture")) {
                ASF::Picture pic = attr.toPicture();
                if (pic.isValid()) addPicture(out, pic.mimeType(), static_cast<int>(pic.type()), pic.picture());
            }
        }
    }
    out->tagFormat = fmt;
}

// --- FLAC: a metadata block whose length is too short -----------------------------------------------
//
// TagLib 1.13 walks the metadata blocks by their declared lengths; one block declared too short (taggers
// have written Vorbis comment and PICTURE blocks so) lands it inside the block, on a "header" of garbage,
// and the whole file is refused: no tags, no length. The reference decoder and mutagen read these blocks by
// their own structure instead. When TagLib refuses a FLAC file, mlib walks the blocks the same way and
// reads what it found with TagLib's own parts (XiphComment, FLAC::Picture, FLAC::Properties). When the
// block declared too short is the last one, TagLib takes the file (its declared end is where TagLib
// thinks the audio starts) but its comment parser stops at the first field past that end: no tags
// (mutagen's 52-too-short-block-size.flac). So a FLAC TagLib took is walked too, and read by its
// structure when a block is longer than it says.

// The length of a Vorbis comment or PICTURE block read by its structure, from `at` (after the block
// header): 0 when it does not parse within the file.
unsigned long structuralLength(IOStream *stream, long at, int type) {
    long length = stream->length();
    auto uint = [&](long from, bool bigEndian) -> long {
        if (from + 4 > length) return -1;
        stream->seek(from);
        ByteVector b = stream->readBlock(4);
        return b.size() == 4 ? static_cast<long>(b.toUInt(0U, bigEndian)) : -1;
    };
    long p = at;
    if (type == 4) {                                  // vendor, count, count × (length, field)
        long vendor = uint(p, false);
        if (vendor < 0 || p + 4 + vendor > length) return 0;
        p += 4 + vendor;
        long count = uint(p, false);
        if (count < 0 || count > 100000) return 0;
        p += 4;
        for (long i = 0; i < count; i++) {
            long field = uint(p, false);
            if (field < 0 || p + 4 + field > length) return 0;
            p += 4 + field;
        }
    } else {                                          // type, MIME, description, 4 numbers, data
        p += 4;
        for (int part = 0; part < 2; part++) {
            long n = uint(p, true);
            if (n < 0 || p + 4 + n > length) return 0;
            p += 4 + n;
        }
        p += 16;
        long data = uint(p, true);
        if (data < 0 || p + 4 + data > length) return 0;
        p += 4 + data;
    }
    return static_cast<unsigned long>(p - at);
}

// Where "fLaC" is (after an ID3v2 tag, if any), or -1 when it is not there.
long flacStart(IOStream *stream) {
    long at = 0;
    stream->seek(0);
    ByteVector id3 = stream->readBlock(10);
    if (id3.size() == 10 && id3.startsWith("ID3"))
        at = 10 + static_cast<long>(ID3v2::SynchData::toUInt(id3.mid(6, 4))) + ((id3[5] & 0x10) ? 10 : 0);
    stream->seek(at);
    return stream->readBlock(4) == "fLaC" ? at : -1;
}

// Whether a Vorbis comment or PICTURE block of a FLAC TagLib took is longer than it declares: what follows
// its declared end is no block header (or, after the last block, no frame sync), and its structure ends
// further on (NativeReading.readFLAC's rule, so scan and info agree). Reads only headers and lengths.
bool flacBlockDeclaredShort(IOStream *stream) {
    long length = stream->length();
    long at = flacStart(stream);
    if (at < 0) return false;
    at += 4;
    for (int n = 0; n < 1024; n++) {
        stream->seek(at);
        ByteVector h = stream->readBlock(4);
        if (h.size() < 4) return false;
        int type = h[0] & 0x7F;
        bool last = (h[0] & 0x80) != 0;
        long end = at + 4 + static_cast<long>(h.toUInt(1U, 3U, true));
        if (type == 4 || type == 6) {
            stream->seek(end);
            ByteVector next = stream->readBlock(4);
            bool boundary = next.size() < 4 ? end == length
                : last ? (static_cast<unsigned char>(next[0]) == 0xFF && (static_cast<unsigned char>(next[1]) & 0xFE) == 0xF8)
                       : ((next[0] & 0x7F) <= 6 && end + 4 + static_cast<long>(next.toUInt(1U, 3U, true)) <= length);
            if (!boundary && at + 4 + static_cast<long>(structuralLength(stream, at + 4, type)) > end) return true;
        }
        if (last || end > length) return false;
        at = end;
    }
    return false;
}

mlib_tl_file *readFLACByStructure(IOStream *stream, bool audio) {
    long length = stream->length();
    long at = flacStart(stream);
    if (at < 0) return nullptr;
    at += 4;
    ByteVector streamInfo, comment;
    std::vector<ByteVector> pictures;
    for (int n = 0; n < 1024; n++) {
        stream->seek(at);
        ByteVector h = stream->readBlock(4);
        if (h.size() < 4) return nullptr;
        int type = h[0] & 0x7F;
        bool last = (h[0] & 0x80) != 0;
        unsigned long size = h.toUInt(1U, 3U, true);
        if (n == 0 && type != 0) return nullptr;
        if (type == 127) return nullptr;              // invalid by the format: a walk gone astray
        if (type == 4 || type == 6) {
            unsigned long real = structuralLength(stream, at + 4, type);
            if (real > size) size = real;             // declared too short: the structure says where it ends
        }
        if (at + 4 + static_cast<long>(size) > length) return nullptr;
        stream->seek(at + 4);
        ByteVector data = stream->readBlock(size);
        if (type == 0 && streamInfo.isEmpty()) streamInfo = data;
        else if (type == 4 && comment.isEmpty()) comment = data;
        else if (type == 6) pictures.push_back(data);
        at += 4 + static_cast<long>(size);
        if (last) break;
    }
    if (streamInfo.size() < 18) return nullptr;
    auto *out = new mlib_tl_file();
    out->readByStructure = true;
    if (!comment.isEmpty()) {
        Ogg::XiphComment xiph(comment);
        for (const auto &entry : xiph.properties()) {
            std::string key = entry.first.upper().to8Bit(true);
            for (const auto &value : entry.second) out->properties.emplace_back(key, value.to8Bit(true));
        }
        out->tagFormat = "Xiph";
    }
    for (const auto &data : pictures) {
        FLAC::Picture picture(data);
        addPicture(out, picture.mimeType(), static_cast<int>(picture.type()), picture.data());
    }
    if (audio) {
        FLAC::Properties props(streamInfo, length - at);
        out->hasAudio = true;
        out->lengthMs = props.lengthInMilliseconds();
        out->bitrate = props.bitrate();
        out->sampleRate = props.sampleRate();
        out->channels = props.channels();
        out->bitsPerSample = props.bitsPerSample();
    }
    return out;
}

} // namespace

extern "C" {

mlib_tl_file *mlib_tl_open(int fd, long long size, const char *name, const char *format_hint,
                           int read_audio_properties, const unsigned char *head, size_t head_length,
                           const unsigned char *tail, size_t tail_length) {
    if (fd < 0) return nullptr;
    try {
        bool audio = read_audio_properties != 0;
        // Declared first: it must outlive the File.
        ReadOnlyStream stream(fd, static_cast<long>(size), name, head, head_length, tail, tail_length);
        std::unique_ptr<File> owned;
        FileRef ref;
        File *file = nullptr;
        if (format_hint && *format_hint) {
            owned = openAs(&stream, format_hint, audio);
            file = owned.get();
        } else {
            ref = FileRef(&stream, audio, AudioProperties::Average);
            file = ref.isNull() ? nullptr : ref.file();
        }
        if ((!file || !file->isValid()) && format_hint && std::string(format_hint) == "flac")
            return readFLACByStructure(&stream, audio);
        if (!file || !file->isValid()) return nullptr;
        // TagLib took a FLAC whose last block is declared too short: its tags are lost (see above).
        if (dynamic_cast<FLAC::File *>(file) && flacBlockDeclaredShort(&stream)) return readFLACByStructure(&stream, audio);

        if (auto *f = dynamic_cast<MPEG::File *>(file)) {
            // TagLib reads the tag at the start of the file (the one mlib's sniffer skips first).
            if (f->hasID3v2Tag()) {
                f->seek(0);
                if (f->readBlock(3) == "ID3") recoverID3v2Frames(f, f->ID3v2Tag(), 0);
            }
        }
        auto *out = new mlib_tl_file();
        PropertyMap map = file->properties();
        // TagLib's tag union answers from the first tag that is not empty: an ID3v2 tag holding only a
        // title hid the artist, album, year, track and genre of the ID3v1 tag behind it. Fall back field
        // by field (as mutagen does), for every format that pairs a main tag with ID3v1.
        Tag *v1 = nullptr;
        if (auto *f = dynamic_cast<MPEG::File *>(file)) { if (f->hasID3v1Tag() && (f->hasID3v2Tag() || f->hasAPETag())) v1 = f->ID3v1Tag(); }
        else if (auto *f = dynamic_cast<WavPack::File *>(file)) { if (f->hasID3v1Tag() && f->hasAPETag()) v1 = f->ID3v1Tag(); }
        else if (auto *f = dynamic_cast<APE::File *>(file)) { if (f->hasID3v1Tag() && f->hasAPETag()) v1 = f->ID3v1Tag(); }
        else if (auto *f = dynamic_cast<MPC::File *>(file)) { if (f->hasID3v1Tag() && f->hasAPETag()) v1 = f->ID3v1Tag(); }
        if (v1) {
            for (const auto &entry : v1->properties()) {
                if (!map.contains(entry.first) && !entry.second.isEmpty()) map.insert(entry.first, entry.second);
            }
        }
        for (const auto &entry : map) {
            std::string key = entry.first.upper().to8Bit(true);
            for (const auto &value : entry.second) out->properties.emplace_back(key, value.to8Bit(true));
        }
        if (AudioProperties *props = file->audioProperties()) {
            out->hasAudio = true;
            out->lengthMs = props->lengthInMilliseconds();
            out->bitrate = props->bitrate();
            out->sampleRate = props->sampleRate();
            out->channels = props->channels();
            if (auto *p = dynamic_cast<FLAC::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<MP4::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<RIFF::WAV::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<RIFF::AIFF::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<WavPack::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<APE::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
            else if (auto *p = dynamic_cast<TrueAudio::Properties *>(props)) out->bitsPerSample = p->bitsPerSample();
        }
        readExtras(out, file);
        return out;
    } catch (...) {
        return nullptr;  // TagLib rarely throws, but never let an exception cross into Swift.
    }
}

// A File over a stream, for reading a tag at an offset of a format TagLib has no class for (DSF, DSDIFF).
class BareFile : public File {
public:
    explicit BareFile(IOStream *stream) : File(stream) {}
    Tag *tag() const override { return nullptr; }
    AudioProperties *audioProperties() const override { return nullptr; }
    bool save() override { return false; }
};

mlib_tl_file *mlib_tl_open_id3v2(int fd, long long size, const char *name, long long offset,
                                 const unsigned char *head, size_t head_length,
                                 const unsigned char *tail, size_t tail_length) {
    if (fd < 0 || offset < 0 || offset + 10 > size) return nullptr;
    try {
        ReadOnlyStream stream(fd, static_cast<long>(size), name, head, head_length, tail, tail_length);
        BareFile file(&stream);
        file.seek(static_cast<long>(offset));
        if (file.readBlock(3) != "ID3") return nullptr;
        ID3v2::Tag tag(&file, static_cast<long>(offset));
        recoverID3v2Frames(&file, &tag, static_cast<long>(offset));
        auto *out = new mlib_tl_file();
        for (const auto &entry : tag.properties()) {
            std::string key = entry.first.upper().to8Bit(true);
            for (const auto &value : entry.second) out->properties.emplace_back(key, value.to8Bit(true));
        }
        out->tagFormat = id3v2Format(&tag);
        addID3v2Pictures(out, &tag);
        addID3v2Chapters(out, &tag);
        addID3v2Lyrics(out, &tag);
        addPopularimeters(out, &tag);
        return out;
    } catch (...) {
        return nullptr;
    }
}

void mlib_tl_close(mlib_tl_file *file) { delete file; }

const char *mlib_tl_tag_format(const mlib_tl_file *f) { return f->tagFormat.c_str(); }
int mlib_tl_property_count(const mlib_tl_file *f) { return static_cast<int>(f->properties.size()); }
const char *mlib_tl_property_key(const mlib_tl_file *f, int i) { return f->properties.at(i).first.c_str(); }
const char *mlib_tl_property_value(const mlib_tl_file *f, int i) { return f->properties.at(i).second.c_str(); }

int mlib_tl_has_audio_properties(const mlib_tl_file *f) { return f->hasAudio ? 1 : 0; }
int mlib_tl_read_by_structure(const mlib_tl_file *f) { return f->readByStructure ? 1 : 0; }
int mlib_tl_length_ms(const mlib_tl_file *f) { return f->lengthMs; }
int mlib_tl_bitrate(const mlib_tl_file *f) { return f->bitrate; }
int mlib_tl_sample_rate(const mlib_tl_file *f) { return f->sampleRate; }
int mlib_tl_channels(const mlib_tl_file *f) { return f->channels; }
int mlib_tl_bits_per_sample(const mlib_tl_file *f) { return f->bitsPerSample; }

int mlib_tl_picture_count(const mlib_tl_file *f) { return static_cast<int>(f->pictures.size()); }
const char *mlib_tl_picture_mime(const mlib_tl_file *f, int i) { return f->pictures.at(i).mime.c_str(); }
int mlib_tl_picture_type(const mlib_tl_file *f, int i) { return f->pictures.at(i).type; }
size_t mlib_tl_picture_size(const mlib_tl_file *f, int i) { return f->pictures.at(i).data.size(); }
const unsigned char *mlib_tl_picture_data(const mlib_tl_file *f, int i) { return f->pictures.at(i).data.data(); }

int mlib_tl_chapter_count(const mlib_tl_file *f) { return static_cast<int>(f->chapters.size()); }
unsigned mlib_tl_chapter_start_ms(const mlib_tl_file *f, int i) { return f->chapters.at(i).startMs; }
unsigned mlib_tl_chapter_end_ms(const mlib_tl_file *f, int i) { return f->chapters.at(i).endMs; }
const char *mlib_tl_chapter_title(const mlib_tl_file *f, int i) { return f->chapters.at(i).title.c_str(); }

int mlib_tl_lyrics_count(const mlib_tl_file *f) { return static_cast<int>(f->lyrics.size()); }
int mlib_tl_lyrics_synced(const mlib_tl_file *f, int i) { return f->lyrics.at(i).synced ? 1 : 0; }
const char *mlib_tl_lyrics_language(const mlib_tl_file *f, int i) { return f->lyrics.at(i).language.c_str(); }
const char *mlib_tl_lyrics_description(const mlib_tl_file *f, int i) { return f->lyrics.at(i).description.c_str(); }
const char *mlib_tl_lyrics_text(const mlib_tl_file *f, int i) { return f->lyrics.at(i).text.c_str(); }
int mlib_tl_lyrics_time_format(const mlib_tl_file *f, int i) { return f->lyrics.at(i).timeFormat; }
int mlib_tl_lyrics_line_count(const mlib_tl_file *f, int i) { return static_cast<int>(f->lyrics.at(i).lines.size()); }
unsigned mlib_tl_lyrics_line_time(const mlib_tl_file *f, int i, int line) { return f->lyrics.at(i).times.at(line); }
const char *mlib_tl_lyrics_line_text(const mlib_tl_file *f, int i, int line) { return f->lyrics.at(i).lines.at(line).c_str(); }

} // extern "C"
