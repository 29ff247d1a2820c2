#!/usr/bin/env python3
"""web-bench.py BASE_URL USER PASSWORD ALBUM_ID — the web app's figures in Debian's chromium (Playwright,
headless, executable_path), issue 45's targets beside each:

- first page interactive: a signed-in load of / until the albums grid shows its first covers' cards
  (performance.now() at that moment: ms from navigation start), median of 5 fresh pages; target < 500 ms;
- the album ALBUM_ID (2,000 tracks): from a click on its card to its first rows drawn, and a click on a track's
  "Add to the queue" to the next frame; target < 100 ms;
- a 10,000-song queue (a smart playlist's 10,000 matches added with one click): a click on Move down, Remove
  and a song's Play, each to the next frame; target < 100 ms;
- the albums grid scrolled end to end, a screen a frame: the longest task (PerformanceObserver 'longtask')
  and how many passed 50 ms; target none > 50 ms;
- total JavaScript (the modules' decoded sizes); target < 100 KB.
"""
import json
import statistics
import sys
import time

from playwright.sync_api import sync_playwright

BASE, USER, PASSWORD, ALBUM = sys.argv[1:5]

# Time from a click to the next frame after its handlers ran (what a person sees as the answer).
CLICK = """async selector => {
    const element = document.querySelector(selector);
    if (!element) throw new Error('no ' + selector);
    const started = performance.now();
    element.click();
    await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
    return performance.now() - started;
}"""


def median(values):
    return round(statistics.median(values), 1)


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(120000)
    page.goto(BASE + "/")
    page.fill("#login-user", USER)
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("main .album-card")

    firsts = []
    for _ in range(5):
        fresh = context.new_page()
        fresh.goto(BASE + "/#/albums")
        fresh.wait_for_selector("main .album-card")
        firsts.append(fresh.evaluate("() => performance.now()"))
        fresh.close()
    print(f"first page interactive (signed in, / to the first album cards): median {median(firsts)} ms, "
          f"worst {round(max(firsts), 1)} ms (5 loads; target < 500 ms)")

    scripts = page.evaluate("""() => performance.getEntriesByType('resource').filter(e => e.name.endsWith('.js'))
        .map(e => [e.name.split('/').pop(), e.decodedBodySize])""")
    total = sum(size for _, size in scripts)
    print(f"JavaScript: {total / 1024:.1f} KB uncompressed in {len(scripts)} modules (target < 100 KB)")

    # The albums grid, end to end, one screen a frame, with every long task recorded.
    page.evaluate("""() => { window.__long = [];
        new PerformanceObserver(list => list.getEntries().forEach(e => window.__long.push(e.duration)))
          .observe({ type: 'longtask' }); }""")
    scrolled = page.evaluate("""async () => {
        const main = document.getElementById('main');
        const started = performance.now();
        let frames = 0;
        while (main.scrollTop + main.clientHeight < main.scrollHeight - 2) {
            main.scrollTop += main.clientHeight;
            frames++;
            await new Promise(resolve => requestAnimationFrame(resolve));
        }
        await new Promise(resolve => setTimeout(resolve, 500));
        return { frames, ms: performance.now() - started, rows: document.querySelectorAll('main .virtual > .row').length,
                 height: main.scrollHeight };
    }""")
    long = page.evaluate("() => window.__long")
    print(f"albums grid scrolled end to end: {scrolled['frames']} screens in {scrolled['ms'] / 1000:.1f} s, "
          f"{scrolled['rows']} rows in the DOM at the end; longest task {round(max(long), 1) if long else 0} ms, "
          f"{sum(1 for d in long if d > 50)} tasks > 50 ms (target none)")

    # The 2,000-track album.
    opens, adds = [], []
    for _ in range(5):
        page.evaluate("id => { location.hash = '#/albums'; }", ALBUM)
        page.wait_for_selector("main .album-card")
        page.evaluate(f"""() => {{ const link = document.createElement('a'); link.href = '#/album/{ALBUM}'; link.id = 'bench-link';
            document.getElementById('main').prepend(link); }}""")
        opened = page.evaluate("""async () => {
            const started = performance.now();
            document.getElementById('bench-link').click();
            while (!document.querySelector('main .album-head') || !document.querySelector('main .virtual .song'))
                await new Promise(resolve => requestAnimationFrame(resolve));
            return { ms: performance.now() - started, tracks: document.querySelector('main .virtual .row').getAttribute('aria-setsize') };
        }""")
        opens.append(opened["ms"])
        adds.append(page.evaluate(CLICK, "main .virtual .row[aria-posinset='3'] button[aria-label^='Add']"))
    print(f"album of {opened['tracks']} tracks: click on it to its rows drawn median {median(opens)} ms "
          f"(API and drawing; worst {round(max(opens), 1)}), a click on Add to the queue {median(adds)} ms "
          f"(target < 100 ms)")

    # A 10,000-song queue: a smart playlist's matches, added with the playlist's button.
    page.evaluate("() => { location.hash = '#/queue'; }")
    page.wait_for_selector("main .page-head")
    page.click("main button:has-text('Clear')")
    made = page.evaluate("""async () => {
        const session = await (await fetch('/api/session')).json();
        const answer = await fetch('/api/smart-playlists', { method: 'POST', headers: { 'Content-Type': 'application/json',
            'X-CSRF-Token': session.csrf }, body: JSON.stringify({ name: 'web-bench ' + Date.now(), rule: 'year:1960..1965' }) });
        return (await answer.json()).id;
    }""")
    page.evaluate("id => { location.hash = '#/playlist/' + encodeURIComponent(id); }", made)
    page.wait_for_selector("main .virtual .song")
    started = time.monotonic()
    page.click("main .page-head button:has-text('Add to queue')")
    page.evaluate("() => { location.hash = '#/queue'; }")
    page.wait_for_selector("main .virtual .queued")
    count = page.evaluate("() => document.querySelector('main .virtual .row').getAttribute('aria-setsize')")
    moves, removes, plays = [], [], []
    for i in range(5):
        moves.append(page.evaluate(CLICK, "main .virtual .row[aria-posinset='2'] button.down"))
        removes.append(page.evaluate(CLICK, "main .virtual .row[aria-posinset='3'] button.remove"))
        plays.append(page.evaluate(CLICK, "main .virtual .row[aria-posinset='4'] button[aria-label^='Play']"))
    page.evaluate("() => document.getElementById('audio').pause()")
    print(f"queue of {count} songs: a click on Move down {median(moves)} ms, Remove {median(removes)} ms, "
          f"Play {median(plays)} ms (medians of 5; worst {round(max(moves + removes + plays), 1)} ms; target < 100 ms)")
    browser.close()
