// The page's only way to the server: mlib's JSON API (/api/*) and the Subsonic API (/rest/*, f=json), both
// authenticated by the session cookie. The CSRF token from the login answer is kept in memory only (never in
// storage a script could read later) and sent on every call; the server checks it on state changes.
// A 401 anywhere means the session is gone: `onSignedOut` takes the page back to the login form.

let csrf = null;
let signedOut = () => {};

export const session = { user: null, admin: false };

export function onSignedOut(handler) { signedOut = handler; }

export class APIError extends Error {
  constructor(message, status, detail) { super(message); this.status = status; this.detail = detail; }
}

function remember(answer) {
  csrf = answer.csrf;
  session.user = answer.user;
  session.admin = !!answer.admin;
  return answer;
}

function forget() { csrf = null; session.user = null; session.admin = false; }

async function request(url, { method = 'GET', body, signal } = {}) {
  const headers = { Accept: 'application/json' };
  if (csrf) headers['X-CSRF-Token'] = csrf;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
                                  credentials: 'same-origin', signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new APIError('the server does not answer', 0);
  }
  if (response.status === 401 && !url.startsWith('/api/login') && !url.startsWith('/api/session')) {
    forget();
    signedOut();
    throw new APIError('signed out', 401);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let answer = null;
  try { answer = text ? JSON.parse(text) : null; } catch { /* not JSON: the status says enough */ }
  if (!response.ok) {
    const retry = response.headers.get('Retry-After');
    const message = answer?.error || `${response.status} ${response.statusText}`;
    throw new APIError(retry ? `${message} (try again in ${retry} s)` : message, response.status, answer);
  }
  return answer;
}

/** mlib's own JSON API: api('query', {params}) or api('login', {method: 'POST', body}). */
export function api(path, { params, ...options } = {}) {
  const query = params ? '?' + new URLSearchParams(params) : '';
  return request(`/api/${path}${query}`, options);
}

/** A Subsonic API call: rest('getAlbum', {id}) → the `subsonic-response` object (errors thrown). */
export async function rest(method, params = {}, options = {}) {
  const search = new URLSearchParams({ f: 'json', c: 'mlib-web', v: '1.16.1' });
  for (const [name, value] of Object.entries(params)) {
    if (Array.isArray(value)) value.forEach(v => search.append(name, v));
    else if (value !== undefined && value !== null) search.append(name, value);
  }
  const answer = await request(`/rest/${method}?${search}`, options);
  const body = answer?.['subsonic-response'];
  if (!body) throw new APIError(`${method}: no answer`, 0);
  if (body.status !== 'ok') {
    if (body.error?.code === 40 || body.error?.code === 41) { forget(); signedOut(); }
    throw new APIError(body.error?.message || `${method} failed`, 200, body.error);
  }
  return body;
}

export async function login(user, password) {
  return remember(await api('login', { method: 'POST', body: { user, password } }));
}

/** The session the cookie holds (a reload keeps it), or null. */
export async function resume() {
  try { return remember(await api('session')); } catch { forget(); return null; }
}

export async function logout() {
  try { await api('logout', { method: 'POST' }); } finally { forget(); }
}

/** The address of a song's stream; `transcode` asks for Opus, from `offset` seconds. */
export function streamURL(id, transcode, offset = 0) {
  const search = new URLSearchParams({ id, c: 'mlib-web', v: '1.16.1' });
  if (transcode) { search.set('format', 'opus'); search.set('maxBitRate', '192'); }
  if (offset > 0) search.set('timeOffset', String(Math.floor(offset)));
  return `/rest/stream?${search}`;
}
