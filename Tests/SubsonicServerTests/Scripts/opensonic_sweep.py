#!/usr/bin/env python3
"""Runs py-opensonic's public API (a client library from PyPI that Music Assistant uses) against
`mlib serve --http`: every call it makes, with arguments taken from the library's own answers.

usage: opensonic_sweep.py PORT USER PASSWORD
Prints {"ok": [...], "failed": {method: error}} as JSON; the Swift test holds the failures to the documented
list (methods mlib does not answer yet, and py-opensonic's own bug in get_music_folders).
"""
import json, logging, sys, warnings

import libopensonic

logging.disable(logging.CRITICAL)
warnings.simplefilter("ignore")
port, user, password = sys.argv[1:4]
c = libopensonic.Connection("http://127.0.0.1", user, password, port=int(port), app_name="Music Assistant")
found = c.search3("", artist_count=10, album_count=10, song_count=10)
song, album, artist = found.song[0], found.album[0].id, found.artist[0].id
calls = {
    "ping": (), "get_license": (), "get_music_folders": (), "get_open_subsonic_extensions": (), "get_indexes": (),
    "get_music_directory": (song.parent,), "get_artists": (), "get_artist": (artist,), "get_album": (album,), "get_song": (song.id,),
    "get_album_list": ("newest",), "get_album_list2": ("newest",), "get_random_songs": (), "get_genres": (),
    "get_songs_by_genre": (song.genre or "Rock",), "search2": ("a",), "search3": ("a",), "get_starred": (), "get_starred2": (),
    "get_artist_info": (artist,), "get_artist_info2": (artist,), "get_album_info": (album,), "get_album_info2": (album,),
    "get_top_songs": (song.artist,), "get_similar_songs": (song.id,), "get_similar_songs2": (song.id,), "get_now_playing": (),
    "get_lyrics": (song.artist, song.title), "get_lyrics_by_song_id": (song.id,), "get_bookmarks": (),
    "save_play_queue": ([song.id],), "get_play_queue": (), "save_play_queue_by_index": ([song.id], 0), "get_play_queue_by_index": (),
    "get_playlists": (), "get_user": (user,), "get_users": (), "get_scan_status": (), "get_internet_radio_stations": (),
    "get_shares": (), "get_podcasts": (), "get_newest_podcasts": (), "token_info": (), "get_avatar": (user,), "get_videos": (),
    "jukebox_control": ("status",), "get_chat_messages": (), "scrobble": (song.id,), "star": (song.id,), "unstar": (song.id,),
    "set_rating": (song.id, 3), "create_bookmark": (song.id, 1000), "delete_bookmark": (song.id,),
}
ok, failed = [], {}
for name, args in calls.items():
    try:
        getattr(c, name)(*args)
        ok.append(name)
    except Exception as error:
        failed[name] = f"{type(error).__name__}: {str(error)[:200]}"
print(json.dumps({"ok": ok, "failed": failed}))
