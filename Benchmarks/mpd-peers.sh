# Sourced by mpd-conformance.sh, mpd-load.sh and mpd-browse.sh: a music folder made from Fixtures/ (plus two 30 s tones
# and a cover.jpg; or MUSIC=DIR, used as is), Debian's mpd on it (null output with a software mixer, loopback, a temporary config)
# and `mlib serve` on the same folder (null sink); sets $mpd_port and $mlib_port, stops both on exit.
# Needs $MLIB (the mlib binary) and to be run from the repository's top directory.
for tool in mpd mpc ffmpeg python3; do
    command -v "$tool" >/dev/null || { echo "$0: $tool is needed (scripts/install-deps.sh)" >&2; exit 2; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/mpd-conformance.XXXXXX")
mpd_pid=""; mlib_pid=""
cleanup() {
    [[ -n "$mlib_pid" ]] && kill "$mlib_pid" 2>/dev/null && wait "$mlib_pid" 2>/dev/null || true
    [[ -n "$mpd_pid" ]] && kill "$mpd_pid" 2>/dev/null && wait "$mpd_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

music="$work/music"
mkdir -p "$work/playlists"
if [[ -n "${MUSIC:-}" ]]; then
    music=$(cd "$MUSIC" && pwd)   # an existing folder (e.g. from shared/tools/make-corpus.sh), used as is
else
    mkdir -p "$music/Album1" "$music/Other" "$music/Long"
    cp Fixtures/flac-vorbis-cover.flac Fixtures/mp3-id3v24.mp3 "$music/Album1/"
    cp Fixtures/ogg-vorbis.ogg Fixtures/m4a-aac-cover.m4a "$music/Other/"
    cp Fixtures/opus.opus "$music/"
    for n in 1 2; do
        ffmpeg -v error -f lavfi -i "sine=frequency=$((220 * (n + 1))):duration=30:sample_rate=22050" -ac 1 \
            -metadata "title=Tone $n" -metadata "artist=Sine Wave" -metadata "album=Long Tones" -metadata "track=$n" \
            "$music/Long/tone$n.flac"
    done
    ffmpeg -v error -f lavfi -i color=c=red:s=64x64 -frames:v 1 "$music/Album1/cover.jpg"
    # A sourcing script may add its own files (mpd-conformance.sh: names to collate, raw tags).
    if declare -F peers_extra_music >/dev/null; then peers_extra_music "$music"; fi
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mpd_port=$(free_port)
cat > "$work/mpd.conf" <<CONF
music_directory "$music"
playlist_directory "$work/playlists"
db_file "$work/mpd.db"
log_file "$work/mpd.log"
bind_to_address "127.0.0.1"
port "$mpd_port"
zeroconf_enabled "no"
max_output_buffer_size "524288"
auto_update "no"
sticker_file "$work/sticker.sql"
audio_output {
    type "null"
    name "null"
    mixer_type "software"
}
CONF
mpd --no-daemon "$work/mpd.conf" 2>>"$work/mpd.err" &
mpd_pid=$!
for _ in $(seq 50); do mpc -p "$mpd_port" status >/dev/null 2>&1 && break; sleep 0.1; done
mpc -q -p "$mpd_port" -w update

# Exit 1 only reports unreadable files (make-corpus.sh plants a few): what matters is that both index the rest.
"$MLIB" scan --library "$work/library.sqlite" -q "$music" || [[ $? -eq 1 ]]
# The same output buffer as mpd above (512 MiB, in KiB): at 100,000 songs a `listallinfo` is ~50 MB.
"$MLIB" serve --library "$work/library.sqlite" --port 0 --sink null --max-output-buffer 524288 2>"$work/serve.err" &
mlib_pid=$!
for _ in $(seq 1200); do grep -q "serving" "$work/serve.err" 2>/dev/null && break; sleep 0.1; done
mlib_port=$(sed -n 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/serve.err" | head -1)
[[ -n "$mlib_port" ]] || { cat "$work/serve.err" >&2; exit 2; }

