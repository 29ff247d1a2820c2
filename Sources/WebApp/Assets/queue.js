// The queue (reorder by drag and drop or by the Move up/down buttons, remove, clear, shuffle, repeat) and the
// now-playing page (cover, lyrics whose synced lines follow the music).
import { rest } from './api.js';
import { h, fill, clock, cover } from './dom.js';
import { VirtualList } from './virtual.js';
import { player } from './player.js';

export function queue(main) {
  const count = () => h('span', { class: 'muted', id: 'queue-count' }, `${player.queue.length} songs`);
  const repeat = h('button', { 'aria-label': 'Repeat', onclick: () => player.cycleRepeat() });
  const head = h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'Queue'), count(),
    h('button', { onclick: () => player.shuffle() }, 'Shuffle'), repeat,
    h('button', { onclick: () => player.clear() }, 'Clear'));
  let dragged = -1;
  const list = new VirtualList({
    scroller: document.getElementById('main'), rowHeight: 52, count: player.queue.length, pageSize: 1000, label: 'Queue',
    load: (offset, limit) => player.queue.slice(offset, offset + limit),
    render: (s, i) => {
      const row = h('div', { class: 'song queued' + (i === player.index ? ' current' : ''), draggable: 'true',
                             'aria-current': i === player.index ? 'true' : null },
        h('span', { class: 'grip', 'aria-hidden': 'true' }, '⠿'),
        h('button', { class: 'icon', 'aria-label': `Play ${s.title}`, onclick: () => player.playAt(i) }, i === player.index && player.playing ? '♪' : '▶'),
        h('span', { class: 'text' }, h('span', { class: 'title' }, s.title), h('span', { class: 'artist' }, s.artist)),
        h('span', { class: 'time' }, clock(s.duration)),
        h('button', { class: 'icon up', 'aria-label': `Move ${s.title} up`, disabled: i === 0, onclick: () => moveBy(i, -1, 'up') }, '↑'),
        h('button', { class: 'icon down', 'aria-label': `Move ${s.title} down`, disabled: i === player.queue.length - 1, onclick: () => moveBy(i, 1, 'down') }, '↓'),
        h('button', { class: 'icon remove', 'aria-label': `Remove ${s.title} from the queue`, onclick: () => player.remove(i) }, '✕'));
      row.addEventListener('dragstart', event => { dragged = i; event.dataTransfer.effectAllowed = 'move'; event.dataTransfer.setData('text/plain', String(i)); row.classList.add('dragging'); });
      row.addEventListener('dragend', () => row.classList.remove('dragging'));
      row.addEventListener('dragover', event => { event.preventDefault(); row.classList.add('drop'); });
      row.addEventListener('dragleave', () => row.classList.remove('drop'));
      row.addEventListener('drop', event => {
        event.preventDefault();
        row.classList.remove('drop');
        const from = dragged >= 0 ? dragged : Number(event.dataTransfer.getData('text/plain'));
        dragged = -1;
        if (Number.isInteger(from)) player.move(from, i);
      });
      return row;
    }
  });
  async function moveBy(i, step, which) {
    await player.move(i, i + step);
    // Keyboard users keep their place: focus follows the moved song.
    const row = list.elementAt(i + step);
    (row?.querySelector(`.${which}:not([disabled])`) || row?.querySelector('.remove'))?.focus();
  }
  const empty = h('p', { class: 'muted' }, 'The queue is empty: add songs from an album, a playlist or a search.');
  const redraw = () => {
    head.querySelector('#queue-count').replaceWith(count());
    repeat.textContent = `Repeat: ${player.repeat}`;
    repeat.disabled = player.remote;
    empty.hidden = player.queue.length > 0;
    list.refresh(player.queue.length);
  };
  fill(main, head, empty, list.element);
  redraw();
  const stop = player.onChange(redraw);
  return () => { stop(); list.destroy(); };
}

export function nowPlaying(main) {
  const art = h('div', { class: 'now-cover' });
  const title = h('h1', { tabindex: '-1' }), artist = h('p'), album = h('p', { class: 'muted' });
  const lyrics = h('div', { class: 'lyrics', 'aria-label': 'Lyrics', role: 'region' });
  fill(main, h('div', { class: 'now-page' }, art, h('div', { class: 'now-text' }, title, artist, album, lyrics)));
  let shownID, lines = [], synced = false, currentLine = -1;   // shownID undefined: nothing drawn yet
  const draw = async () => {
    const s = player.current;
    if ((s?.id ?? null) === shownID) return;
    shownID = s?.id ?? null;
    title.textContent = s ? s.title : 'Nothing playing';
    artist.textContent = s?.artist ?? '';
    fill(album, s?.albumId ? h('a', { href: `#/album/${encodeURIComponent(s.albumId)}` }, s.album) : (s?.album ?? ''));
    fill(art, s ? cover(s.coverArt, 320, `Cover of ${s.album}`) : null);
    fill(lyrics);
    lines = []; synced = false; currentLine = -1;
    if (!s) return;
    try {
      const sets = (await rest('getLyricsBySongId', { id: s.id })).lyricsList?.structuredLyrics || [];
      if (shownID !== s.id) return;
      const chosen = sets.find(set => set.synced) || sets[0];
      if (!chosen) { fill(lyrics, h('p', { class: 'muted' }, 'No lyrics.')); return; }
      synced = !!chosen.synced;
      lines = (chosen.line || []).map(line => ({ start: (line.start ?? 0) + (chosen.offset ?? 0), element: h('p', { class: 'lyric' }, line.value || ' ') }));
      fill(lyrics, lines.map(line => line.element));
      follow(player.time());
    } catch { fill(lyrics, h('p', { class: 'muted' }, 'No lyrics.')); }
  };
  const follow = time => {
    if (!synced || !lines.length) return;
    const ms = time * 1000;
    let at = -1;
    for (let i = 0; i < lines.length && lines[i].start <= ms; i++) at = i;
    if (at === currentLine) return;
    lines[currentLine]?.element.classList.remove('active');
    lines[currentLine]?.element.removeAttribute('aria-current');
    currentLine = at;
    const line = lines[at]?.element;
    if (line) { line.classList.add('active'); line.setAttribute('aria-current', 'true'); line.scrollIntoView({ block: 'center', behavior: 'smooth' }); }
  };
  draw();
  const stopChange = player.onChange(() => draw());
  const stopTime = player.onTime(follow);
  return () => { stopChange(); stopTime(); };
}
