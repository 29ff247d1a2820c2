#!/usr/bin/env python3
"""Sublime Music (the GTK desktop client, from PyPI) against `mlib serve --http`, run inside
`xvfb-run dbus-run-session`: the server is configured through Sublime Music's own config file (a provider with
the Subsonic adapter and its filesystem cache, the password as plaintext, no downloads, no notifications), in a
HOME of its own under OUTDIR. Then, as a user would see it:
  1. it logs in and lists the albums (its album cache, filled from getAlbumList2, holds as many as the API lists);
  2. it lists the playlists (MPRIS Playlists.GetPlaylists on the session bus) and plays "Desktop", a playlist
     of the song titled TITLE made here through the API (Playlists.ActivatePlaylist: the same path as a double
     click), through mpv; Sublime Music scrobbles a song
     once it has played 5 s of it, so the first song's play count rising on the server means it was streamed
     and played;
  3. screenshots of the whole screen (ImageMagick `import -window root`) after the albums are listed and while
     the song plays.

usage: sublime_music_gui.py SUBLIME_MUSIC PORT USER PASSWORD TITLE OUTDIR
Prints one JSON object: albums (API, client cache), playlists seen, played (play count before, after), screenshots,
and the client's log lines at ERROR that are not cover-art downloads.
"""
import hashlib, json, os, pathlib, sqlite3, subprocess, sys, time, urllib.parse, urllib.request

sublime, port, user, password, title, out = sys.argv[1:7]
out = pathlib.Path(out)
home = out / "home"
(home / "config" / "sublime-music").mkdir(parents=True, exist_ok=True)
salt = "9u1"
auth = {"u": user, "t": hashlib.md5((password + salt).encode()).hexdigest(), "s": salt, "v": "1.16.1", "c": "gui-test", "f": "json"}


def api(method, **params):
    query = urllib.parse.urlencode({**auth, **params}, doseq=True)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/rest/{method}?{query}", timeout=20) as response:
        return json.loads(response.read())["subsonic-response"]


def wait(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.5)
    return condition()


def fail(message):
    print(f"FAILED: {message}", file=sys.stderr)
    sys.exit(1)


def mpris(method, *arguments):
    run = subprocess.run(["gdbus", "call", "--session", "--dest", "org.mpris.MediaPlayer2.sublimemusic",
                          "--object-path", "/org/mpris/MediaPlayer2", "--method", method, *arguments],
                         capture_output=True, text=True, timeout=20)
    return run.stdout if run.returncode == 0 else None


def screenshot(name):
    path = out / name
    subprocess.run(["import", "-window", "root", str(path)], check=True, timeout=30)
    return str(path)


config = {
    "version": 5, "current_provider_id": "mlib", "song_play_notification": False, "allow_song_downloads": False,
    "download_on_stream": False, "player_config": {"Local Playback": {"Replay Gain": "no"}},
    "providers": {"mlib": {
        "id": "mlib", "name": "mlib", "ground_truth_adapter_type": "SubsonicAdapter",
        "ground_truth_adapter_config": {"server_address": f"http://127.0.0.1:{port}", "username": user,
                                        "password": ["plaintext", password], "verify_cert": False,
                                        "sync_enabled": False, "salt_auth": True},
        "caching_adapter_type": "FilesystemAdapter", "caching_adapter_config": {}}},
}
(home / "config" / "sublime-music" / "config.json").write_text(json.dumps(config))
# mpv (libmpv, which reads no mpv.conf) plays into ALSA's default device: here ALSA's null plugin, so that the
# song plays, its clock runs, and nothing needs a sound card.
(home / ".asoundrc").write_text("pcm.!default { type null }\nctl.!default { type hw card 0 }\n")
environment = dict(os.environ, HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_DATA_HOME=str(home / "data"),
                   XDG_CACHE_HOME=str(home / "cache"), NO_AT_BRIDGE="1")
songs = api("search3", query=title, songCount=1, albumCount=0, artistCount=0)["searchResult3"].get("song") or fail(f"no song {title}")
api("createPlaylist", name="Desktop", songId=songs[0]["id"])
playlist = next(p for p in api("getPlaylists")["playlists"]["playlist"] if p["name"] == "Desktop")
first_song = api("getPlaylist", id=playlist["id"])["playlist"]["entry"][0]
api_albums = len(api("getAlbumList2", type="alphabeticalByName", size=500)["albumList2"].get("album", []))
plays_before = api("getSong", id=first_song["id"])["song"].get("playCount", 0)

log = open(out / "sublime-music.log", "w")
client = subprocess.Popen([sublime], env=environment, stdout=log, stderr=subprocess.STDOUT)
summary = {"apiAlbums": api_albums, "playsBefore": plays_before}
try:
    cache = home / "data" / "sublime-music" / "mlib" / "c" / "cache.db"

    def cached_albums():
        try:
            with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
                return db.execute("select count(*) from album").fetchone()[0]
        except sqlite3.Error:
            return 0

    summary["clientAlbums"] = wait(lambda: cached_albums() >= api_albums and cached_albums(), 40)
    time.sleep(2)   # the covers that exist are drawn
    summary["screenshotAlbums"] = screenshot("albums.png")
    listed = wait(lambda: mpris("org.mpris.MediaPlayer2.Playlists.GetPlaylists", "0", "50", "Alphabetical", "false"), 20) or ""
    summary["playlists"] = sorted(name for name in [p["name"] for p in api("getPlaylists")["playlists"].get("playlist", [])]
                                  if f"'{name}'" in listed)

    def playing():
        status = mpris("org.freedesktop.DBus.Properties.Get", "org.mpris.MediaPlayer2.Player", "PlaybackStatus") or ""
        return "Playing" in status

    # The window may still be building its first page: activate again until the player says it plays.
    summary["activated"] = bool(wait(lambda: playing() or (mpris("org.mpris.MediaPlayer2.Playlists.ActivatePlaylist",
                                                                 f"/playlist/{playlist['id']}") is not None and
                                                           wait(playing, 5)), 30))
    summary["playsAfter"] = wait(lambda: (n := api("getSong", id=first_song["id"])["song"].get("playCount", 0)) > plays_before and n, 30) \
        or plays_before
    summary["stillPlaying"] = playing()
    summary["screenshotPlaying"] = screenshot("playing.png")
finally:
    client.terminate()
    try:
        client.wait(timeout=10)
    except subprocess.TimeoutExpired:
        client.kill()
    log.close()
lines = (out / "sublime-music.log").read_text(errors="replace").splitlines()


def exception_after(index):
    """The exception line that ends the traceback logged after line `index` ("" if none)."""
    for line in lines[index + 1:]:
        if line.startswith("Traceback") or line.startswith(" "):
            continue
        return line
    return ""


# Its errors, less two kinds that are not the server's doing: a cache miss is Sublime Music asking its own cache with downloads off (its MPRIS
# properties read before the playlist is cached); "Didn't expect JSON!" is a cover-art download of an album that
# has no cover, which mlib answers with an error (JSON), counted apart.
errors = [(line, exception_after(i)) for i, line in enumerate(lines) if ":ERROR:" in line]
summary["clientErrors"] = [f"{line} {exception}" for line, exception in errors
                           if "CacheMissError" not in exception and "Didn't expect JSON!" not in exception]
summary["coverMisses"] = sum("Didn't expect JSON!" in exception for _, exception in errors)
print(json.dumps(summary))
