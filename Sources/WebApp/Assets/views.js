// The library's pages. Each view fills <main> and returns what to do when the page is left (stop its lists).
// Lists that can be long (albums, songs, search results, an album's tracks) are virtualised.
import { api, rest, session } from './api.js';
import { h, fill, clock, cover, announce } from './dom.js';
import { VirtualList } from './virtual.js';
import { player, song } from './player.js';

const scroller = () => document.getElementById('main');

function heading(text, ...extra) {
  return h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, text), ...extra);
}

function failure(main, error) {
  fill(main, h('p', { class: 'error', role: 'alert' }, `Could not load this page: ${error.message}`));
}

/** One song in a list: play, title and artist, album, length, add to queue. */
function songRow(s, { play, number, showAlbum = true }) {
  return h('div', { class: 'song' },
    h('button', { class: 'icon', 'aria-label': `Play ${s.title}`, onclick: play }, '▶'),
    number !== undefined ? h('span', { class: 'number' }, number) : null,
    h('span', { class: 'text' },
      h('span', { class: 'title' }, s.title),
      h('span', { class: 'artist' }, s.artist, showAlbum && s.album ? ' — ' : '',
        showAlbum && s.albumId ? h('a', { href: `#/album/${encodeURIComponent(s.albumId)}` }, s.album) : '')),
    h('span', { class: 'time' }, clock(s.duration)),
    h('button', { class: 'icon', 'aria-label': `Add ${s.title} to the queue`, onclick: () => player.add([s]) }, '+'));
}

/** A virtualised list of songs already in memory (an album, a playlist). */
function songList(main, songs, label, { numbers = false, showAlbum = true, editable = null } = {}) {
  let dragged = -1;
  const list = new VirtualList({
    scroller: scroller(), rowHeight: 52, count: songs.length, pageSize: 500, label,
    load: (offset, limit) => songs.slice(offset, offset + limit),
    render: (s, i) => {
      const row = songRow(s, { play: () => player.playNow(songs, i), number: numbers ? (s.track || i + 1) : undefined, showAlbum });
      if (!editable) return row;
      row.append(h('button', { class: 'icon remove', 'aria-label': `Remove ${s.title} from the playlist`,
                               onclick: () => editable.remove(i).catch(error => announce(error.message, true)) }, '✕'));
      row.draggable = true;
      row.addEventListener('dragstart', event => { dragged = i; event.dataTransfer.setData('text/plain', String(i)); });
      row.addEventListener('dragover', event => event.preventDefault());
      row.addEventListener('drop', event => {
        event.preventDefault();
        if (dragged >= 0 && dragged !== i) editable.move(dragged, i).catch(error => announce(error.message, true));
        dragged = -1;
      });
      return row;
    }
  });
  main.append(list.element);
  list.update();
  return list;
}

/** A virtualised list of /api/query's matches for `q`, fetched page by page. */
async function queryList(main, q, label, sort) {
  const params = { q, limit: 100, offset: 0 };
  if (sort) params.sort = sort;
  const first = await api('query', { params });
  const pages = new Map([[0, first.items]]);
  const list = new VirtualList({
    scroller: scroller(), rowHeight: 52, count: first.total, pageSize: 100, label,
    load: async (offset, limit) => pages.get(offset) || (await api('query', { params: { ...params, offset, limit } })).items,
    render: item => { const s = song(item); return songRow(s, { play: () => player.playNow([s]) }); }
  });
  main.append(list.element);
  list.update();
  return { list, total: first.total };
}

function albumCard(album) {
  return h('a', { class: 'album-card', href: `#/album/${encodeURIComponent(album.id)}` },
    cover(album.coverArt, 160),
    h('span', { class: 'title' }, album.name ?? album.title ?? ''),
    h('span', { class: 'artist' }, album.artist ?? ''));
}

export async function albums(main) {
  fill(main, heading('Albums'));
  let count = 0;
  try { count = (await api('status')).albums || 0; } catch { /* the list finds its end */ }
  const list = new VirtualList({
    scroller: scroller(), rowHeight: 236, minColumnWidth: 170, count: count || 120, pageSize: 120, label: 'Albums', growable: true,
    load: async (offset, size) => (await rest('getAlbumList2', { type: 'alphabeticalByName', size, offset })).albumList2.album || [],
    render: albumCard
  });
  main.append(list.element);
  list.update();
  return () => list.destroy();
}

export async function album(main, id) {
  const answer = await rest('getAlbum', { id });
  const a = answer.album, songs = (a.song || []).map(song);
  fill(main, h('div', { class: 'album-head' },
    cover(a.coverArt, 200, `Cover of ${a.name}`),
    h('div', {},
      h('h1', { tabindex: '-1' }, a.name),
      h('p', {}, a.artistId ? h('a', { href: `#/artist/${encodeURIComponent(a.artistId)}` }, a.artist) : a.artist),
      h('p', { class: 'muted' }, [a.year, `${songs.length} songs`, clock(a.duration)].filter(Boolean).join(' · ')),
      h('div', { class: 'actions' },
        h('button', { class: 'primary', onclick: () => player.playNow(songs) }, 'Play'),
        h('button', { onclick: () => player.add(songs) }, 'Add to queue')))));
  const list = songList(main, songs, `Tracks of ${a.name}`, { numbers: true, showAlbum: false });
  return () => list.destroy();
}

export async function artists(main) {
  const answer = await rest('getArtists');
  const all = (answer.artists.index || []).flatMap(index => index.artist || []);
  fill(main, heading('Artists', h('span', { class: 'muted' }, `${all.length}`)));
  const list = new VirtualList({
    scroller: scroller(), rowHeight: 44, count: all.length, pageSize: 1000, label: 'Artists',
    load: (offset, limit) => all.slice(offset, offset + limit),
    render: artist => h('div', { class: 'line' },
      h('a', { href: `#/artist/${encodeURIComponent(artist.id)}` }, artist.name),
      h('span', { class: 'muted' }, `${artist.albumCount ?? ''} albums`))
  });
  main.append(list.element);
  list.update();
  return () => list.destroy();
}

export async function artist(main, id) {
  const a = (await rest('getArtist', { id })).artist;
  fill(main, heading(a.name), h('div', { class: 'grid', role: 'list', 'aria-label': `Albums by ${a.name}` },
    (a.album || []).map(x => { const card = albumCard(x); card.setAttribute('role', 'listitem'); return card; })));
}

export async function songs(main) {
  fill(main, heading('Songs'));
  const { list, total } = await queryList(main, '', 'Songs');   // the API's order: artist, album, title, path
  main.querySelector('.page-head').append(h('span', { class: 'muted' }, `${total}`));
  return () => list.destroy();
}

export async function genres(main) {
  const all = (await rest('getGenres')).genres.genre || [];
  fill(main, heading('Genres'), h('ul', { class: 'lines' }, all.map(g =>
    h('li', { class: 'line' },
      h('a', { href: `#/search/${encodeURIComponent(`genre:"${g.value}"`)}` }, g.value),
      h('span', { class: 'muted' }, `${g.songCount} songs · ${g.albumCount} albums`)))));
}

export async function search(main, q) {
  const input = document.getElementById('search-input');
  if (input.value !== q) input.value = q;
  fill(main, heading(`Search: ${q}`));
  try {
    const { list, total } = await queryList(main, q, `Songs matching ${q}`);
    const head = main.querySelector('.page-head');
    head.append(h('span', { class: 'muted', id: 'search-total' }, total === 1 ? '1 song' : `${total} songs`));
    announce(`${total} songs match`);
    return () => list.destroy();
  } catch (error) {
    if (error.status !== 400) throw error;
    const position = error.detail?.position;
    main.append(h('p', { class: 'error', role: 'alert' }, error.message),
      position !== undefined ? h('pre', { class: 'caret', 'aria-hidden': 'true' }, `${q}\n${' '.repeat(position)}^`) : null);
  }
}

export async function playlists(main) {
  const all = (await rest('getPlaylists')).playlists.playlist || [];
  fill(main, heading('Playlists', h('a', { class: 'button primary', href: '#/smart' }, 'New smart playlist')),
    h('ul', { class: 'lines' }, all.map(p => h('li', { class: 'line' },
      h('a', { href: `#/playlist/${encodeURIComponent(p.id)}` }, p.name),
      h('span', { class: 'muted' }, `${p.songCount} songs${p.comment ? ` · ${p.comment}` : ''}`)))),
    all.length ? null : h('p', { class: 'muted' }, 'No playlists yet.'));
}

export async function playlist(main, id) {
  const p = (await rest('getPlaylist', { id })).playlist;
  const songs = (p.entry || []).map(song);
  fill(main, heading(p.name,
    h('span', { class: 'muted' }, `${songs.length} songs`),
    h('button', { class: 'primary', onclick: () => player.playNow(songs) }, 'Play'),
    h('button', { onclick: () => player.add(songs) }, 'Add to queue')),
    p.comment ? h('p', { class: 'muted' }, p.comment) : null);
  const list = songList(main, songs, `Songs of ${p.name}`, { editable: p.readonly ? null : {
    // A static playlist the user may change: remove a song, or drag one to another place (the whole list is
    // sent again: createPlaylist with playlistId replaces its songs).
    remove: async i => {
      await rest('updatePlaylist', { playlistId: id, songIndexToRemove: i });
      announce(`Removed “${songs[i].title}” from ${p.name}`);
      songs.splice(i, 1);
      list.refresh(songs.length);
    },
    move: async (from, to) => {
      const [moved] = songs.splice(from, 1);
      songs.splice(to, 0, moved);
      await rest('createPlaylist', { playlistId: id, songId: songs.map(x => x.id) });
      list.refresh(songs.length);
    }
  } });
  return () => list.destroy();
}

export async function status(main) {
  const show = async () => {
    const s = await api('status');
    fill(main, heading('Library'),
      h('dl', { class: 'stats' },
        h('dt', {}, 'Songs'), h('dd', {}, s.items), h('dt', {}, 'Albums'), h('dd', {}, s.albums),
        h('dt', {}, 'Artists'), h('dd', {}, s.artists), h('dt', {}, 'Files that could not be read'), h('dd', {}, s.failures ?? 0),
        h('dt', {}, 'Scan'), h('dd', { 'aria-live': 'polite' }, s.scanning ? `scanning${s.progress ? ` ${JSON.stringify(s.progress)}` : '…'}` : 'idle')),
      session.admin ? h('button', { class: 'primary', onclick: async () => {
        try { await api('scan', { method: 'POST' }); announce('Scan started'); setTimeout(() => show().catch(() => {}), 1000); }
        catch (error) { announce(error.message, true); }
      } }, 'Scan now') : null);
    return s;
  };
  await show();
  const timer = setInterval(() => show().catch(() => {}), 3000);
  return () => clearInterval(timer);
}

/** Folders: the library's top folders (getIndexes), then each folder's subfolders and songs (getMusicDirectory). */
export async function folders(main, id) {
  if (!id) {
    const indexes = (await rest('getIndexes')).indexes;
    const top = (indexes.index || []).flatMap(index => index.artist || []);
    const songs = (indexes.child || []).map(song);
    fill(main, heading('Folders'), h('ul', { class: 'lines' }, top.map(folder =>
      h('li', { class: 'line' }, h('a', { href: `#/folders/${encodeURIComponent(folder.id)}` }, folder.name)))));
    if (songs.length) { const list = songList(main, songs, 'Songs in the top folder'); return () => list.destroy(); }
    return;
  }
  const directory = (await rest('getMusicDirectory', { id })).directory;
  const children = directory.child || [];
  const songs = children.filter(child => !child.isDir).map(song);
  fill(main, heading(directory.name,
    directory.parent ? h('a', { class: 'button', href: `#/folders/${encodeURIComponent(directory.parent)}` }, 'Up') : h('a', { class: 'button', href: '#/folders' }, 'Up'),
    songs.length ? h('button', { class: 'primary', onclick: () => player.playNow(songs) }, 'Play') : null),
    h('ul', { class: 'lines' }, children.filter(child => child.isDir).map(folder =>
      h('li', { class: 'line' }, h('a', { href: `#/folders/${encodeURIComponent(folder.id)}` }, folder.title ?? folder.name ?? '')))));
  const list = songList(main, songs, `Songs in ${directory.name}`);
  return () => list.destroy();
}
