#!/usr/bin/env bash
# dlna-stills.sh [MLIB] — issue 43's video-thumbnail line (< 200 ms the first time, < 5 ms cached) on HD videos:
# make-corpus's videos are 160×90 and too small to time a still on. Makes ten 20 s H.264 videos (ffmpeg's
# testsrc2: five copies of a 1920×1080 MP4 and five of a 1280×720 MKV, a key frame every 2 s) in a temporary
# folder, scans it into a new library, serves it with `mlib serve --dlna` in a network namespace and has
# async-upnp-client (Benchmarks/dlna-bench.py) in a second one fetch each video's JPEG_TN still: the first fetch
# (made by FFmpeg: seek, decode, scale, JPEG) and the median of 11 after it (the in-memory cache). The process's
# first still is the slowest (FFmpeg's first decoder and encoder); the max is printed beside the median.
# RESULT=1 writes Benchmarks/results/dlna-bench-thumbnails.json. Needs root (namespaces), ffmpeg, python3 with
# async-upnp-client (scripts/install-deps.sh), ip(8).
set -euo pipefail
cd "$(dirname "$0")/.."
source Benchmarks/netns-pair.sh
MLIB=${1:-.build/release/mlib}
[[ -x "$MLIB" ]] || { echo "no mlib binary at $MLIB (swift build -c release --product mlib)" >&2; exit 2; }
[[ $(id -u) == 0 ]] || { echo "network namespaces need root" >&2; exit 2; }
python3 -c 'import async_upnp_client' 2>/dev/null || { echo "async-upnp-client is missing (scripts/install-deps.sh)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/dlna-stills.XXXXXX")
S=dlnastills$$s C=dlnastills$$c
pid=""
cleanup() {
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
    netns_remove "$S" "$C"
    rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/videos/Videos"
ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=1920x1080:d=20:r=25 -c:v libx264 -preset veryfast -g 50 \
    -pix_fmt yuv420p "$work/hd.mp4"
ffmpeg -nostdin -v error -f lavfi -i testsrc2=s=1280x720:d=20:r=25 -c:v libx264 -preset veryfast -g 50 \
    -pix_fmt yuv420p "$work/720.mkv"
for i in 1 2 3 4 5; do
    cp "$work/hd.mp4" "$work/videos/Videos/Clip $i 1080.mp4"
    cp "$work/720.mkv" "$work/videos/Videos/Clip $i 720.mkv"
done

netns_pair "$S" "$C" 10.47.0

export MLIB_LIBRARY="$work/library.sqlite" HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME"
"$MLIB" scan -q "$work/videos" >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $MLIB"
ip netns exec "$S" "$MLIB" serve --no-mpd --dlna --dlna-interface eth0 --dlna-port 8200 --dlna-name stills 2>"$work/mlib.err" &
pid=$!
for _ in $(seq 300); do ip netns exec "$C" curl -sf -o /dev/null http://10.47.0.1:8200/description.xml && break; sleep 0.1; done
ip netns exec "$C" python3 Benchmarks/dlna-bench.py --location http://10.47.0.1:8200/description.xml \
    --thumbnails 20 --runs 11 > "$work/stills.json"
field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$work/stills.json" "$1"; }
echo "stills of $(field thumbnails) HD videos: first $(field thumbnail_first_ms) ms median (max $(field thumbnail_first_max_ms) ms: the process's first), cached $(field thumbnail_cached_ms) ms (targets < 200 and < 5 ms); answers $(field thumbnail_answers)"
if [[ -n "${RESULT:-}" ]]; then
    python3 Benchmarks/write-result.py dlna-bench-thumbnails "Benchmarks/dlna-stills.sh $MLIB" \
      "5 copies of a 20 s 1920x1080 H.264 MP4 and 5 of a 20 s 1280x720 H.264 MKV (ffmpeg testsrc2, veryfast, key frame every 2 s): 10 videos" \
      thumbnails="$(field thumbnails)" thumbnail_first_median_ms="$(field thumbnail_first_ms)" \
      thumbnail_first_max_ms="$(field thumbnail_first_max_ms)" thumbnail_cached_median_ms="$(field thumbnail_cached_ms)" \
      target_first_ms=200 target_cached_ms=5
fi
