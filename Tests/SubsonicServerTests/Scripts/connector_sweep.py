#!/usr/bin/env python3
"""subsonic-connector (PyPI 0.3.12, over py-sonic) running its whole public API against `mlib serve --http`:
every public method of `Connector`, with token and with legacy (enc:) authentication, and every getter of
every object it returns (recursively: the objects in its lists), so that each answer is parsed as the
library parses it. The URLs it builds (a song's stream, a cover) are fetched. An exception anywhere fails.

usage: connector_sweep.py PORT USER PASSWORD LEGACY_USER LEGACY_PASSWORD
(The legacy sweep logs in as a user with an ASCII password: py-sonic's `enc:` is the hex of each character's
code point, not of UTF-8, so a password with ü fails there — against Subsonic's own server and Navidrome too.)
Prints one JSON object: the methods called, the getters read, the songs it saw and the stations listed.
"""
import inspect, json, sys, urllib.request

from subsonic_connector.configuration import ConfigurationInterface
from subsonic_connector.connector import Connector
from subsonic_connector.list_type import ListType

port, user, password, legacy_user, legacy_password = sys.argv[1:6]


class Configuration(ConfigurationInterface):
    def __init__(self, legacy, name, secret):
        self.legacy, self.name, self.secret = legacy, name, secret
    def getBaseUrl(self): return "http://127.0.0.1"
    def getPort(self): return int(port)
    def getServerPath(self): return ""
    def getUserName(self): return self.name
    def getPassword(self): return self.secret
    def getToken(self): return None
    def getSalt(self): return None
    def getApiVersion(self): return "1.16.1"
    def getAppName(self): return "subsonic-connector-sweep"
    def getLegacyAuth(self): return self.legacy
    def getUserAgent(self): return "subsonic-connector-sweep"
    def getCustomHeaders(self): return {}


getters = set()


def read_all(value, depth=0):
    """Every no-argument getter of a returned object, and of the objects in the lists those return."""
    if depth > 4 or value is None or isinstance(value, (str, int, float, bool, bytes, dict)):
        return
    if isinstance(value, (list, tuple)):
        for one in value[:10]:
            read_all(one, depth + 1)
        return
    for name, method in inspect.getmembers(value, inspect.ismethod):
        if not (name.startswith("get") or name.startswith("is")) or name.startswith("__"):
            continue
        parameters = [p for p in inspect.signature(method).parameters.values() if p.default is inspect.Parameter.empty]
        if parameters:
            continue
        getters.add(f"{type(value).__name__}.{name}")
        read_all(method(), depth + 1)


called = set()


def sweep(connector):
    def use(name, *args, **kwargs):
        called.add(name)
        result = getattr(connector, name)(*args, **kwargs)
        if hasattr(result, "isOk") and not result.isOk():
            raise RuntimeError(f"{name}: status {result.getStatus()}")
        read_all(result)
        return result

    assert use("ping") is True
    use("getMusicFolders")
    use("getIndexes")
    artists = use("getArtists").getObj()
    genres = use("getGenres").getObj().getGenres()
    for genre in genres:
        use("getCoverArtForGenre", genre.getName())
    songs, albums = {}, []
    for list_type in ListType:
        extra = {}
        if list_type is ListType.BY_YEAR:
            extra = {"fromYear": 1900, "toYear": 2100}
        if list_type is ListType.BY_GENRE:
            extra = {"genre": genres[0].getName() if genres else "Rock"}
        albums += use("getAlbumList", ltype=list_type, size=50, **extra).getObj().getAlbums()
    use("getNewestAlbumList", size=5)
    use("getRandomAlbumList", size=5)
    for album in {a.getId(): a for a in albums}.values():
        for song in use("getAlbum", album.getId()).getObj().getSongs():
            songs[song.getId()] = song
    for initial in artists.getArtistListInitials():
        for entry in initial.getArtistListItems():
            artist = use("getArtist", entry.getId()).getObj()
            use("getArtistInfo", entry.getId(), includeNotPresent=True)
            use("getTopSongs", entry.getName())
            use("getCoverByArtistId", entry.getId())
            use("getCoverByArtist", artist)
            use("getSimilarSongs", entry.getId(), count=10)
    use("getRandomSongs", size=5)
    use("getPlaylists")
    for playlist in connector.getPlaylists().getObj().getPlaylists():
        use("getPlaylist", playlist.getId())
    use("search", "Café")
    use("getStarred")
    stations = use("getInternetRadioStations").getObj().getStations()
    first = sorted(songs)[0]
    use("getSong", first)
    for url in [use("buildSongUrlBySong", songs[first]), use("buildSongUrl", first, format="mp3", max_bitrate=128),
                use("buildCoverArtUrl", songs[first].getCoverArt() or first)]:
        with urllib.request.urlopen(url, timeout=60) as response:
            assert response.status == 200 and len(response.read()) > 0, url
    use("scrobble", first, submission=False)
    use("scrobble", first)
    downloaded = use("download", first)
    assert len(downloaded.read()) == songs[first].getItem().getByName("size"), "download is the whole file"
    return songs, stations


songs, stations = sweep(Connector(Configuration(False, user, password)))
sweep(Connector(Configuration(True, legacy_user, legacy_password)))
public = {name for name, _ in inspect.getmembers(Connector, inspect.isfunction) if not name.startswith("_")}
print(json.dumps({"called": sorted(called), "public": sorted(public), "getters": len(getters),
                  "songs": sorted(s.getPath() for s in songs.values()),
                  "stations": sorted(s.getName() for s in stations)}))
