// Building the page's elements. Text from the library is only ever set with `textContent` (a title
// "<script>…" shows as those characters): `h` turns every string child into a text node, and nothing in the
// app assigns innerHTML.

/** h('button', {class: 'x', onclick: f, 'aria-label': 'Play'}, 'text', child…) → an element. */
export function h(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else if (name === 'class') element.className = value;
    else if (name in element && typeof value !== 'string') element[name] = value;
    else element.setAttribute(name, value === true ? '' : value);
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces everything in `element` with `children`. */
export function fill(element, ...children) {
  element.replaceChildren();
  append(element, children);
  return element;
}

/** "3:07" (or "1:02:03") from seconds. */
export function clock(seconds) {
  if (!Number.isFinite(seconds) || seconds < 0) seconds = 0;
  const s = Math.floor(seconds % 60), m = Math.floor(seconds / 60) % 60, hours = Math.floor(seconds / 3600);
  return (hours ? `${hours}:${String(m).padStart(2, '0')}` : `${m}`) + `:${String(s).padStart(2, '0')}`;
}

const status = () => document.getElementById('status');

/** Says `message` in the status line (an aria-live region: screen readers read it out). */
export function announce(message, isError = false) {
  const line = status();
  line.textContent = message;
  line.classList.toggle('error', isError);
  clearTimeout(announce.timer);
  if (message) announce.timer = setTimeout(() => { if (line.textContent === message) line.textContent = ''; }, 4000);
}

// A note on a plain square, for a song or album whose cover does not load.
export const PLACEHOLDER = 'data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" fill="#8884"/>' +
  '<path d="M20 32a4 4 0 1 1-2-3.5V16l14-3v15a4 4 0 1 1-2-3.5V17.5l-10 2.2z" fill="#8888"/></svg>');

/** A cover image for `coverArt` (lazy; a plain square when there is none or it fails). */
export function cover(coverArt, size, alt = '') {
  const image = h('img', { class: 'cover', alt, width: size, height: size, loading: 'lazy', decoding: 'async' });
  image.addEventListener('error', () => { image.src = PLACEHOLDER; }, { once: true });
  if (!coverArt) { image.src = PLACEHOLDER; return image; }
  // The address is set once the image has stayed on the page a moment: a grid flung past thousands of albums
  // asks for (and decodes) none of the covers that only flashed by.
  setTimeout(() => { if (image.isConnected) image.src = `/rest/getCoverArt?id=${encodeURIComponent(coverArt)}&size=${size * 2}`; }, 120);
  return image;
}

/** Calls `f` `ms` after the last of a burst of calls. */
export function debounce(f, ms) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => f(...args), ms); };
}
