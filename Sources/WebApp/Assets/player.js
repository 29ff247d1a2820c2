// The queue and the two ways to play it. In the browser: one <audio> element on /rest/stream, transcoded to
// Opus when the browser cannot play the file itself, with the Media Session API for media keys and the lock
// screen, and `scrobble` when a song ends. On the server (remote mode): every queue and transport action is a
// `jukeboxControl` call, and the state comes back from /api/events (server-sent events), so a change made by
// mpc or a phone shows here within a second.
import { rest, streamURL, APIError } from './api.js';
import { announce } from './dom.js';

// What no browser plays from the original file, when the server does not say the codec (decided by the
// song's suffix; an MP4 with a bit depth is lossless, ALAC: AAC has none).
const UNPLAYABLE = new Set(['aif', 'aiff', 'aifc', 'wv', 'ape', 'wma', 'dsf', 'dff', 'mpc', 'tta', 'tak', 'shn', 'alac',
                            'caf', 'ac3', 'dts', 'mka', 'ra', 'rm', 'au', 'snd', 'm4b']);
const MP4 = new Set(['m4a', 'mp4', 'm4v', 'mov']);
// What every current browser decodes, by the index's codec name (when the server says it).
const PLAYABLE_CODECS = new Set(['mp3', 'aac', 'flac', 'vorbis', 'opus', 'pcm_s16le', 'pcm_s24le', 'pcm_u8', 'pcm_f32le']);

/** A song as the page keeps it, from a Subsonic child or an /api/query item. */
export function song(s) {
  return { id: String(s.id), title: s.title ?? '', artist: s.artist ?? '', album: s.album ?? '', albumId: s.albumId,
           artistId: s.artistId, coverArt: s.coverArt ?? s.albumId, suffix: (s.suffix || '').toLowerCase(),
           contentType: s.contentType, codec: s.codec, bitDepth: s.bitDepth, duration: s.duration || 0, track: s.track };
}

export function needsTranscoding(s, audio) {
  if (s.codec) return !PLAYABLE_CODECS.has(s.codec.toLowerCase());
  if (UNPLAYABLE.has(s.suffix)) return true;
  if (MP4.has(s.suffix) && (s.bitDepth > 0 || /alac/i.test(s.codec || ''))) return true;
  if (s.contentType && audio && audio.canPlayType(s.contentType) === '') return true;
  return false;
}

class Player {
  constructor() {
    this.queue = [];
    this.index = -1;
    this.repeat = 'off';          // off | all | one
    this.remote = false;
    this.playing = false;
    this.offset = 0;              // a transcoded stream restarted at a seek point starts its currentTime at 0
    this.transcoded = false;
    this.remoteState = { position: 0, at: 0 };
    this.changeListeners = new Set();
    this.timeListeners = new Set();
  }

  attach(audio) {
    this.audio = audio;
    audio.addEventListener('timeupdate', () => this.tick());
    audio.addEventListener('play', () => { this.playing = true; this.changed(); });
    audio.addEventListener('pause', () => { this.playing = false; this.changed(); });
    audio.addEventListener('ended', () => this.ended());
    audio.addEventListener('error', () => this.failed());
    if ('mediaSession' in navigator) {
      const session = navigator.mediaSession;
      session.setActionHandler('play', () => this.toggle(true));
      session.setActionHandler('pause', () => this.toggle(false));
      session.setActionHandler('nexttrack', () => this.next());
      session.setActionHandler('previoustrack', () => this.previous());
      try { session.setActionHandler('seekto', details => this.seek(details.seekTime)); } catch { /* older browsers */ }
    }
    setInterval(() => { if (this.remote && this.playing) this.tick(); }, 500);
  }

  onChange(listener) { this.changeListeners.add(listener); return () => this.changeListeners.delete(listener); }
  onTime(listener) { this.timeListeners.add(listener); return () => this.timeListeners.delete(listener); }
  changed() { for (const listener of this.changeListeners) listener(this); }
  tick() { const time = this.time(); for (const listener of this.timeListeners) listener(time, this); }

  get current() { return this.queue[this.index]; }

  /** Seconds into the current song. */
  time() {
    if (this.remote) {
      const { position, at } = this.remoteState;
      return position + (this.playing ? (performance.now() - at) / 1000 : 0);
    }
    return this.offset + (this.audio?.currentTime || 0);
  }

  duration() {
    const known = this.current?.duration || 0;
    if (this.remote || this.transcoded) return known;
    return Number.isFinite(this.audio?.duration) ? this.audio.duration : known;
  }

  // ---- the queue ----

  /** Replaces the queue with `songs` and plays from `start`. */
  async playNow(songs, start = 0) {
    if (this.remote) {
      await this.jukebox('set', { id: songs.map(s => s.id) });
      this.queue = songs;
      await this.jukebox('skip', { index: start, offset: 0 });
      await this.jukebox('start');
      return;
    }
    this.queue = songs.slice();
    this.load(start, true);
  }

  async add(songs) {
    if (!songs.length) return;
    if (this.remote) await this.jukebox('add', { id: songs.map(s => s.id) });
    this.queue.push(...songs);
    announce(songs.length === 1 ? `Added “${songs[0].title}” to the queue` : `Added ${songs.length} songs to the queue`);
    this.changed();
  }

  async remove(i) {
    if (this.remote) await this.jukebox('remove', { index: i });
    const [gone] = this.queue.splice(i, 1);
    if (i < this.index) this.index--;
    else if (i === this.index && !this.remote) {
      if (this.index < this.queue.length) this.load(this.index, this.playing);
      else this.stop();
    }
    announce(`Removed “${gone?.title ?? ''}”`);
    this.changed();
  }

  /** Moves the song at `from` to `to` (both positions in the queue before the move). */
  async move(from, to) {
    if (from === to || from < 0 || to < 0 || from >= this.queue.length || to >= this.queue.length) return;
    const [moved] = this.queue.splice(from, 1);
    this.queue.splice(to, 0, moved);
    if (this.index === from) this.index = to;
    else if (from < this.index && to >= this.index) this.index--;
    else if (from > this.index && to <= this.index) this.index++;
    if (this.remote) await this.sendQueue();
    announce(`Moved “${moved.title}” to position ${to + 1}`);
    this.changed();
  }

  async clear() {
    if (this.remote) await this.jukebox('clear');
    this.queue = [];
    this.stop();
    announce('Queue cleared');
  }

  /** Shuffles what comes after the current song (the server's own shuffle in remote mode). */
  async shuffle() {
    if (this.remote) { await this.jukebox('shuffle'); announce('Queue shuffled'); return; }
    const head = this.queue.slice(0, this.index + 1), rest = this.queue.slice(this.index + 1);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    this.queue = head.concat(rest);
    announce('Queue shuffled');
    this.changed();
  }

  cycleRepeat() {
    this.repeat = { off: 'all', all: 'one', one: 'off' }[this.repeat];
    announce(`Repeat: ${this.repeat}`);
    this.changed();
  }

  // ---- transport ----

  async playAt(i) {
    if (this.remote) { await this.jukebox('skip', { index: i, offset: 0 }); await this.jukebox('start'); return; }
    this.load(i, true);
  }

  async toggle(play = !this.playing) {
    if (this.remote) { await this.jukebox(play ? 'start' : 'stop'); return; }
    if (!this.current) { if (this.queue.length) this.load(0, true); return; }
    if (play) this.audio.play().catch(error => announce(`Cannot play: ${error.message}`, true));
    else this.audio.pause();
  }

  async next() {
    if (this.remote) { if (this.index + 1 < this.queue.length) await this.playAt(this.index + 1); return; }
    if (this.index + 1 < this.queue.length) this.load(this.index + 1, true);
    else if (this.repeat === 'all' && this.queue.length) this.load(0, true);
  }

  async previous() {
    if (this.time() > 3) return this.seek(0);
    if (this.index > 0) return this.playAt(this.index - 1);
    return this.seek(0);
  }

  async seek(seconds) {
    seconds = Math.max(0, seconds);
    if (this.remote) { await this.jukebox('skip', { index: Math.max(0, this.index), offset: Math.floor(seconds) }); return; }
    if (!this.current) return;
    if (this.transcoded) {
      // A transcoded stream has no byte ranges to seek in: the server starts a new one at the time.
      this.offset = seconds;
      this.audio.src = streamURL(this.current.id, true, seconds);
      if (this.playing) this.audio.play().catch(() => {});
    } else {
      this.audio.currentTime = seconds;
    }
    this.tick();
  }

  stop() {
    if (!this.remote && this.audio) { this.audio.pause(); this.audio.removeAttribute('src'); this.audio.load(); }
    this.index = -1;
    this.playing = false;
    this.changed();
  }

  load(i, play) {
    const s = this.queue[i];
    if (!s) return;
    this.index = i;
    this.offset = 0;
    this.transcoded = needsTranscoding(s, this.audio);
    this.audio.src = streamURL(s.id, this.transcoded);
    this.audio.dataset.transcoded = String(this.transcoded);
    if (play) this.audio.play().catch(error => { if (error.name !== 'AbortError') announce(`Cannot play: ${error.message}`, true); });
    this.nowPlaying(s);
    this.changed();
  }

  nowPlaying(s) {
    rest('scrobble', { id: s.id, submission: false }).catch(() => {});
    if ('mediaSession' in navigator && window.MediaMetadata) {
      navigator.mediaSession.metadata = new MediaMetadata({
        title: s.title, artist: s.artist, album: s.album,
        artwork: s.coverArt ? [{ src: `/rest/getCoverArt?id=${encodeURIComponent(s.coverArt)}&size=512`, sizes: '512x512' }] : []
      });
    }
  }

  ended() {
    const s = this.current;
    if (s) rest('scrobble', { id: s.id, submission: true }).catch(() => {});
    if (this.repeat === 'one') this.load(this.index, true);
    else if (this.index + 1 < this.queue.length || this.repeat === 'all') this.next();
    else { this.playing = false; this.changed(); }
  }

  failed() {
    const s = this.current;
    if (!s || !this.audio.getAttribute('src')) return;
    if (!this.transcoded) {
      // The browser could not play the original after all: ask the server for Opus.
      this.transcoded = true;
      this.audio.dataset.transcoded = 'true';
      this.audio.src = streamURL(s.id, true, this.time());
      this.audio.play().catch(() => {});
      return;
    }
    announce(`Cannot play “${s.title}”`, true);
  }

  // ---- the server's player ----

  async jukebox(action, params = {}) {
    try { return await rest('jukeboxControl', { action, ...params }); }
    catch (error) { announce(`Server player: ${error.message}`, true); throw error; }
  }

  /** The whole queue to the server (a reorder: jukeboxControl has no move), keeping the song and the time. */
  async sendQueue() {
    const playing = this.playing, position = Math.floor(this.time()), index = this.index;
    await this.jukebox('set', { id: this.queue.map(s => s.id) });
    if (index >= 0) {
      await this.jukebox('skip', { index, offset: position });
      if (!playing) await this.jukebox('stop');
    }
  }

  /** Switches between the browser and the server's player; the queue and the place in it go along. */
  async setRemote(on) {
    if (on === this.remote) return;
    if (on) {
      const queue = this.queue, index = this.index, position = Math.floor(this.time());
      if (this.audio) this.audio.pause();
      this.remote = true;
      this.playing = false;
      if (!this.events) this.follow();
      if (queue.length) {
        await this.jukebox('set', { id: queue.map(s => s.id) });
        await this.jukebox('skip', { index: Math.max(0, index), offset: index >= 0 ? position : 0 });
        await this.jukebox('start');   // the music moves to the server's speakers
      } else {
        await this.refreshRemote();
      }
      announce('Playing on the server');
    } else {
      const index = this.index, position = this.time();
      this.remote = false;
      this.playing = false;
      this.index = -1;
      if (index >= 0 && this.queue[index]) { this.load(index, false); if (position > 1) this.seek(position); }
      announce('Playing in this browser');
    }
    this.changed();
  }

  /** Listens to /api/events while signed in: the server's player (followed in remote mode) and library changes
   * (passed on as a `library` event on `window`). */
  follow() {
    this.events?.close();
    this.events = new EventSource('/api/events');
    this.events.addEventListener('player', event => {
      try { this.applyRemote(JSON.parse(event.data)); } catch { /* a malformed event: wait for the next */ }
    });
    this.events.addEventListener('library', event => {
      try { window.dispatchEvent(new CustomEvent('library', { detail: JSON.parse(event.data) })); } catch { /* as above */ }
    });
  }

  unfollow() { this.events?.close(); this.events = null; }

  async refreshRemote() {
    const answer = await this.jukebox('get');
    const list = answer.jukeboxPlaylist;
    this.queue = (list.entry || []).map(song);
    this.applyRemote({ playing: list.playing, index: list.currentIndex, position: list.position,
                       queue: this.queue.map(s => s.id) }, true);
  }

  applyRemote(state, known = false) {
    if (!this.remote) return;
    const ids = (state.queue || []).map(String);
    const same = ids.length === this.queue.length && ids.every((id, i) => this.queue[i]?.id === id);
    this.index = state.index ?? -1;
    this.playing = !!state.playing;
    this.remoteState = { position: state.position || 0, at: performance.now() };
    if (!same && !known) {
      // Another client changed the queue: keep what is known, fetch the rest.
      const byID = new Map(this.queue.map(s => [s.id, s]));
      if (state.current) byID.set(String(state.current.id), song(state.current));
      this.queue = ids.map(id => byID.get(id) || { id, title: `Song ${id}`, artist: '', album: '' });
      if (ids.some(id => !byID.has(id))) this.refreshRemote().catch(() => {});
    } else if (state.current && this.queue[this.index]) {
      this.queue[this.index] = { ...this.queue[this.index], ...song(state.current) };
    }
    this.changed();
    this.tick();
  }
}

export const player = new Player();
export { APIError };
