// A smart playlist's rule, in the query language, with its matches shown as it is typed (/api/smart-preview,
// debounced so a burst of keys makes one request), then saved (/api/smart-playlists).
import { api } from './api.js';
import { h, fill, clock, debounce, announce } from './dom.js';
import { player, song } from './player.js';

export function smartEditor(main) {
  const name = h('input', { id: 'smart-name', required: true, autocomplete: 'off' });
  const rule = h('textarea', { id: 'smart-rule', rows: 3, spellcheck: 'false', required: true,
                               placeholder: 'genre:jazz year:1950..1965 rating >= 4', 'aria-describedby': 'smart-help' });
  const sort = h('input', { id: 'smart-sort', autocomplete: 'off', spellcheck: 'false', placeholder: 'year,title' });
  const summary = h('p', { id: 'smart-total', class: 'muted', 'aria-live': 'polite' });
  const caret = h('pre', { class: 'caret', 'aria-hidden': 'true', hidden: true });
  const results = h('ol', { class: 'lines preview', 'aria-label': 'Matching songs' });
  let asked = 0, abort = null, matches = [];

  const preview = async () => {
    const text = rule.value.trim();
    abort?.abort();
    caret.hidden = true;
    if (!text) { summary.textContent = ''; fill(results); matches = []; return; }
    const ticket = ++asked;
    abort = new AbortController();
    const body = { rule: text, limit: 50 };
    if (sort.value.trim()) body.sort = sort.value.trim();
    summary.textContent = 'Looking…';
    try {
      const answer = await api('smart-preview', { method: 'POST', body, signal: abort.signal });
      if (ticket !== asked) return;
      matches = answer.items.map(song);
      summary.classList.remove('error');
      summary.textContent = answer.total === 1 ? '1 song matches' : `${answer.total} songs match`
        + (answer.total > matches.length ? ` (the first ${matches.length} shown)` : '');
      fill(results, answer.items.map(item => h('li', { class: 'line' },
        h('span', { class: 'text' }, h('span', { class: 'title' }, item.title), h('span', { class: 'artist' }, `${item.artist ?? ''} — ${item.album ?? ''}`)),
        h('span', { class: 'time' }, clock(item.duration)))));
    } catch (error) {
      if (error.name === 'AbortError' || ticket !== asked) return;
      summary.classList.add('error');
      summary.textContent = error.message;
      fill(results);
      const position = error.detail?.position;
      if (position !== undefined) { caret.textContent = `${text}\n${' '.repeat(position)}^`; caret.hidden = false; }
    }
  };
  const later = debounce(preview, 250);
  rule.addEventListener('input', later);
  sort.addEventListener('input', later);

  const form = h('form', { class: 'smart card' },
    h('label', { for: 'smart-name' }, 'Name'), name,
    h('label', { for: 'smart-rule' }, 'Rule'), rule,
    h('p', { id: 'smart-help', class: 'muted' }, 'The query language of mlib ls: artist:björk year:1990..1999, plain words, or rating >= 4 AND NOT genre:pop.'),
    h('label', { for: 'smart-sort' }, 'Sort (optional)'), sort,
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save'),
      h('button', { type: 'button', onclick: () => player.playNow(matches) }, 'Play matches')));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const body = { name: name.value.trim(), rule: rule.value.trim() };
    if (sort.value.trim()) body.sort = sort.value.trim();
    try {
      const { id } = await api('smart-playlists', { method: 'POST', body });
      announce(`Saved “${body.name}”`);
      location.hash = `#/playlist/${encodeURIComponent(id)}`;
    } catch (error) { announce(`Not saved: ${error.message}`, true); }
  });
  fill(main, h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, 'New smart playlist')), form, summary, caret, results);
  name.focus();
}
