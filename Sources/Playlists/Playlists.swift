// Playlists module
