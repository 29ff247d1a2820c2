// The app shell: sign-in, the router (location.hash: #/albums, #/album/ID, #/search/QUERY …), the player bar.
import { login, logout, resume, onSignedOut, session } from './api.js';
import { h, fill, clock, announce, PLACEHOLDER } from './dom.js';
import { player } from './player.js';
import * as views from './views.js';
import { queue, nowPlaying } from './queue.js';
import { smartEditor } from './smart.js';

const $ = id => document.getElementById(id);

const routes = {
  albums: main => views.albums(main),
  album: (main, id) => views.album(main, id),
  artists: main => views.artists(main),
  artist: (main, id) => views.artist(main, id),
  songs: main => views.songs(main),
  genres: main => views.genres(main),
  folders: (main, id) => views.folders(main, id),
  search: (main, q) => views.search(main, q),
  playlists: main => views.playlists(main),
  playlist: (main, id) => views.playlist(main, id),
  smart: main => smartEditor(main),
  queue: main => queue(main),
  now: main => nowPlaying(main),
  status: main => views.status(main)
};

let leave = null, routing = 0;

async function route() {
  if (!session.user) return;
  const [name, ...rest] = location.hash.replace(/^#\/?/, '').split('/');
  const view = routes[name];
  if (!view) { location.replace('#/albums'); return; }
  const argument = decodeURIComponent(rest.join('/'));
  const ticket = ++routing;
  if (leave) { try { leave(); } catch { /* a view's cleanup must not stop the next */ } leave = null; }
  const main = $('main');
  main.scrollTop = 0;
  main.setAttribute('aria-busy', 'true');
  for (const link of document.querySelectorAll('#nav a')) {
    link.toggleAttribute('aria-current', link.getAttribute('href') === `#/${name}`);
    if (link.hasAttribute('aria-current')) link.setAttribute('aria-current', 'page');
  }
  closeMenu();
  try {
    const cleanup = await view(main, argument);
    if (ticket !== routing) { cleanup?.(); return; }
    leave = cleanup || null;
    document.title = `${main.querySelector('h1')?.textContent || 'mlib'} · mlib`;
    main.querySelector('h1')?.focus({ preventScroll: true });
  } catch (error) {
    if (ticket === routing && error.status !== 401) fill(main, h('p', { class: 'error', role: 'alert' }, `Could not load this page: ${error.message}`));
  } finally {
    // data-drawn: the route <main> shows, for scripts that must not read the page being left behind.
    if (ticket === routing) { main.removeAttribute('aria-busy'); main.dataset.drawn = location.hash; }
  }
}

function showLogin(message = '') {
  if (leave) { leave(); leave = null; }
  player.unfollow();
  player.remote = false;
  player.stop();
  player.queue = [];
  $('remote-toggle').checked = false;
  $('shell').hidden = true;
  $('login').hidden = false;
  $('login-error').textContent = message;
  announce('');
  $('login-password').value = '';
  $('login-user').focus();
}

function showShell() {
  $('login').hidden = true;
  $('shell').hidden = false;
  $('who').textContent = session.user;
  $('remote-toggle').disabled = !session.admin;
  player.follow();
  $('remote-toggle').parentElement.title = session.admin ? 'Play on the server’s own player (the one MPD clients drive)' : 'The server’s player is for admins';
  route();
}

function closeMenu() {
  $('nav').classList.remove('open');
  $('menu-button').setAttribute('aria-expanded', 'false');
}

function drawPlayer() {
  const s = player.current;
  $('now-title').textContent = s ? s.title : 'Nothing playing';
  $('now-artist').textContent = s ? s.artist : '';
  const art = $('now-cover');
  art.onerror = () => { art.onerror = null; art.src = PLACEHOLDER; };
  art.src = s?.coverArt ? `/rest/getCoverArt?id=${encodeURIComponent(s.coverArt)}&size=96` : PLACEHOLDER;
  art.alt = s ? `Cover of ${s.album}` : '';
  const play = $('play');
  play.classList.toggle('playing', player.playing);
  play.setAttribute('aria-label', player.playing ? 'Pause' : 'Play');
  $('prev').disabled = !s;
  $('next').disabled = !s || (player.index + 1 >= player.queue.length && player.repeat !== 'all');
  $('where').textContent = player.remote ? 'on the server' : '';
  $('remote-toggle').checked = player.remote;
  document.body.dataset.remote = String(player.remote);
  drawTime(player.time());
}

function drawTime(time) {
  const total = player.duration();
  $('elapsed').textContent = clock(time);
  $('total').textContent = clock(total);
  const seek = $('seek');
  seek.max = String(Math.max(0, Math.floor(total)));
  if (!seek.matches(':active')) seek.value = String(Math.floor(time));
  seek.setAttribute('aria-valuetext', `${clock(time)} of ${clock(total)}`);
}

function wire() {
  player.attach($('audio'));
  player.onChange(drawPlayer);
  player.onTime(drawTime);
  onSignedOut(() => showLogin('Your session has ended: sign in again.'));

  $('login-form').addEventListener('submit', async event => {
    event.preventDefault();
    const button = event.target.querySelector('button');
    button.disabled = true;
    $('login-error').textContent = '';
    try {
      await login($('login-user').value, $('login-password').value);
      if (!location.hash || location.hash === '#/') location.hash = '#/albums';
      showShell();
    } catch (error) {
      $('login-error').textContent = error.status === 401 ? 'Wrong user or password.' : error.message;
    } finally { button.disabled = false; }
  });
  $('logout').addEventListener('click', async () => {
    try { await logout(); } catch { /* signed out on this side all the same */ }
    showLogin('Signed out.');
  });
  $('search').addEventListener('submit', event => {
    event.preventDefault();
    const q = $('search-input').value.trim();
    if (q) location.hash = `#/search/${encodeURIComponent(q)}`;
  });
  $('menu-button').addEventListener('click', () => {
    const open = $('nav').classList.toggle('open');
    $('menu-button').setAttribute('aria-expanded', String(open));
  });
  $('remote-toggle').addEventListener('change', event => {
    player.setRemote(event.target.checked).catch(error => { announce(error.message, true); event.target.checked = player.remote; });
  });
  $('play').addEventListener('click', () => player.toggle());
  $('next').addEventListener('click', () => player.next());
  $('prev').addEventListener('click', () => player.previous());
  $('seek').addEventListener('change', event => player.seek(Number(event.target.value)));
  window.addEventListener('hashchange', route);
  // The library changed (a scan): pages that are cheap to redraw and hold no scroll position are redrawn.
  let libraryVersion = null;
  window.addEventListener('library', event => {
    const version = event.detail?.version;
    if (libraryVersion !== null && version !== libraryVersion && /^#\/(genres|playlists|status)/.test(location.hash)) route();
    libraryVersion = version;
  });
  document.addEventListener('keydown', event => {
    // Space plays and pauses when no control has the focus; "/" goes to the search box.
    const typing = /^(INPUT|TEXTAREA|SELECT|BUTTON|A)$/.test(document.activeElement?.tagName);
    if (event.key === '/' && !typing) { event.preventDefault(); $('search-input').focus(); }
    else if (event.key === ' ' && !typing && session.user) { event.preventDefault(); player.toggle(); }
    else if (event.key === 'Escape') closeMenu();
  });
}

wire();
drawPlayer();
resume().then(answer => { if (answer) showShell(); else showLogin(); });
