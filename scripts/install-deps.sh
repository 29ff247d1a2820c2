#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages mlib builds, tests and benchmarks against.
# Used by the README quick start and by .ci/run, so a fresh machine and CI install the same set.
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
PACKAGES=(
  pkg-config
  libavformat-dev libavcodec-dev libavutil-dev libswresample-dev libswscale-dev   # FFmpeg: demux, decode, resample, scale (cover art)
  libtag1-dev                                                      # TagLib 1.13
  libsqlite3-dev                                                   # SQLite (GRDB links the system library)
  zlib1g-dev curl                                                  # the web app's gzipped files (CZlib); curl: WebAppTests' HTTP client
  libmimalloc-dev                                                  # mimalloc: mlib's allocator (Package.swift, the mlib target)
  libpulse-dev                                                     # PulseAudio/PipeWire sink for `mlib play`
  libebur128-dev libchromaprint-dev                                # `mlib analyze`: EBU R128 loudness, fingerprints
  libchromaprint-tools loudgain                                    # fpcalc and loudgain: references in the analysis tests
  ffmpeg                                                           # fixtures, ffprobe comparisons in tests
  flac                                                             # the flac encoder: UndecodableMedia's fixtures (UndecodableCommandTests, DecodableScanTests)
  mediainfo                                                        # benchmark peer
  python3-mutagen                                                  # reference reader: Fixtures/make-odd-fixtures.sh, Benchmarks/reader-survey.sh
  g++                                                              # Benchmarks/reader-survey.sh builds a TagLib reference reader
  mpd mpc                                                          # playlist interoperability test, scan peer, mlib serve tests and conformance peer
  ncmpcpp                                                          # mlib serve: full-screen client test under tmux
  libxml2-utils                                                    # xmllint: XSPF well-formedness test, Subsonic XML answers against the XSD
  xvfb xauth dbus imagemagick python3-venv python3-gi gir1.2-gtk-3.0 libmpv2   # Sublime Music under Xvfb (GUIClientTests; the venv below)
  tmux                                                             # terminal test of `mlib play`
  sqlite3 time                                                     # benchmarks (and the tmux test's checks)
  postgresql                                                       # PostgreSQL store: tests start a private server
  openssl                                                          # PostgreSQL TLS tests: certificates for the private server
  python3-pip                                                      # the PyPI packages below
  vlc-bin vlc-plugin-base gupnp-tools                              # mlib serve --dlna: a second real client, VLC and GSSDP (DLNASecondClientTests)
  libgupnp-av-1.0-3                                                # the UPnP AV schemas (/usr/share/gupnp-av): DLNASchemaTests validates DIDL-Lite
  zsh fish                                                         # shell completion tests: the generated scripts run and parse
  strace                                                           # StartupCostTests: the system calls every command starts with
  chromium fonts-dejavu-core                                       # the web app's browser tests (WebAppTests): Playwright drives Debian's chromium; text in its screenshots
)
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"
# mlib serve tests: real client libraries (py-sonic and py-opensonic for the OpenSubsonic API, python-mpd2 for MPD,
# async-upnp-client — Home Assistant's UPnP library — for DLNA; subsonic-connector for SubsonicConnectorTests), and a validator for the OpenSubsonic OpenAPI description;
# mutagen again for the python3 first on PATH: where that is not Debian's (a pyenv python), python3-mutagen above
# is not the one the tests' `python3` imports.
# (--break-system-packages: Debian 12's pip refuses system-wide installs without it; a pyenv python ignores it.)
PIP_PACKAGES=(py-sonic==1.2.0 py-opensonic==10.4.1 python-mpd2==3.1.1 openapi-schema-validator==0.9.0 mutagen==1.47.0 async-upnp-client==0.49.0
              python-dotenv==1.2.2 playwright==1.65.2 beets==2.14.1)
# (beets: a library written by beets itself for `mlib import-userdata beets` (UserDataImportTests) and the README's
# examples for people coming from it (ComingFromExamplesTests); also the scan peer of Benchmarks/.)
# (playwright: the web app's browser tests drive /usr/bin/chromium through executable_path; no `playwright install`,
# no browser download.)
python3 -m pip install -q "${PIP_PACKAGES[@]}" 2>/dev/null \
  || $SUDO python3 -m pip install -q --break-system-packages "${PIP_PACKAGES[@]}"
# subsonic-connector 0.3.12 pins py-sonic 1.1.2, which would replace the 1.2.0 the other tests drive (pip refuses the
# pair): it is installed without its dependency list and runs over py-sonic 1.2.0 (its other dependency,
# python-dotenv, is above). SubsonicConnectorTests runs its whole public API that way.
python3 -m pip install -q --no-deps subsonic-connector==0.3.12 2>/dev/null \
  || $SUDO python3 -m pip install -q --no-deps --break-system-packages subsonic-connector==0.3.12
# GUIClientTests: Sublime Music (the GTK Subsonic desktop client) in a venv over Debian's python3-gi (PyGObject is not
# built from PyPI), at /opt/sublime-music; its PyPI package is installed without its dependency list for that reason.
if [ ! -x /opt/sublime-music/bin/sublime-music ]; then
  $SUDO /usr/bin/python3 -m venv --system-site-packages /opt/sublime-music
  $SUDO /opt/sublime-music/bin/pip install -q --no-deps sublime-music==0.12.0
  $SUDO /opt/sublime-music/bin/pip install -q bleach==6.4.0 dataclasses-json==0.6.7 deepdiff==9.1.0 thefuzz==0.22.1 peewee==4.5.3 \
    python-dateutil==2.9.0.post0 Levenshtein==0.27.5 python-mpv==1.0.8 requests==2.34.2 semver==3.1.2 bottle==0.13.4 PyChromecast==14.0.10
fi
