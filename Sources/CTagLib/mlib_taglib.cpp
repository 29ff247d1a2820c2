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
#include <taglib/id3v1tag.h>
#include <taglib/id3v2framefactory.h>
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
#include <taglib/trueaudiofile.h>
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

struct mlib_tl_file {
    std::string tagFormat;
    std::vector<std::pair<std::string, std::string>> properties;
    bool hasAudio = false;
    int lengthMs = 0, bitrate = 0, sampleRate = 0, channels = 0, bitsPerSample = 0;
    std::vector<Picture> pictures;
    std::vector<Chapter> chapters;
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
        if (head && headLength) windows_[0] = {0, std::vector<char>(head, head + headLength)};
        if (tail && tailLength) windows_[1] = {length - static_cast<long>(tailLength), std::vector<char>(tail, tail + tailLength)};
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
        size_t got = std::min<size_t>(count, w.bytes.size() - static_cast<size_t>(offset));
        position_ += static_cast<long>(got);
        return ByteVector(w.bytes.data() + offset, static_cast<unsigned int>(got));
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
    struct Window {
        long start = -1;
        std::vector<char> bytes;
        bool holds(long from, unsigned long count) const {
            return start >= 0 && from >= start && from + static_cast<long>(count) <= start + static_cast<long>(bytes.size());
        }
    };

    // The window holding [from, from + count), reading one (page-aligned, kWindow long) in place of the
    // one used less recently when neither holds it. A window that ends at end of file holds all there is.
    const Window &window(long from, unsigned long count) {
        for (int i = 0; i < 2; i++) {
            Window &w = windows_[i];
            bool toEnd = w.start >= 0 && w.start + static_cast<long>(w.bytes.size()) == length_ && from >= w.start;
            if (w.holds(from, count) || toEnd) { recent_ = i; return w; }
        }
        recent_ = 1 - recent_;
        Window &w = windows_[recent_];
        w.start = from & ~4095L;
        size_t size = std::max<size_t>(kWindow, static_cast<size_t>(from - w.start) + count);
        size = std::min<size_t>(size, static_cast<size_t>(length_ - w.start));
        w.bytes.resize(size);
        w.bytes.resize(readAt(w.bytes.data(), size, w.start));
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
        if (f->hasID3v2Tag()) { addID3v2Pictures(out, f->ID3v2Tag()); addPopularimeters(out, f->ID3v2Tag()); }
    } else if (auto *f = dynamic_cast<RIFF::AIFF::File *>(file)) {
        if (f->hasID3v2Tag()) {
            join(fmt, id3v2Format(f->tag()));
            addID3v2Pictures(out, f->tag());
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
        if (tag && tag->contains("WM/Picture")) {
            for (const auto &attr : tag->attribute("WM/Picture")) {
                ASF::Picture pic = attr.toPicture();
                if (pic.isValid()) addPicture(out, pic.mimeType(), static_cast<int>(pic.type()), pic.picture());
            }
        }
    }
    out->tagFormat = fmt;
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
        if (!file || !file->isValid()) return nullptr;

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

void mlib_tl_close(mlib_tl_file *file) { delete file; }

const char *mlib_tl_tag_format(const mlib_tl_file *f) { return f->tagFormat.c_str(); }
int mlib_tl_property_count(const mlib_tl_file *f) { return static_cast<int>(f->properties.size()); }
const char *mlib_tl_property_key(const mlib_tl_file *f, int i) { return f->properties.at(i).first.c_str(); }
const char *mlib_tl_property_value(const mlib_tl_file *f, int i) { return f->properties.at(i).second.c_str(); }

int mlib_tl_has_audio_properties(const mlib_tl_file *f) { return f->hasAudio ? 1 : 0; }
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

} // extern "C"
