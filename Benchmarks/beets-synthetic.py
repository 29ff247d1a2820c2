#!/usr/bin/env python3
"""Writes the query benchmark's synthetic library (same artists, albums, titles as query-bench) into a
beets library through beets' own API, so `beet ls` can be timed on comparable data.
usage: beets-synthetic.py LIBRARY.db [ITEMS]"""
import sys
from beets.library import Library, Item

path, count = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100000
stems = ["Björk", "Beyoncé", "The Beatles", "Sigur Rós", "Motörhead", "Daft Punk", "Röyksopp", "Ólafur Arnalds",
         "Radiohead", "A Tribe Called Quest", "Mötley Crüe", "Portishead", "Massive Attack", "Aphex Twin"]
genres = ["Rock", "Pop", "Electronic", "Jazz", "Hip-Hop", "Classical", "Folk", "Metal", "Ambient", "Soul"]
words = ["love", "night", "río", "straße", "day"]
lib = Library(path)
with lib.transaction():
    for album_number in range(count // 10):
        artist_number = album_number // 5
        artist = f"{stems[artist_number % len(stems)]} {artist_number}"
        items = []
        for n in range(album_number * 10, album_number * 10 + 10):
            items.append(Item(
                path=f"/music/{artist}/Album {album_number}/{n % 10 + 1} Song {n}.flac".encode(),
                title=f"Song {n} {words[n % 5]}", artist=artist, albumartist=artist, album=f"Album {album_number}",
                genre=genres[album_number % len(genres)], year=1960 + album_number % 60, track=n % 10 + 1, disc=1,
                length=60 + (n * 37) % 540, format="FLAC", samplerate=44100, channels=2))
        lib.add_album(items)
print(f"beets library {path}: {count} items")
