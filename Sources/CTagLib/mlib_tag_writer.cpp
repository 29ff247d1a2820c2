#include "mlib_tag_writer.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

#include <taglib/aifffile.h>
#include <taglib/apefile.h>
#include <taglib/apetag.h>
#include <taglib/asffile.h>
#include <taglib/asfpicture.h>
#include <taglib/attachedpictureframe.h>
#include <taglib/flacfile.h>
#include <taglib/flacpicture.h>
#include <taglib/id3v1tag.h>
#include <taglib/id3v2framefactory.h>
#include <taglib/id3v2header.h>
#include <taglib/id3v2tag.h>
#include <taglib/infotag.h>
#include <taglib/mp4coverart.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/oggflacfile.h>
#include <taglib/opusfile.h>
#include <taglib/popularimeterframe.h>
#include <taglib/commentsframe.h>
#include <taglib/textidentificationframe.h>
#include <taglib/tiostream.h>
#include <taglib/unsynchronizedlyricsframe.h>
#include <taglib/urllinkframe.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/wavpackfile.h>
#include <taglib/xiphcomment.h>

using namespace TagLib;

namespace {

// The file as TagLib sees it while it saves: the caller's descriptor underneath (only ever read), TagLib's
// writes on top, as a piece table — the new content is a list of pieces, each either a stretch of the file
// (read when asked) or bytes TagLib wrote. An insert, a removal or a truncation only splices the list, so
// no edit reads the file's audio: a tag that shrank at the start is a new piece followed by the rest of the
// file, shifted (`split`). The whole new content is made only when the caller asks for it (`content`).
class OverlayStream : public IOStream {
public:
    OverlayStream(int fd, long length, const char *name) : name_(name ? name : ""), fd_(fd), fileLength_(length), length_(length) {
        if (length > 0) pieces_.push_back(Piece{0, length, {}});
    }

    FileName name() const override { return name_.c_str(); }
    bool readOnly() const override { return false; }
    bool isOpen() const override { return fd_ >= 0; }
    long tell() const override { return position_; }
    long length() override { return length_; }

    void seek(long offset, Position from = Beginning) override {
        long base = from == Beginning ? 0 : from == Current ? position_ : length_;
        if (base + offset >= 0) position_ = base + offset;
    }

    ByteVector readBlock(unsigned long count) override {
        if (count == 0 || position_ >= length_) return ByteVector();
        count = std::min<unsigned long>(count, static_cast<unsigned long>(length_ - position_));
        ByteVector out(static_cast<unsigned int>(count), 0);
        read(out.data(), position_, count);
        position_ += static_cast<long>(count);
        return out;
    }

    void writeBlock(const ByteVector &data) override {
        if (data.isEmpty()) return;
        long over = std::max(0L, std::min(static_cast<long>(data.size()), length_ - position_));
        splice(position_, over, data.data(), data.size());
        position_ += static_cast<long>(data.size());
    }

    void insert(const ByteVector &data, unsigned long start, unsigned long replace) override {
        long at = std::min(static_cast<long>(start), length_);
        long gone = std::min(static_cast<long>(replace), length_ - at);
        splice(at, gone, data.data(), data.size());
        position_ = at + static_cast<long>(data.size());
    }

    void removeBlock(unsigned long start, unsigned long count) override {
        long at = std::min(static_cast<long>(start), length_);
        splice(at, std::min(static_cast<long>(count), length_ - at), nullptr, 0);
    }

    void truncate(long newLength) override {
        newLength = std::max(0L, newLength);
        if (newLength < length_) splice(newLength, length_ - newLength, nullptr, 0);
        else if (newLength > length_) splice(length_, 0, nullptr, 0, newLength - length_);
    }

    // Whether the new file is not the old one with some bytes overwritten: another length, or the file's
    // bytes moved.
    bool changesLength() const {
        if (length_ != fileLength_) return true;
        long at = 0;
        for (const Piece &p : pieces_) {
            if (p.isFile() && p.origin != at) return true;
            at += p.length;
        }
        return false;
    }

    // The whole new content (made on the first call). Empty with `failed()` when the file could not be read.
    const std::vector<char> &content() {
        if (!contentMade_) {
            content_.assign(static_cast<size_t>(length_), 0);
            read(content_.data(), 0, content_.size());
            contentMade_ = true;
        }
        return content_;
    }

    // When the new content is new bytes (the head) followed by the file's own bytes from `replaced` on,
    // shifted and perhaps overwritten here and there: the head's length, and `late` the overwritten ranges
    // (`patchesOf` in the file's offsets, after `replaced`). -1 when no stretch of the file ends it so.
    long split(long &replaced) const {
        long delta = length_ - fileLength_;
        std::vector<long> starts;
        long at = 0;
        for (const Piece &p : pieces_) { starts.push_back(at); at += p.length; }
        long first = -1;                 // the first of the file's pieces from which all sit at origin + delta
        for (long i = static_cast<long>(pieces_.size()) - 1; i >= 0; i--) {
            const Piece &p = pieces_[static_cast<size_t>(i)];
            if (!p.isFile()) continue;
            if (starts[static_cast<size_t>(i)] - p.origin != delta) break;
            first = i;
        }
        if (first < 0) return -1;
        replaced = pieces_[static_cast<size_t>(first)].origin;
        return starts[static_cast<size_t>(first)];
    }

    // The byte ranges of the file from `from` on that differ once the new content's bytes from
    // `from + delta` are laid over them (delta: new length − old), by pages of 4 KiB, each page's equal
    // ends trimmed (bytes written with their old value are no change), adjacent ranges joined.
    std::vector<std::pair<long, std::vector<char>>> patchesOf(long from) {
        long delta = length_ - fileLength_;
        std::vector<std::pair<long, std::vector<char>>> out;
        std::vector<char> old, now;
        long at = 0, lastPage = -1;
        for (const Piece &p : pieces_) {
            long start = at - delta, end = at + p.length - delta;      // in the file's offsets
            at += p.length;
            if (p.isFile() || end <= from) continue;
            start = std::max(start, from);
            for (long page = std::max(start / kPage, lastPage + 1); page * kPage < end; page++) {
                lastPage = page;
                long s = std::max(page * kPage, from), e = std::min((page + 1) * kPage, fileLength_);
                if (e <= s) continue;
                size_t n = static_cast<size_t>(e - s);
                old.assign(n, 0);
                now.assign(n, 0);
                readBase(old.data(), s, n);
                read(now.data(), s + delta, n);
                size_t first = 0, last = n;
                while (first < last && now[first] == old[first]) first++;
                while (last > first && now[last - 1] == old[last - 1]) last--;
                if (first == last) continue;
                long where = s + static_cast<long>(first);
                if (!out.empty() && out.back().first + static_cast<long>(out.back().second.size()) == where) {
                    out.back().second.insert(out.back().second.end(), now.begin() + first, now.begin() + last);
                } else {
                    out.emplace_back(where, std::vector<char>(now.begin() + first, now.begin() + last));
                }
            }
        }
        return out;
    }

    std::vector<char> head(long count) {
        std::vector<char> out(static_cast<size_t>(count), 0);
        read(out.data(), 0, out.size());
        return out;
    }

    bool failed() const { return failed_; }

private:
    static constexpr long kPage = 4096;

    // A stretch of the new content: the file's bytes from `origin`, or (origin -1) `bytes`.
    struct Piece {
        long origin;
        long length;
        std::vector<char> bytes;
        bool isFile() const { return origin >= 0; }
    };

    // Replaces the new content's [at, at + count) with `size` bytes of `data` (or `zeros` zero bytes).
    void splice(long at, long count, const char *data, size_t size, long zeros = 0) {
        if (at > length_) {                      // a write past the end: the gap reads as zeros
            splice(length_, 0, nullptr, 0, at - length_);
        }
        std::vector<Piece> out;
        out.reserve(pieces_.size() + 2);
        Piece fresh{-1, 0, {}};
        if (data && size) fresh.bytes.assign(data, data + size);
        else fresh.bytes.assign(static_cast<size_t>(zeros), 0);
        fresh.length = static_cast<long>(fresh.bytes.size());
        const long added = fresh.length;
        bool placed = false;
        long pos = 0;
        auto place = [&] {
            if (!placed && fresh.length > 0) add(out, std::move(fresh));
            placed = true;
        };
        for (Piece &p : pieces_) {
            long start = pos, end = pos + p.length;
            pos = end;
            if (end <= at) { add(out, std::move(p)); continue; }
            if (start < at) add(out, cut(p, 0, at - start));
            place();
            if (end > at + count) add(out, cut(p, std::max(0L, at + count - start), end - start));
        }
        place();
        pieces_ = std::move(out);
        length_ += added - count;
        if (contentMade_) { content_.clear(); contentMade_ = false; }
    }

    static Piece cut(const Piece &p, long from, long to) {
        Piece out{p.isFile() ? p.origin + from : -1, to - from, {}};
        if (!p.isFile()) out.bytes.assign(p.bytes.begin() + from, p.bytes.begin() + to);
        return out;
    }

    // Appends `p`, joined to the last piece when they continue each other (so repeated small writes stay
    // one piece).
    static void add(std::vector<Piece> &out, Piece &&p) {
        if (p.length == 0) return;
        if (!out.empty()) {
            Piece &last = out.back();
            if (last.isFile() && p.isFile() && last.origin + last.length == p.origin) { last.length += p.length; return; }
            if (!last.isFile() && !p.isFile()) {
                last.bytes.insert(last.bytes.end(), p.bytes.begin(), p.bytes.end());
                last.length += p.length;
                return;
            }
        }
        out.push_back(std::move(p));
    }

    // The new content's [at, at + count), which must lie within it; the file's stretches in one pread each.
    void read(char *into, long at, size_t count) {
        long pos = 0, end = at + static_cast<long>(count);
        for (const Piece &p : pieces_) {
            long start = pos;
            pos += p.length;
            if (pos <= at) continue;
            if (start >= end) break;
            long s = std::max(start, at), e = std::min(pos, end);
            if (p.isFile()) readBase(into + (s - at), p.origin + (s - start), static_cast<size_t>(e - s));
            else std::memcpy(into + (s - at), p.bytes.data() + (s - start), static_cast<size_t>(e - s));
        }
    }

    void readBase(char *into, long at, size_t count) {
        size_t done = 0;
        while (done < count) {
            ssize_t n = ::pread(fd_, into + done, count - done, at + static_cast<long>(done));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {                            // the file shrank or failed under us: never write this edit
                std::memset(into + done, 0, count - done);
                failed_ = true;
                return;
            }
            done += static_cast<size_t>(n);
        }
    }

    std::string name_;
    int fd_;
    long fileLength_;
    long length_;
    long position_ = 0;
    std::vector<Piece> pieces_;
    std::vector<char> content_;
    bool contentMade_ = false;
    bool failed_ = false;
};

}  // namespace

struct mlib_tw_file {
    std::unique_ptr<OverlayStream> stream;
    std::unique_ptr<File> file;
    std::string format;           // the caller's name for the class
    std::string tagFormat;
    // Tag types present when opened: saving adds none of the others.
    bool hadID3v1 = false, hadID3v2 = false, hadAPE = false, hadInfo = false;
    int id3v2Major = 4;
    std::vector<std::pair<std::string, std::string>> properties;
    PropertyMap pending;
    std::vector<std::string> unsupported;
    // After a save that changed the file's length: the new head and the file's length it replaces
    // (OverlayStream::split), the patches then those of the rest; headReplaces -1 when there is no head.
    std::vector<char> head;
    long headReplaces = -1;
    std::vector<std::pair<long, std::vector<char>>> patches;
    bool saved = false;
    std::string ratingValue;      // mlib_tw_rating_value's answer, kept for the caller's pointer
    // MP4 text items `----:com.apple.iTunes:NAME` and ASF text attributes NAME that TagLib 1.13's
    // PropertyMap does not translate (it knows a fixed list): upper-cased NAME → the item's own key, so
    // that they are properties like the others.
    std::map<std::string, std::string> freeform;
    // The pictures TagLib made of legacy Vorbis `COVERART` fields when it read the file (`keepLegacyCoverArt`).
    std::vector<FLAC::Picture *> legacyCovers;
};

namespace {

std::unique_ptr<File> openAs(OverlayStream *stream, const std::string &format) {
    auto *id3 = ID3v2::FrameFactory::instance();
    auto style = AudioProperties::Fast;
    if (format == "mpeg") return std::make_unique<MPEG::File>(stream, id3, false, style);
    if (format == "flac") return std::make_unique<FLAC::File>(stream, id3, false, style);
    if (format == "ogg-vorbis") return std::make_unique<Ogg::Vorbis::File>(stream, false, style);
    if (format == "ogg-opus") return std::make_unique<Ogg::Opus::File>(stream, false, style);
    if (format == "ogg-flac") return std::make_unique<Ogg::FLAC::File>(stream, false, style);
    if (format == "mp4") return std::make_unique<MP4::File>(stream, false, style);
    if (format == "wav") return std::make_unique<RIFF::WAV::File>(stream, false, style);
    if (format == "aiff") return std::make_unique<RIFF::AIFF::File>(stream, false, style);
    if (format == "wavpack") return std::make_unique<WavPack::File>(stream, false, style);
    if (format == "ape") return std::make_unique<APE::File>(stream, false, style);
    if (format == "asf") return std::make_unique<ASF::File>(stream, false, style);
    return nullptr;
}

void appendFormat(std::string &into, const std::string &name) {
    if (!into.empty()) into += "+";
    into += name;
}

void noteTags(mlib_tw_file *h) {
    File *f = h->file.get();
    if (auto *m = dynamic_cast<MPEG::File *>(f)) {
        h->hadID3v2 = m->hasID3v2Tag();
        h->hadID3v1 = m->hasID3v1Tag();
        h->hadAPE = m->hasAPETag();
        if (h->hadID3v2) h->id3v2Major = static_cast<int>(m->ID3v2Tag()->header()->majorVersion());
    } else if (auto *w = dynamic_cast<RIFF::WAV::File *>(f)) {
        h->hadID3v2 = w->hasID3v2Tag();
        h->hadInfo = w->hasInfoTag();
        if (h->hadID3v2) h->id3v2Major = static_cast<int>(w->ID3v2Tag()->header()->majorVersion());
    } else if (auto *a = dynamic_cast<RIFF::AIFF::File *>(f)) {
        h->hadID3v2 = a->hasID3v2Tag();
        if (h->hadID3v2) h->id3v2Major = static_cast<int>(a->tag()->header()->majorVersion());
    } else if (auto *fl = dynamic_cast<FLAC::File *>(f)) {
        h->hadID3v2 = fl->hasID3v2Tag();
        h->hadID3v1 = fl->hasID3v1Tag();
        if (fl->hasXiphComment()) appendFormat(h->tagFormat, "Xiph");
    } else if (auto *ape = dynamic_cast<APE::File *>(f)) {
        h->hadAPE = ape->hasAPETag();
        h->hadID3v1 = ape->hasID3v1Tag();
    } else if (auto *wv = dynamic_cast<WavPack::File *>(f)) {
        h->hadAPE = wv->hasAPETag();
        h->hadID3v1 = wv->hasID3v1Tag();
    }
    // ID3v2.2 cannot be written: TagLib writes 2.4 (or 2.3 when asked).
    if (h->id3v2Major != 3) h->id3v2Major = 4;
    if (h->hadID3v2) appendFormat(h->tagFormat, "ID3v2." + std::to_string(h->id3v2Major));
    if (h->hadInfo) appendFormat(h->tagFormat, "RIFF INFO");
    if (h->hadAPE) appendFormat(h->tagFormat, "APE");
    if (h->hadID3v1) appendFormat(h->tagFormat, "ID3v1");
    if (h->format.rfind("ogg", 0) == 0) appendFormat(h->tagFormat, "Xiph");
    if (h->format == "mp4") appendFormat(h->tagFormat, "MP4");
    if (h->format == "asf") appendFormat(h->tagFormat, "ASF");
}

const char *const kMP4FreeformPrefix = "----:com.apple.iTunes:";

// A key mlib writes as a freeform item: upper-case letters, digits, '_' and ' ' (`TagFieldMapping`'s KEY).
bool plainKey(const std::string &key) {
    return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ' ';
    });
}

// RIFF INFO's fields by property key. TagLib 1.13's INFO tag has no property map of its own: the generic one
// goes through year() and track(), integers, so "1978-02-28" read and wrote back as "1978" and "5/8" as "5"
// (issue 46). mlib reads and writes these fields as the text they hold.
const std::pair<const char *, const char *> kInfoFields[] = {
    {"TITLE", "INAM"}, {"ARTIST", "IART"}, {"ALBUM", "IPRD"}, {"COMMENT", "ICMT"},
    {"GENRE", "IGNR"}, {"DATE", "ICRD"}, {"TRACKNUMBER", "IPRT"},
};

PropertyMap infoProperties(const RIFF::Info::Tag *info) {
    PropertyMap map;
    for (const auto &field : kInfoFields) {
        String value = info->fieldText(field.second);
        if (!value.isEmpty()) map.insert(field.first, StringList(value));
    }
    return map;
}

// INFO as it was (`before`), then each key whose values differ between `from` and `to` written there: set,
// or removed when `to` has none. What INFO has no field for, or more values than its one, is returned.
PropertyMap applyChangedInfoFields(RIFF::Info::Tag *info, const PropertyMap &before, const PropertyMap &from,
                                   const PropertyMap &to) {
    for (const auto &field : kInfoFields) {
        if (before.contains(field.first)) info->setFieldText(field.second, before[field.first].front());
        else info->removeField(field.second);
    }
    PropertyMap changed;
    for (const auto &entry : to) {
        if (!from.contains(entry.first) || !(from[entry.first] == entry.second)) changed.insert(entry.first, entry.second);
    }
    for (const auto &entry : from) {
        if (!to.contains(entry.first)) changed.insert(entry.first, StringList());
    }
    PropertyMap refused;
    for (const auto &entry : changed) {
        const char *id = nullptr;
        for (const auto &field : kInfoFields) {
            if (entry.first == field.first) id = field.second;
        }
        if (!id || entry.second.size() > 1) {
            if (!entry.second.isEmpty()) refused.insert(entry.first, entry.second);
            continue;
        }
        if (entry.second.isEmpty()) info->removeField(id);
        else info->setFieldText(id, entry.second.front());
    }
    return refused;
}

void loadProperties(mlib_tw_file *h) {
    h->properties.clear();
    // A WAV saved as RIFF INFO only (it had no ID3v2 chunk): what INFO holds. The file's map is the ID3v2
    // tag's once an edit filled it, though that tag is never saved, so a key INFO refused looked written
    // and the unchanged file was rewritten on every edit.
    auto *wav = dynamic_cast<RIFF::WAV::File *>(h->file.get());
    PropertyMap map = wav && h->hadInfo && !h->hadID3v2 ? infoProperties(wav->InfoTag()) : h->file->properties();
    for (const auto &entry : map) {
        std::string key = entry.first.to8Bit(true);
        for (const auto &value : entry.second) h->properties.emplace_back(key, value.to8Bit(true));
    }
    // MP4 and ASF: TagLib 1.13 reads and writes only the freeform items and attributes of its list; the
    // others (ReplayGain's REPLAYGAIN_*, which loudgain and rsgain write, any KEY of `mlib tag`) are added
    // here as KEY, as TagLib 2 and mutagen name them. Text only: a binary one is not a property to edit.
    h->freeform.clear();
    auto expose = [&](const std::string &raw, const std::string &name, const StringList &values) {
        std::string key = String(name, String::UTF8).upper().to8Bit(true);
        if (values.isEmpty() || !plainKey(key) || map.contains(String(key, String::UTF8)) || h->freeform.count(key)) return;
        h->freeform[key] = raw;
        for (const auto &value : values) h->properties.emplace_back(key, value.to8Bit(true));
    };
    if (auto *m = dynamic_cast<MP4::File *>(h->file.get())) {
        if (!m->tag()) return;
        const size_t prefix = std::strlen(kMP4FreeformPrefix);
        for (const auto &itemKey : map.unsupportedData()) {
            std::string raw = itemKey.to8Bit(true);
            if (raw.size() <= prefix || raw.compare(0, prefix, kMP4FreeformPrefix) != 0) continue;
            MP4::Item item = m->tag()->item(itemKey);
            // TagLib keeps a freeform item's UTF-8 data as text and any other as bytes (an item set here
            // has no data type yet): text is what toStringList finds.
            if (item.isValid()) expose(raw, raw.substr(prefix), item.toStringList());
        }
    } else if (auto *a = dynamic_cast<ASF::File *>(h->file.get())) {
        if (!a->tag()) return;
        for (const auto &name : map.unsupportedData()) {
            StringList values;
            for (const auto &attribute : a->tag()->attribute(name)) {
                if (attribute.type() != ASF::Attribute::UnicodeType) { values.clear(); break; }
                values.append(attribute.toString());
            }
            expose(name.to8Bit(true), name.to8Bit(true), values);
        }
    }
}

// The freeform items (MP4) or attributes (ASF) mlib shows as KEY (`loadProperties`): those `pending` changes
// written under the name they had, those it no longer holds removed, the others not touched (issue 46: they
// are kept out of TagLib's setProperties, whose table gave an ASF `date` attribute a second one, WM/Year, and
// re-rendered the rest). Then the keys TagLib refused, written as `----:com.apple.iTunes:KEY` (MP4) or KEY
// (ASF); `refused` keeps what is still refused. `before`: each freeform key's values as the file had them.
void applyFreeform(mlib_tw_file *h, const std::map<std::string, StringList> &before, PropertyMap &refused) {
    auto *m = dynamic_cast<MP4::File *>(h->file.get());
    auto *a = dynamic_cast<ASF::File *>(h->file.get());
    if (!(m && m->tag()) && !(a && a->tag())) return;
    auto set = [&](const String &name, const StringList &values) {
        if (m) {
            m->tag()->setItem(name, MP4::Item(values));
        } else {
            ASF::AttributeList list;
            for (const auto &value : values) list.append(ASF::Attribute(value));
            a->tag()->setAttribute(name, list);
        }
    };
    for (const auto &entry : h->freeform) {
        String key(entry.first, String::UTF8), name(entry.second, String::UTF8);
        if (!h->pending.contains(key) || h->pending[key].isEmpty()) {
            if (m) m->tag()->removeItem(name); else a->tag()->removeItem(name);
            continue;
        }
        auto old = before.find(entry.first);
        if (old == before.end() || old->second != h->pending[key]) set(name, h->pending[key]);
    }
    PropertyMap still;
    for (const auto &entry : refused) {
        std::string key = entry.first.to8Bit(true);
        if (!plainKey(key)) { still.insert(entry.first, entry.second); continue; }
        if (h->freeform.count(key)) continue;
        set(String(m ? std::string(kMP4FreeformPrefix) + key : key, String::UTF8), entry.second);
    }
    refused = still;
}

// An ASF file's extended attributes that spell a content-description field (`title` beside Title, as
// FFmpeg writes both; `Author` beside Author): FFmpeg and the players built on it show the attribute, so a
// field the edit changes is changed in both (issue 46: the title stayed the old one there). Text
// attributes only; `before` is the map the edit started from.
void applyASFTwins(mlib_tw_file *h, const PropertyMap &before) {
    auto *a = dynamic_cast<ASF::File *>(h->file.get());
    if (!a || !a->tag()) return;
    static const char *const kFields[][2] = {{"TITLE", "TITLE"}, {"ARTIST", "AUTHOR"}, {"COMMENT", "DESCRIPTION"}, {"COPYRIGHT", "COPYRIGHT"}};
    std::vector<std::pair<String, String>> twins;           // attribute name, property key
    for (const auto &entry : a->tag()->attributeListMap()) {
        String upper = entry.first.upper();
        for (const auto &field : kFields) {
            if (upper != field[0] && upper != field[1]) continue;
            bool text = !entry.second.isEmpty();
            for (const auto &attribute : entry.second) text = text && attribute.type() == ASF::Attribute::UnicodeType;
            if (text) twins.emplace_back(entry.first, field[0]);
        }
    }
    for (const auto &twin : twins) {
        const String &key = twin.second;
        bool had = before.contains(key), has = h->pending.contains(key);
        if (had == has && (!had || before[key] == h->pending[key])) continue;
        if (!has || h->pending[key].isEmpty()) { a->tag()->removeItem(twin.first); continue; }
        ASF::AttributeList list;
        for (const auto &value : h->pending[key]) list.append(ASF::Attribute(value));
        a->tag()->setAttribute(twin.first, list);
    }
}

ID3v2::Tag *id3v2Of(File *f) {
    if (auto *m = dynamic_cast<MPEG::File *>(f)) return m->ID3v2Tag(true);
    if (auto *w = dynamic_cast<RIFF::WAV::File *>(f)) return w->ID3v2Tag();
    if (auto *a = dynamic_cast<RIFF::AIFF::File *>(f)) return a->tag();
    return nullptr;
}

Ogg::XiphComment *xiphOf(File *f) {
    if (auto *v = dynamic_cast<Ogg::Vorbis::File *>(f)) return v->tag();
    if (auto *o = dynamic_cast<Ogg::Opus::File *>(f)) return o->tag();
    if (auto *of = dynamic_cast<Ogg::FLAC::File *>(f)) return of->tag();
    return nullptr;
}

APE::Tag *apeOf(File *f) {
    if (auto *a = dynamic_cast<APE::File *>(f)) return a->APETag(true);
    if (auto *w = dynamic_cast<WavPack::File *>(f)) return w->APETag(true);
    return nullptr;
}

// The ID3v2 tag a rating can go in: one the file will be saved with (a WAV tagged in RIFF INFO only is saved
// without its ID3v2 tag).
ID3v2::Tag *ratingID3v2Of(mlib_tw_file *h) {
    if (dynamic_cast<RIFF::WAV::File *>(h->file.get()) && !h->hadID3v2 && h->hadInfo) return nullptr;
    return id3v2Of(h->file.get());
}

// The POPM frame a rating goes in: Windows Media Player's and MusicBee's "no@email" if the file has it,
// else the first one (another player's, whose email is kept).
ID3v2::PopularimeterFrame *ratingFrame(ID3v2::Tag *tag) {
    ID3v2::PopularimeterFrame *first = nullptr;
    for (auto *frame : tag->frameList("POPM")) {
        auto *popm = dynamic_cast<ID3v2::PopularimeterFrame *>(frame);
        if (!popm) continue;
        if (popm->email() == "no@email") return popm;
        if (!first) first = popm;
    }
    return first;
}

// Vorbis comments: FLAC's own, an Ogg file's.
Ogg::XiphComment *ratingXiphOf(File *f) {
    if (auto *fl = dynamic_cast<FLAC::File *>(f)) return fl->xiphComment(true);
    return xiphOf(f);
}

// The ID3v1 tag behind a file's main tag (MP3, APE, WavPack, FLAC), or null.
ID3v1::Tag *id3v1Of(File *f) {
    if (auto *m = dynamic_cast<MPEG::File *>(f)) return m->hasID3v1Tag() ? m->ID3v1Tag() : nullptr;
    if (auto *a = dynamic_cast<APE::File *>(f)) return a->hasID3v1Tag() ? a->ID3v1Tag() : nullptr;
    if (auto *w = dynamic_cast<WavPack::File *>(f)) return w->hasID3v1Tag() ? w->ID3v1Tag() : nullptr;
    if (auto *fl = dynamic_cast<FLAC::File *>(f)) return fl->hasID3v1Tag() ? fl->ID3v1Tag() : nullptr;
    return nullptr;
}

// An ID3v1 tag's fields as they were, to put back those an edit did not ask for (issue 46). TagLib's
// setProperties of MPEG/APE/WavPack/FLAC files gives the ID3v1 tag the whole map mlib passes, which is the
// main tag's: values held only in ID3v1 (which mlib's reader, mutagen and players show) were blanked, and
// fields ID3v1 had empty were filled from the main tag. Its strings are Latin-1 to TagLib, byte for byte,
// so a Shift-JIS ID3v1 put back is its own bytes.
struct ID3v1Fields {
    String title, artist, album, comment;
    unsigned int genre = 255, year = 0, track = 0;

    explicit ID3v1Fields(ID3v1::Tag *t)
        : title(t->title()), artist(t->artist()), album(t->album()), comment(t->comment()),
          genre(t->genreNumber()), year(t->year()), track(t->track()) {}

    // Puts back every field whose keys the edit left as they were (`before` is the map the edit started
    // from, `after` the one it asked for).
    void restoreUnasked(ID3v1::Tag *t, const PropertyMap &before, const PropertyMap &after) const {
        auto asked = [&](const char *key) {
            String k(key);
            bool had = before.contains(k), has = after.contains(k);
            return had != has || (had && before[k] != after[k]);
        };
        if (!asked("TITLE")) t->setTitle(title);
        if (!asked("ARTIST")) t->setArtist(artist);
        if (!asked("ALBUM")) t->setAlbum(album);
        if (!asked("COMMENT")) t->setComment(comment);
        if (!asked("GENRE")) t->setGenreNumber(genre);
        if (!asked("DATE")) t->setYear(year);
        if (!asked("TRACKNUMBER")) t->setTrack(track);
    }
};

// Writes only the keys an edit changes to an MP3's or AIFF's ID3v2 tag (issue 46): the frames holding
// them are removed and new ones made (`Frame::createTextualFrame`, TagLib's own key → frame table); every
// other frame stays as it was read (TIPL's roles, unknown frames, private frames, TXXX, the text encoding
// of each). TagLib's setProperties instead rebuilds every frame its property map covers from the map, which
// lost TIPL roles and rewrote values it could not round-trip. False (nothing done) when the edit started
// from another map than the ID3v2 tag's (an APE or ID3v1 tag's values, which must not be copied into it)
// or a frame holds a changed key beside unchanged ones: then setProperties does the whole map.
// The property map keys one ID3v2 frame holds, as the frame classes TagLib maps give them (`Frame::
// asProperties` is protected; the classes' own are public); other frames hold none.
PropertyMap framePropertiesOf(ID3v2::Frame *frame) {
    if (auto *f = dynamic_cast<ID3v2::UserTextIdentificationFrame *>(frame)) return f->asProperties();
    if (auto *f = dynamic_cast<ID3v2::TextIdentificationFrame *>(frame)) return f->asProperties();
    if (auto *f = dynamic_cast<ID3v2::CommentsFrame *>(frame)) return f->asProperties();
    if (auto *f = dynamic_cast<ID3v2::UnsynchronizedLyricsFrame *>(frame)) return f->asProperties();
    if (auto *f = dynamic_cast<ID3v2::UserUrlLinkFrame *>(frame)) return f->asProperties();
    if (auto *f = dynamic_cast<ID3v2::UrlLinkFrame *>(frame)) return f->asProperties();
    return PropertyMap();
}

bool applyChangedID3v2Frames(mlib_tw_file *h, const PropertyMap &mapBefore, PropertyMap &refused) {
    ID3v2::Tag *tag = nullptr;
    if (auto *m = dynamic_cast<MPEG::File *>(h->file.get())) { if (m->hasID3v2Tag()) tag = m->ID3v2Tag(); }
    else if (auto *a = dynamic_cast<RIFF::AIFF::File *>(h->file.get())) { if (a->hasID3v2Tag()) tag = a->tag(); }
    if (!tag) return false;
    PropertyMap own = tag->properties();
    if (own != mapBefore) return false;
    std::vector<String> changed;
    for (const auto &entry : h->pending) {
        if (!own.contains(entry.first) || own[entry.first] != entry.second) changed.push_back(entry.first);
    }
    for (const auto &entry : own) {
        if (!h->pending.contains(entry.first)) changed.push_back(entry.first);
    }
    auto isChanged = [&](const String &key) { return std::find(changed.begin(), changed.end(), key) != changed.end(); };
    std::vector<ID3v2::Frame *> remove;
    for (auto *frame : tag->frameList()) {
        PropertyMap held = framePropertiesOf(frame);
        bool hit = false, other = false;
        for (const auto &entry : held) (isChanged(entry.first) ? hit : other) = true;
        if (hit && other) return false;
        if (hit) remove.push_back(frame);
    }
    for (auto *frame : remove) tag->removeFrame(frame, true);
    for (const auto &key : changed) {
        if (!h->pending.contains(key)) continue;
        ID3v2::Frame *frame = ID3v2::Frame::createTextualFrame(key, h->pending[key]);
        if (frame) tag->addFrame(frame); else refused.insert(key, h->pending[key]);
    }
    // The ID3v1 tag as TagLib's setProperties would have set it (`ID3v1Fields` then puts back what the
    // edit did not ask for).
    if (auto *m = dynamic_cast<MPEG::File *>(h->file.get())) { if (m->hasID3v1Tag()) m->ID3v1Tag()->setProperties(h->pending); }
    return true;
}

// Writes only the keys an edit changes to an APE or WavPack file's APEv2 tag (issue 46), each under the item
// key the file already holds it in; every other item stays as it was read. TagLib's setProperties instead
// renames the items of its key table: an item `Date` (as mutagen and foobar2000 write it) became `YEAR`, the
// `Date` that mutagen and ffprobe read removed. False (nothing done) when the edit started from another map
// than the APE tag's: then setProperties does the whole map.
bool applyChangedAPEItems(mlib_tw_file *h, const PropertyMap &mapBefore, PropertyMap &refused) {
    APE::Tag *tag = nullptr;
    if (auto *a = dynamic_cast<APE::File *>(h->file.get())) { if (a->hasAPETag()) tag = a->APETag(); }
    else if (auto *w = dynamic_cast<WavPack::File *>(h->file.get())) { if (w->hasAPETag()) tag = w->APETag(); }
    if (!tag) return false;
    PropertyMap own = tag->properties();
    if (own != mapBefore) return false;
    // The property an item is read as, by TagLib's own table (a tag holding that item alone).
    auto propertyOf = [](const APE::Item &item) {
        APE::Tag one;
        one.setItem(item.key(), item);
        PropertyMap map = one.properties();
        return map.isEmpty() ? String() : map.begin()->first;
    };
    std::vector<String> changed;
    for (const auto &entry : h->pending) {
        if (!own.contains(entry.first) || own[entry.first] != entry.second) changed.push_back(entry.first);
    }
    for (const auto &entry : own) {
        if (!h->pending.contains(entry.first)) changed.push_back(entry.first);
    }
    for (const auto &key : changed) {
        String itemKey;
        StringList holding;
        for (const auto &entry : tag->itemListMap()) {
            if (entry.second.type() != APE::Item::Text || propertyOf(entry.second) != key) continue;
            if (itemKey.isEmpty()) itemKey = entry.second.key();
            holding.append(entry.second.key());
        }
        for (const auto &gone : holding) tag->removeItem(gone);
        if (!h->pending.contains(key) || h->pending[key].isEmpty()) continue;
        if (itemKey.isEmpty()) {
            // A field the tag did not hold: under TagLib's name for it.
            APE::Tag fresh;
            PropertyMap one;
            one.insert(key, h->pending[key]);
            PropertyMap invalid = fresh.setProperties(one);
            if (!invalid.isEmpty()) { refused.insert(key, h->pending[key]); continue; }
            for (const auto &entry : fresh.itemListMap()) tag->setItem(entry.second.key(), entry.second);
        } else {
            tag->setItem(itemKey, APE::Item(itemKey, h->pending[key]));
        }
    }
    // The ID3v1 tag as TagLib's setProperties would have set it (`ID3v1Fields` then puts back what the
    // edit did not ask for).
    if (auto *v1 = id3v1Of(h->file.get())) v1->setProperties(h->pending);
    return true;
}

// The comment a legacy `COVERART` picture lives in: an Ogg file's, a FLAC file's own (never one made here).
Ogg::XiphComment *coverArtXiphOf(File *f) {
    if (auto *fl = dynamic_cast<FLAC::File *>(f)) return fl->hasXiphComment() ? fl->xiphComment() : nullptr;
    return xiphOf(f);
}

// TagLib 1.13 reads a legacy Vorbis `COVERART` field (a base64 image with no MIME type) as a picture of type
// Other with MIME type "image/", and saves every picture as METADATA_BLOCK_PICTURE: an edit of any other
// field turned the field into a picture block that FFmpeg rejects (issue 46). The pictures made so are noted
// when the file is opened, and those the edit kept are put back as the `COVERART` fields they were (the
// same bytes in base64; `COVERARTMIME` was never touched).
void noteLegacyCovers(mlib_tw_file *h) {
    h->legacyCovers.clear();
    auto *x = coverArtXiphOf(h->file.get());
    if (!x) return;
    for (auto *picture : x->pictureList()) {
        if (picture->mimeType() == "image/" && picture->type() == FLAC::Picture::Other && picture->description().isEmpty()
            && picture->width() == 0 && picture->height() == 0 && picture->colorDepth() == 0 && picture->numColors() == 0) {
            h->legacyCovers.push_back(picture);
        }
    }
}

void keepLegacyCoverArt(mlib_tw_file *h) {
    auto *x = coverArtXiphOf(h->file.get());
    if (!x || h->legacyCovers.empty()) return;
    for (auto *picture : x->pictureList()) {
        if (std::find(h->legacyCovers.begin(), h->legacyCovers.end(), picture) == h->legacyCovers.end()) continue;
        String text(picture->data().toBase64(), String::Latin1);
        x->removePicture(picture, true);
        x->addField("COVERART", text, false);
    }
    h->legacyCovers.clear();
}

// TagLib 1.13 takes an ID3v2.3 extended header's size for the whole header's, but v2.3's leaves out its own
// 4 bytes (v2.4's counts them): it skipped 6 of the 10 bytes, found padding where the frames are, and a save
// wrote the ID3v1 values into the tag (issue 46). So TagLib is shown the tag without that header: the frames
// moved up, its bytes added to the padding, the flag cleared, the tag's length unchanged. That is how mutagen
// saves such a tag; the header holds no field, only a CRC (which any edit would make wrong) and the padding's
// size. An unsynchronised tag's header is unsynchronised too: left as it is (the check judges the result).
void dropID3v23ExtendedHeader(OverlayStream &stream) {
    stream.seek(0);
    ByteVector header = stream.readBlock(10);
    if (header.size() != 10 || !header.startsWith("ID3") || header[3] != 3) return;
    const unsigned char flags = static_cast<unsigned char>(header[5]);
    if (!(flags & 0x40) || (flags & 0x80)) return;
    unsigned long size = 0;
    for (int i = 6; i < 10; i++) {
        const unsigned char b = static_cast<unsigned char>(header[i]);
        if (b & 0x80) return;
        size = size << 7 | b;
    }
    ByteVector body = stream.readBlock(size);
    if (body.size() != size || size < 4) return;
    const unsigned long extended = 4 + body.toUInt(0U, true);
    if ((extended != 10 && extended != 14) || extended > size) return;
    ByteVector shown = header;
    shown[5] = static_cast<char>(flags & ~0x40);
    shown.append(body.mid(static_cast<unsigned int>(extended)));
    shown.append(ByteVector(static_cast<unsigned int>(extended), 0));
    stream.seek(0);
    stream.writeBlock(shown);
    stream.seek(0);
}

const char *kAPECoverKeys[] = {"COVER ART (FRONT)", "COVER ART (BACK)", "COVER ART (OTHER)"};

}  // namespace

extern "C" {

mlib_tw_file *mlib_tw_open(int fd, long long size, const char *name, const char *format) {
    try {
        std::string wanted = format ? format : "";
        std::vector<std::string> candidates = {wanted};
        if (wanted == "ogg") candidates = {"ogg-vorbis", "ogg-opus", "ogg-flac"};
        for (const auto &candidate : candidates) {
            auto h = std::make_unique<mlib_tw_file>();
            h->stream = std::make_unique<OverlayStream>(fd, static_cast<long>(size), name);
            h->format = candidate;
            if (candidate == "mpeg") dropID3v23ExtendedHeader(*h->stream);
            h->file = openAs(h->stream.get(), candidate);
            if (!h->file || !h->file->isValid() || h->stream->failed()) continue;
            // TagLib's MPEG parser is the lenient one: any bytes named .mp3 open "valid" (the others check
            // their own magic), and saving gave a text file an ID3v2 tag that made it look like music.
            // No MPEG frame, no write.
            if (candidate == "mpeg" && static_cast<MPEG::File *>(h->file.get())->firstFrameOffset() < 0) continue;
            noteTags(h.get());
            noteLegacyCovers(h.get());
            loadProperties(h.get());
            return h.release();
        }
    } catch (...) {
    }
    return nullptr;
}

void mlib_tw_close(mlib_tw_file *file) {
    if (!file) return;
    file->file.reset();           // before the stream it reads
    delete file;
}

const char *mlib_tw_tag_format(const mlib_tw_file *file) { return file->tagFormat.c_str(); }

int mlib_tw_property_count(mlib_tw_file *file) { return static_cast<int>(file->properties.size()); }
const char *mlib_tw_property_key(const mlib_tw_file *file, int index) { return file->properties[index].first.c_str(); }
const char *mlib_tw_property_value(const mlib_tw_file *file, int index) { return file->properties[index].second.c_str(); }

void mlib_tw_begin(mlib_tw_file *file) { file->pending = PropertyMap(); }

void mlib_tw_add(mlib_tw_file *file, const char *key, const char *value) {
    String k(key, String::UTF8);
    String v(value, String::UTF8);
    if (file->pending.contains(k)) file->pending[k].append(v);
    else file->pending.insert(k, StringList(v));
}

int mlib_tw_apply(mlib_tw_file *file) {
    file->unsupported.clear();
    try {
        ID3v1::Tag *v1 = id3v1Of(file->file.get());
        std::unique_ptr<ID3v1Fields> v1Before;
        PropertyMap mapBefore = file->file->properties();
        if (v1) v1Before = std::make_unique<ID3v1Fields>(v1);
        PropertyMap refused;
        // The freeform keys' values as the file has them; TagLib's setProperties is not given those keys.
        std::map<std::string, StringList> freeformBefore;
        for (const auto &entry : file->properties) {
            if (file->freeform.count(entry.first)) freeformBefore[entry.first].append(String(entry.second, String::UTF8));
        }
        // A WAV with RIFF INFO: TagLib's setProperties gives INFO the ID3v2 tag's whole map when the file has
        // both (INFO's own values replaced by ID3v2's, those ID3v2 lacks removed), and an integer year and
        // track always. INFO keeps what it holds; only the fields the edit changes change in it, as text,
        // below (issue 46).
        RIFF::Info::Tag *info = nullptr;
        PropertyMap infoBefore;
        if (auto *w = dynamic_cast<RIFF::WAV::File *>(file->file.get())) {
            if (file->hadInfo) {
                info = w->InfoTag();
                infoBefore = infoProperties(info);
            }
        }
        if (!applyChangedID3v2Frames(file, mapBefore, refused) && !applyChangedAPEItems(file, mapBefore, refused)) {
            PropertyMap forTagLib = file->pending;
            for (const auto &entry : file->freeform) forTagLib.erase(String(entry.first, String::UTF8));
            refused = file->file->setProperties(forTagLib);
        }
        if (v1) v1Before->restoreUnasked(v1, mapBefore, file->pending);
        applyFreeform(file, freeformBefore, refused);
        applyASFTwins(file, mapBefore);
        // The edit's changes: against the ID3v2 map the edit started from, or INFO's own for an INFO-only WAV.
        // What INFO cannot hold is refused for an INFO-only WAV (it is lost), and held by ID3v2 otherwise.
        PropertyMap infoRefused;
        if (info) infoRefused = applyChangedInfoFields(info, infoBefore, file->hadID3v2 ? mapBefore : infoBefore, file->pending);
        // A WAV written as RIFF INFO only (it had no ID3v2 chunk): what INFO refuses is what is lost, not
        // what the ID3v2 tag (filled too, never saved) refuses.
        if (info && !file->hadID3v2) refused = infoRefused;
        for (const auto &entry : refused) file->unsupported.push_back(entry.first.to8Bit(true));
        loadProperties(file);
    } catch (...) {
        file->unsupported.push_back("(TagLib failed)");
    }
    return static_cast<int>(file->unsupported.size());
}

const char *mlib_tw_unsupported_key(const mlib_tw_file *file, int index) { return file->unsupported[index].c_str(); }

int mlib_tw_picture_count(mlib_tw_file *file) {
    File *f = file->file.get();
    if (auto *id3 = id3v2Of(f)) {
        if (dynamic_cast<MPEG::File *>(f) && !file->hadID3v2 && id3->isEmpty()) return 0;
        return static_cast<int>(id3->frameList("APIC").size());
    }
    if (auto *fl = dynamic_cast<FLAC::File *>(f)) return static_cast<int>(fl->pictureList().size());
    if (auto *x = xiphOf(f)) return static_cast<int>(x->pictureList().size());
    if (auto *m = dynamic_cast<MP4::File *>(f)) {
        MP4::Tag *tag = m->tag();
        return tag && tag->contains("covr") ? static_cast<int>(tag->item("covr").toCoverArtList().size()) : 0;
    }
    if (auto *a = dynamic_cast<ASF::File *>(f)) return static_cast<int>(a->tag()->attribute("WM/Picture").size());
    if (auto *ape = apeOf(f)) {
        int n = 0;
        for (const char *key : kAPECoverKeys) n += ape->itemListMap().contains(key) ? 1 : 0;
        return n;
    }
    return 0;
}

void mlib_tw_remove_pictures(mlib_tw_file *file) {
    File *f = file->file.get();
    // The legacy covers go with the others (and their MIME field with them); their addresses may be reused.
    if (!file->legacyCovers.empty()) {
        if (auto *x = coverArtXiphOf(f)) x->removeFields("COVERARTMIME");
        file->legacyCovers.clear();
    }
    if (auto *id3 = id3v2Of(f)) id3->removeFrames("APIC");
    else if (auto *fl = dynamic_cast<FLAC::File *>(f)) fl->removePictures();
    else if (auto *x = xiphOf(f)) x->removeAllPictures();
    else if (auto *m = dynamic_cast<MP4::File *>(f)) { if (m->tag()) m->tag()->removeItem("covr"); }
    else if (auto *a = dynamic_cast<ASF::File *>(f)) a->tag()->removeItem("WM/Picture");
    else if (auto *ape = apeOf(f)) for (const char *key : kAPECoverKeys) ape->removeItem(key);
}

int mlib_tw_add_picture(mlib_tw_file *file, const char *mime, int type, const unsigned char *data, size_t size) {
    File *f = file->file.get();
    ByteVector bytes(reinterpret_cast<const char *>(data), static_cast<unsigned int>(size));
    String mimeType(mime ? mime : "image/jpeg", String::UTF8);
    if (auto *id3 = id3v2Of(f)) {
        auto *frame = new ID3v2::AttachedPictureFrame();
        frame->setMimeType(mimeType);
        frame->setType(static_cast<ID3v2::AttachedPictureFrame::Type>(type));
        frame->setPicture(bytes);
        id3->addFrame(frame);
        return 1;
    }
    auto flacPicture = [&]() {
        auto *p = new FLAC::Picture();
        p->setMimeType(mimeType);
        p->setType(static_cast<FLAC::Picture::Type>(type));
        p->setData(bytes);
        return p;
    };
    if (auto *fl = dynamic_cast<FLAC::File *>(f)) { fl->addPicture(flacPicture()); return 1; }
    if (auto *x = xiphOf(f)) { x->addPicture(flacPicture()); return 1; }
    if (auto *m = dynamic_cast<MP4::File *>(f)) {
        MP4::Tag *tag = m->tag();
        if (!tag) return 0;
        MP4::CoverArtList list = tag->contains("covr") ? tag->item("covr").toCoverArtList() : MP4::CoverArtList();
        auto kind = mimeType == "image/png" ? MP4::CoverArt::PNG : MP4::CoverArt::JPEG;
        list.append(MP4::CoverArt(kind, bytes));
        tag->setItem("covr", MP4::Item(list));
        return 1;
    }
    if (auto *a = dynamic_cast<ASF::File *>(f)) {
        ASF::Picture picture;
        picture.setMimeType(mimeType);
        picture.setType(static_cast<ASF::Picture::Type>(type));
        picture.setPicture(bytes);
        a->tag()->addAttribute("WM/Picture", ASF::Attribute(picture));
        return 1;
    }
    if (auto *ape = apeOf(f)) {
        // APE binary items: a file name, NUL, the image (what foobar2000 and mutagen write).
        const char *key = type == 4 ? kAPECoverKeys[1] : type == 3 ? kAPECoverKeys[0] : kAPECoverKeys[2];
        ByteVector value = ByteVector(mimeType == "image/png" ? "cover.png" : "cover.jpg") + ByteVector('\0', 1) + bytes;
        ape->setItem(key, APE::Item(key, value, true));
        return 1;
    }
    return 0;
}

const char *mlib_tw_rating_key(mlib_tw_file *file) {
    File *f = file->file.get();
    if (ratingID3v2Of(file)) return "POPM";
    if (ratingXiphOf(f) || apeOf(f)) return "FMPS_RATING";
    if (dynamic_cast<MP4::File *>(f)) return "rate";
    if (dynamic_cast<ASF::File *>(f)) return "WM/SharedUserRating";
    return "";
}

const char *mlib_tw_rating_value(mlib_tw_file *file) {
    File *f = file->file.get();
    file->ratingValue.clear();
    try {
        if (auto *id3 = ratingID3v2Of(file)) {
            if (auto *popm = ratingFrame(id3)) file->ratingValue = std::to_string(popm->rating());
        } else if (auto *x = ratingXiphOf(f)) {
            if (x->contains("FMPS_RATING")) file->ratingValue = x->fieldListMap()["FMPS_RATING"].front().to8Bit(true);
        } else if (auto *ape = apeOf(f)) {
            if (ape->itemListMap().contains("FMPS_RATING")) file->ratingValue = ape->itemListMap()["FMPS_RATING"].toString().to8Bit(true);
        } else if (auto *m = dynamic_cast<MP4::File *>(f)) {
            if (m->tag() && m->tag()->contains("rate")) {
                MP4::Item item = m->tag()->item("rate");
                StringList text = item.toStringList();
                file->ratingValue = text.isEmpty() ? std::to_string(item.toInt()) : text.front().to8Bit(true);
            }
        } else if (auto *a = dynamic_cast<ASF::File *>(f)) {
            const auto &list = a->tag()->attribute("WM/SharedUserRating");
            if (!list.isEmpty()) file->ratingValue = std::to_string(list.front().toUInt());
        }
    } catch (...) {
        file->ratingValue.clear();
    }
    return file->ratingValue.c_str();
}

int mlib_tw_set_rating(mlib_tw_file *file, int stars) {
    if (stars < 1 || stars > 5) return 0;
    File *f = file->file.get();
    try {
        if (auto *id3 = ratingID3v2Of(file)) {
            static const int kPOPM[] = {0, 1, 64, 128, 196, 255};
            auto *popm = ratingFrame(id3);
            if (!popm) {
                popm = new ID3v2::PopularimeterFrame();
                popm->setEmail("no@email");
                id3->addFrame(popm);
            }
            popm->setRating(kPOPM[stars]);
            return 1;
        }
        // FMPS: a fraction 0.0-1.0 (stars / 5: 0.2, 0.4, 0.6, 0.8, 1.0).
        static const char *kFMPS[] = {"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"};
        if (auto *x = ratingXiphOf(f)) {
            x->addField("FMPS_RATING", kFMPS[stars], true);
            loadProperties(file);
            return 1;
        }
        if (auto *ape = apeOf(f)) {
            ape->addValue("FMPS_RATING", kFMPS[stars], true);
            loadProperties(file);
            return 1;
        }
        if (auto *m = dynamic_cast<MP4::File *>(f)) {
            // As text ("80"), as mutagen and MediaMonkey write it: mutagen reads no integer `rate`.
            if (!m->tag()) return 0;
            m->tag()->setItem("rate", MP4::Item(StringList(String(std::to_string(stars * 20)))));
            return 1;
        }
        if (auto *a = dynamic_cast<ASF::File *>(f)) {
            static const unsigned kASF[] = {0, 1, 25, 50, 75, 99};
            a->tag()->setAttribute("WM/SharedUserRating", ASF::Attribute(kASF[stars]));
            return 1;
        }
    } catch (...) {
    }
    return 0;
}

int mlib_tw_save(mlib_tw_file *file) {
    File *f = file->file.get();
    bool ok = false;
    try {
        keepLegacyCoverArt(file);
        if (auto *m = dynamic_cast<MPEG::File *>(f)) {
            // FileRef's save() writes ID3v1 and ID3v2.4 whatever the file had: only the tag types it had,
            // ID3v2 in its version, the others left as they are.
            int tags = MPEG::File::ID3v2 | (file->hadID3v1 ? MPEG::File::ID3v1 : 0) | (file->hadAPE ? MPEG::File::APE : 0);
            ok = m->save(tags, File::StripNone, file->id3v2Major == 3 ? ID3v2::v3 : ID3v2::v4, File::DoNotDuplicate);
        } else if (auto *w = dynamic_cast<RIFF::WAV::File *>(f)) {
            // setProperties fills both; write the types the file had (ID3v2 when it had none: INFO holds
            // only a few fields).
            bool id3 = file->hadID3v2 || !file->hadInfo;
            auto tags = id3 && file->hadInfo ? RIFF::WAV::File::AllTags : id3 ? RIFF::WAV::File::ID3v2 : RIFF::WAV::File::Info;
            ok = w->save(tags, File::StripOthers, file->id3v2Major == 3 ? ID3v2::v3 : ID3v2::v4);
        } else if (auto *a = dynamic_cast<RIFF::AIFF::File *>(f)) {
            ok = a->save(file->id3v2Major == 3 ? ID3v2::v3 : ID3v2::v4);
        } else {
            ok = f->save();
        }
    } catch (...) {
        ok = false;
    }
    file->head.clear();
    file->headReplaces = -1;
    file->patches.clear();
    if (ok && !file->stream->changesLength()) {
        file->patches = file->stream->patchesOf(0);
    } else if (ok) {
        long replaced = 0;
        long count = file->stream->split(replaced);
        if (count >= 0) {
            file->head = file->stream->head(count);
            file->headReplaces = replaced;
            file->patches = file->stream->patchesOf(replaced);
        }
    }
    if (file->stream->failed()) ok = false;
    file->saved = ok;
    return ok ? 1 : 0;
}

int mlib_tw_changes_length(const mlib_tw_file *file) { return file->stream->changesLength() ? 1 : 0; }
long long mlib_tw_content_size(mlib_tw_file *file) {
    long long count = static_cast<long long>(file->stream->content().size());
    return file->stream->failed() ? -1 : count;
}
const unsigned char *mlib_tw_content_data(mlib_tw_file *file) {
    return reinterpret_cast<const unsigned char *>(file->stream->content().data());
}

long long mlib_tw_head_replaces(const mlib_tw_file *file) { return file->headReplaces; }
long long mlib_tw_head_size(const mlib_tw_file *file) { return static_cast<long long>(file->head.size()); }
const unsigned char *mlib_tw_head_data(const mlib_tw_file *file) {
    return reinterpret_cast<const unsigned char *>(file->head.data());
}

int mlib_tw_patch_count(mlib_tw_file *file) { return static_cast<int>(file->patches.size()); }
long long mlib_tw_patch_offset(const mlib_tw_file *file, int index) { return file->patches[index].first; }
size_t mlib_tw_patch_length(const mlib_tw_file *file, int index) { return file->patches[index].second.size(); }
const unsigned char *mlib_tw_patch_data(const mlib_tw_file *file, int index) {
    return reinterpret_cast<const unsigned char *>(file->patches[index].second.data());
}

}  // extern "C"
