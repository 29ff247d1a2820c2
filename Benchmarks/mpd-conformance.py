#!/usr/bin/env python3
"""Sends the same raw MPD protocol command sequences to two servers (Debian's mpd and mlib serve, both on
loopback, both over the same music folder) and compares the answers field by field.

Usage: mpd-conformance.py MPD_PORT MLIB_PORT [--quick]

Ignored everywhere: timing and bit-rate fields (elapsed, time, bitrate, uptime, playtime, db_update) and
the order of fields inside one song (MPD prints tags in file order). `duration` is compared to 10 ms.
Every other difference is either listed in KNOWN (with the reason) or is a failure: exit status 1.
"""
import socket
import sys
import time

IGNORED = {"elapsed", "time", "bitrate", "uptime", "playtime", "db_update", "Last-Modified"}
RECORD_START = {"file", "directory", "playlist", "outputid", "plugin", "cpos"}

# (sequence, command prefix, field) -> why the answers differ. A field of None: the whole answer differs
# (a key may also be one whole command line, with None).
KNOWN = {
    "Format": "lossy files: mpd's own decoders report their sample format (mad: 24 bits, opus: 16, vorbis/faad: f); "
              "mlib decodes them all to float with FFmpeg and says 'f' (lossless files: the stream's depth, as mpd)",
    "sorted Format": "mpd 0.23 prints no Format in sorted find/search results (seen, cause not traced); mlib prints "
                     "it as in unsorted ones",
    "audio": "as Format: the decoder's sample format",
    ("decoders", None): "mlib has one decoder (FFmpeg) and lists the suffixes it indexes",
    ("urlhandlers", None): "mlib plays local files only: no stream handlers",
    ("outputs", "outputname"): "the output's name is mlib's sink",
    ("outputs", "plugin"): "mlib's sink kind",
    ("commands", None): "mlib implements a subset (no partitions, channels, mounts, neighbours)",
    ("notcommands", None): "follows from commands",
    ("update", "updating_db"): "job numbers count the updates since the server started: mpd has run two "
                               "(its first database build, and the harness's `mpc update`)",
    ("rescan", "updating_db"): "as for update",
    ("config", None): "mpd answers config only on a local socket; mlib has no config file",
    ('search "(disc starts_with \'1\')"', None): "starts_with is mpd 0.24's operator (0.23 refuses it); mlib accepts "
                                                 "it, on numbers as on text",
    ("find \"(label starts_with 'Deutsche')\"", None): "starts_with is mpd 0.24's operator (0.23 refuses it); mlib "
                                                       "accepts it, on raw tags as on the others",
    ("find \"(performer =~ '(')\"", None): "a bad regular expression: mpd quotes PCRE's message and offset, mlib "
                                            "(Foundation's ICU regular expressions) says 'Bad regular expression'",
    ("readcomments", None): "mpd prints the tags its decoder reports, keys as the file spells them (ffmpeg writes "
                            "lower-case Vorbis comment names; MP3: only TXXX frames and the comment); mlib prints "
                            "TagLib's property names (upper case) for every tag (mlib(1))",
    ("rangeid", None): "mlib's player plays whole files: rangeid is an unknown command (mlib(1))",
    ('albumart "../music/Album1/flac-vorbis-cover.flac" 0', None):
        "mpd 0.23 reads the cover beside a song URI with '..' components from the file system (so "
        "'../outside/SONG' serves a cover outside the music directory); mlib refuses every such path",
}


class Client:
    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.buf = b""
        self.greeting = self.line()

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace")

    def read_bytes(self, n):
        while len(self.buf) < n + 1:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buf += chunk
        data, self.buf = self.buf[:n], self.buf[n + 1:]
        return data

    def send(self, text):
        self.sock.sendall(text.encode() + b"\n")

    def answer(self):
        lines = []
        while True:
            try:
                line = self.line()
            except EOFError:
                lines.append("<closed>")
                return lines
            if line.startswith("binary: "):
                data = self.read_bytes(int(line[8:]))
                lines.append(f"binary: {len(data)} bytes, sum {sum(data) % 65536}")
                continue
            lines.append(line)
            if line == "OK" or line.startswith("ACK "):
                return lines

    def command(self, text):
        self.send(text)
        return self.answer()


def records(lines):
    """Splits an answer into records (a song, a directory, ...), each a sorted list of fields."""
    out, current = [], []
    for line in lines:
        key = line.split(":", 1)[0]
        if key in RECORD_START and current:
            out.append(current)
            current = []
        current.append(line)
    if current:
        out.append(current)
    return out


def fields(record):
    result = {}
    for line in record:
        key, sep, value = line.partition(": ")
        if not sep:
            key, value = line, ""
        result.setdefault(key, []).append(value)
    return result


def compare(sequence, command, a, b, known_seen):
    """Differences between mpd's answer `a` and mlib's `b`, as (field, mpd, mlib, known reason or None)."""
    name = command.split(" ", 1)[0]
    for key in ((sequence, None), (name, None), (command, None)):
        if key in KNOWN and a != b:
            known_seen.add(key)
            return [(None, "\n".join(a[:3]), "\n".join(b[:3]), KNOWN[key] or "see notes")]
    diffs = []
    ra, rb = records(a), records(b)
    if len(ra) != len(rb):
        return [("records", f"{len(ra)} records: {a[:6]}", f"{len(rb)} records: {b[:6]}", None)]
    for x, y in zip(ra, rb):
        fx, fy = fields(x), fields(y)
        for key in sorted(set(fx) | set(fy)):
            if key in IGNORED:
                continue
            vx, vy = fx.get(key), fy.get(key)
            if key == "duration" and vx and vy and len(vx) == len(vy):
                if all(abs(float(p) - float(q)) <= 0.011 for p, q in zip(vx, vy)):
                    continue
                # An MP3 with a LAME header: mlib leaves out the encoder delay and padding it names (the
                # audio's own length, as gapless playback needs it); mpd counts them (at most ~0.1 s).
                if (fx.get("file") or [""])[0].lower().endswith(".mp3") and \
                        all(0 < float(p) - float(q) <= 0.1 for p, q in zip(vx, vy)):
                    known_seen.add(key)
                    diffs.append((key, vx, vy, "MP3 encoder delay and padding: mlib leaves them out, mpd counts them"))
                    continue
            if vx != vy:
                reason = KNOWN.get((name, key)) or KNOWN.get(key)
                if key == "Format" and vx is None and " sort " in command:
                    reason = KNOWN["sorted Format"]
                if reason:
                    known_seen.add(key)
                diffs.append((key, vx, vy, reason))
    return diffs


# Sequences of raw commands. Each runs on both servers from the same state (the queue is cleared first).
SEQUENCES = {
    "connection": [
        "ping", "ping x", "frobnicate", "find", 'find "artist', "play 99", "play a b", "tagtypes",
        "tagtypes disable Artist Album", "tagtypes", "tagtypes all", "urlhandlers", "decoders", "outputs",
        "command_list_begin\nping\nstatus\ncommand_list_end",
        "command_list_ok_begin\nping\nclearerror\ncommand_list_end",
        "command_list_ok_begin\nping\nfrobnicate\nping\ncommand_list_end",
        "command_list_begin\nping\nplay 99\ncommand_list_end",
        "replay_gain_status", "config", "password wrong", "commands", "notcommands", "stats",
        "tagtypes disable Title", "tagtypes", "tagtypes all",
    ],
    "database": [
        "lsinfo", "lsinfo Album1", "lsinfo Album1/flac-vorbis-cover.flac", "lsinfo Nope", "lsinfo /",
        "listall", "listall Album1", "listall Nope", "listallinfo", "listallinfo Other",
        "list artist", "list album", "list albumartist", "list title", "list genre", "list date",
        "list album group artist", "list album group albumartist", "list title group album group artist",
        "list track", "list disc", "list composer", "list file", "list album \"The Fixtures\"",
        "list title \"(artist == 'Кино')\"", "list nosuchtag",
        'find artist "The Fixtures"', "find \"(album == 'Long Tones')\"", "find artist The",
        "find file Album1/mp3-id3v24.mp3", "find title \"\"", "find track 1", "find disc 2",
        "find \"(artist != 'The Fixtures')\"", "find \"(!(artist == 'The Fixtures'))\"",
        "find \"((artist == 'The Fixtures') AND (album == 'Test Pressing'))\"",
        "find \"(base 'Album1')\"", "find \"(file == 'opus.opus')\"",
        "search any fix", "search title \"\"", "search \"(artist contains 'sine')\"", "search artist кино",
        "search album pressing title song", "search \"(title =~ '^Tone [12]$')\"",
        'find artist "Sine Wave" sort title', 'find artist "Sine Wave" sort -title', "search any e window 1:3",
        "count artist \"The Fixtures\"", "count group artist", "count \"(genre == 'Rock')\"", "count group album",
        "find nosuchtag x", "find artist",
        # Empty values find the songs without the tag; numbers match as text (issue 26).
        'find composer ""', 'count composer ""', "find \"(composer == '')\"", "find \"(composer != '')\"",
        'find date ""', "find track 01", "count track 01",
        # Dates and numbers in search any, numbers as text, AudioFormat and file =~ (issue 26, 8 and 9).
        "search any 2", "search track 1", "search \"(track contains '1')\"", "search \"(disc starts_with '1')\"",
        "find \"(AudioFormat == '22050:16:1')\"", "find \"(AudioFormat =~ '22050:*:*')\"",
        "find \"(file =~ 'Album1')\"", "search \"(file =~ '^long/tone')\"", "find \"(file !~ 'o')\"",
        "list title group album group artist", "list album group album",
        "listfiles", "listfiles Album1", "getvol",
    ],
    # Names collated as mpd's ICU collator orders them, a folder's songs by album, disc, track, name (issue 26, 7).
    "order": [
        "lsinfo", "lsinfo Order", "lsinfo Order/Songs", "listall Order", "listallinfo Order", "add Order", "playlistinfo",
        "clear", "add /", "playlist", "find \"(base 'Order')\" sort album", "find \"(base 'Order/Songs')\" sort -track",
        "find \"(base 'Order/Songs')\" sort -album window 0:3", "clear",
    ],
    # Tags mlib keeps only raw filter as mpd's (issue 26, 9); readcomments (issue 26, 11).
    "rawtags": [
        'find performer "Jane Doe"', 'find performer "jane doe"', "search performer JANE",
        'find conductor "Herbert Karajan" label "Deutsche Grammophon"', "find \"(work contains 'No. 5')\"",
        "find \"(label starts_with 'Deutsche')\"", "find \"(performer =~ 'D.e$')\"", "find \"(performer !~ 'D.e$')\"",
        "find \"(performer != 'Jane Doe')\"", "find \"(!(conductor == 'Herbert Karajan'))\"", 'find performer ""',
        "find \"((performer == 'Jane Doe') AND (title == 'Symphony'))\"", 'find artistsort "Sine Wave"',
        "search any grammophon", 'count performer "Jane Doe"', 'list title performer "Jane Doe"',
        'find label "Deutsche Grammophon" sort title', "find \"(performer contains '')\" sort -performer",
        'findadd performer "Jane Doe"', 'playlistfind performer "Jane Doe"', "playlistsearch conductor karajan",
        "find \"(performer =~ '(')\"", "clear",
        "readcomments Classical/symphony.flac", "readcomments Order/Songs/e.flac", "readcomments nope.flac",
        "readcomments Album1/flac-vorbis-cover.flac", "readcomments Album1/mp3-id3v24.mp3", "rangeid 999 1:2",
    ],
    # Paths that would leave the music directory (issue 26): each names nothing, with mpd's answer.
    "paths": [
        'update "../outside"', 'rescan "../../../etc"', 'update "Album1/."', 'lsinfo ".."', 'lsinfo "Album1/.."',
        'listall ".."', 'listallinfo "../music"', 'add ".."', 'addid "../music/opus.opus"',
        'albumart "../music/Album1/flac-vorbis-cover.flac" 0', 'readpicture "../music/Album1/flac-vorbis-cover.flac" 0',
        'playlistadd x ".."', 'find base ".."', 'search base "Album1/../.."', 'count base ".."', 'findadd base ".."',
        'list album base ".."', 'find file "../music/opus.opus"', "playlistinfo",
    ],
    "queue": [
        "add Album1", "add opus.opus", "addid Long/tone1.flac", "addid Long/tone2.flac 0", "addid nope.flac",
        "add nope", "playlistinfo", "playlistid", "playlistid 3", "playlistid 99", "playlistinfo 1",
        "playlistinfo 1:3", "playlistinfo 9", "status", "move 0 3", "playlistinfo", "moveid 3 0", "swap 0 1",
        "swapid 1 2", "playlistinfo", "plchanges 0", "plchanges 3", "plchangesposid 4", "delete 0", "delete 0:2",
        "deleteid 99", "playlistinfo", "playlistfind artist \"The Fixtures\"", "playlistsearch any song",
        "prio 5 0", "prioid 7 3", "playlistinfo", "status", "add /", "status", "shuffle", "status", "clear", "status",
        "playlist", "findadd artist \"Sine Wave\"", "searchadd album pressing", "findadd \"(disc == '2')\"",
        "searchadd nosuchtag x", "playlistinfo", "status", "clear",
    ],
    "playback": [
        "add Long", "add Album1", "play", "status", "currentsong", "pause", "status", "pause 0", "status", "next",
        "status", "currentsong", "previous", "status", "seek 1 10", "status", "seekid 4 5", "status",
        "seekcur 3", "status", "playid 3", "status", "stop", "status", "currentsong", "next", "status",
        "play 1", "previous", "status", "play 3", "next", "status", "stop",
        # next and previous while paused play (issue 26).
        "play 0", "pause 1", "next", "status", "pause 1", "previous", "status", "stop",
    ],
    # prio orders random mode: the prioritised songs play next, highest first (the rest stays random:
    # "random 0" before the last status makes its nextsong comparable); a song that starts loses its prio.
    "priority": [
        "add Long", "add Album1", "add Other", "add opus.opus", "random 1", "play 0", "prio 200 3",
        "prio 100 5", "prio 50 1", "prio 50 1", "status", "next", "currentsong", "next", "currentsong", "next",
        "currentsong", "random 0", "status", "playlistinfo", "plchanges 8", "stop",
    ],
    # single without repeat: at the end of a song the next one is current, paused at its start (mpd
    # 0.23's "border pause"); after the last song playback stops. ("sleep S" waits here, sent to neither.)
    "single": [
        "add opus.opus", "add Album1/flac-vorbis-cover.flac", "single 1", "play 0", "sleep 1.8", "status",
        "currentsong", "play", "sleep 1.8", "status", "stop",
    ],
    "options": [
        "repeat 1", "random 1", "random 0", "single 1", "consume 1", "crossfade 0", "status", "repeat 0",
        "single 0", "consume 0", "setvol 50", "status", "volume -10", "setvol 100", "replay_gain_mode track",
        "replay_gain_status", "replay_gain_mode off", "repeat 2", "random x", "status",
    ],
    "playlists": [
        "add Long", "add opus.opus", "save mine", "save mine", "listplaylists", "listplaylist mine",
        "listplaylistinfo mine", "listplaylist nope", "playlistadd mine Album1/flac-vorbis-cover.flac",
        "listplaylist mine", "playlistdelete mine 0", "listplaylist mine", "rename mine yours", "listplaylists",
        "clear", "load yours", "playlistinfo", "load yours 1:2", "playlistinfo", "playlistclear yours",
        "listplaylist yours", "rm yours", "rm yours", "listplaylists", "lsinfo",
        "searchaddpl found title tone", "listplaylist found", "searchaddpl found title nothing", "listplaylists",
        "rm found",
    ],
    # outputs: the one output can be switched off and on (mlib's sink plays nothing meanwhile).
    "outputs": [
        "disableoutput 0", "outputs", "enableoutput 0", "outputs", "enableoutput 5", "toggleoutput 0", "outputs",
        "enableoutput 0",
    ],
    # stickers on songs: mlib's rating (0-5) and read-only play statistics; mpd keeps any name.
    "stickers": [
        "sticker get song Album1/flac-vorbis-cover.flac rating", "sticker set song Album1/flac-vorbis-cover.flac rating 4",
        "sticker get song Album1/flac-vorbis-cover.flac rating", "sticker find song Album1 rating",
        "sticker find song \"\" rating = 4", "sticker delete song Album1/flac-vorbis-cover.flac rating",
        "sticker get song Album1/flac-vorbis-cover.flac rating", "sticker get song nope.flac rating",
    ],
    # update and rescan run the scanner; the job number and the idle "update" event come back.
    "update": [
        "update Album1", "sleep 1.5", "rescan Other", "sleep 1.5", "update nope", "sleep 1.5", "status",
    ],
    "art": [
        "albumart Album1/flac-vorbis-cover.flac 0", "albumart opus.opus 0", "readpicture Album1/flac-vorbis-cover.flac 0",
        "readpicture Other/ogg-vorbis.ogg 0", "binarylimit 128", "albumart Album1/mp3-id3v24.mp3 0",
        "albumart Album1/mp3-id3v24.mp3 128",
    ],
}
QUICK = ["connection", "database", "order", "rawtags", "paths", "queue", "priority", "options", "playlists", "outputs", "stickers"]


def reset(client):
    for command in ["stop", "clear", "repeat 0", "random 0", "single 0", "consume 0", "binarylimit 8192"]:
        client.command(command)


def idle_check(mpd_port, mlib_port):
    """idle in one client, a change from another: both servers wake it with the same subsystems."""
    results = []
    for port in (mpd_port, mlib_port):
        waiter, actor = Client(port), Client(port)
        reset(actor)
        waiter.send("idle")
        time.sleep(0.2)
        actor.command("add opus.opus")
        woke = waiter.answer()
        waiter.send("idle playlist player")
        time.sleep(0.2)
        actor.command("random 1")   # options: not in the mask
        time.sleep(0.2)
        waiter.send("noidle")
        noidle = waiter.answer()
        results.append((woke, noidle))
        actor.command("random 0")
        actor.command("clear")
    return results


def close_check(port):
    """`close` (also inside a command list): the server closes the connection without an answer."""
    answers = []
    for text in ("close", "command_list_begin\nping\nclose\ncommand_list_end"):
        client = Client(port)
        answers.append(client.command(text))
    return answers


def main():
    mpd_port, mlib_port = int(sys.argv[1]), int(sys.argv[2])
    quick = "--quick" in sys.argv
    mpd, mlib = Client(mpd_port), Client(mlib_port)
    failures, known, compared = 0, 0, 0
    known_seen = set()
    reasons = {}   # reason -> how many fields it explains
    for sequence, commands in SEQUENCES.items():
        if quick and sequence not in QUICK:
            continue
        reset(mpd)
        reset(mlib)
        for command in commands:
            if command.startswith("sleep "):
                time.sleep(float(command.split()[1]))
                continue
            a, b = mpd.command(command), mlib.command(command)
            if sequence == "playback":
                time.sleep(0.05)
            compared += 1
            for key, x, y, reason in compare(sequence, command, a, b, known_seen):
                if reason:
                    known += 1
                    reasons[reason] = reasons.get(reason, 0) + 1
                    print(f"known    [{sequence}] {command!r}: {key}: mpd {x} / mlib {y}  ({reason})")
                else:
                    failures += 1
                    print(f"DIFFERS  [{sequence}] {command!r}: {key}: mpd {x} / mlib {y}")
    mpd_idle, mlib_idle = idle_check(mpd_port, mlib_port)
    compared += 2
    if mpd_idle != mlib_idle:
        failures += 1
        print(f"DIFFERS  [idle] mpd {mpd_idle} / mlib {mlib_idle}")
    mpd_close, mlib_close = close_check(mpd_port), close_check(mlib_port)
    compared += 2
    if mpd_close != mlib_close:
        failures += 1
        print(f"DIFFERS  [close] mpd {mpd_close} / mlib {mlib_close}")
    print(f"{compared} commands compared: {failures} unexpected differences, {known} known, "
          f"for {len(reasons)} reasons:")
    for reason, count in sorted(reasons.items(), key=lambda r: -r[1]):
        print(f"  {count:3}  {reason}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
