// Playback module
