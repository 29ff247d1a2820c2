#!/usr/bin/env python3
"""The web app in a real browser (issue 45's "Done when"): Playwright drives Debian's chromium headless
(/usr/bin/chromium through executable_path: no browser download) against a running `mlib serve --http`.

Usage: web_app_flow.py BASE_URL MPD_PORT USER PASSWORD EVIDENCE_DIR

Walks the flow a person would: sign in, search with a query-language term, open an album, play a FLAC and an
ALAC track (the ALAC one asked for as Opus), queue five songs and reorder them (keyboard buttons and drag and
drop), make a smart playlist from a rule and see its matches, switch to the server's player and watch
`mpc current` change, `mpc next` and see the page follow, then sign out. Library text with HTML in it must
show as text. Screenshots of every page at 375 px and 1280 px go to EVIDENCE_DIR.

Prints one JSON object: what each step saw (the Swift test judges it). A step that throws records its error
under "errors" and the walk goes on where it can.
"""
import json
import os
import subprocess
import sys
import time
import traceback

from playwright.sync_api import sync_playwright

BASE, MPD_PORT, USER, PASSWORD, EVIDENCE = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
os.makedirs(EVIDENCE, exist_ok=True)
out = {"errors": {}, "pageErrors": [], "consoleErrors": [], "streams": []}


def step(name):
    def run(f):
        started = time.monotonic()
        try:
            f()
        except Exception as error:  # recorded for the Swift test; the walk goes on
            out["errors"][name] = f"{type(error).__name__}: {error}\n{traceback.format_exc()[-1500:]}"
        print(f"{name}: {time.monotonic() - started:.1f} s{' (failed)' if name in out['errors'] else ''}", file=sys.stderr, flush=True)
        return f
    return run


def mpc(*arguments):
    done = subprocess.run(["mpc", "-h", "127.0.0.1", "-p", MPD_PORT, *arguments], capture_output=True, text=True, timeout=20)
    return done.stdout.strip()


def settled(page):
    """The page has drawn the route the address names: <main> is not busy and says it shows this hash
    (data-drawn). Not busy alone was not enough: the hash changes at once on a click or an assignment, but the
    router sets aria-busy only when the hashchange event runs, so a check in between read the page left
    behind (the fresh-clone CI run read the albums grid's heading for an album's)."""
    page.wait_for_function("""() => { const main = document.getElementById('main');
        return !main.hasAttribute('aria-busy') && main.dataset.drawn === location.hash; }""", timeout=15000)


def follow(page, selector, route):
    """Clicks a link and waits for its route to be drawn."""
    page.click(selector)
    page.wait_for_function("prefix => location.hash.startsWith(prefix)", arg=route, timeout=15000)
    settled(page)


def go(page, route):
    page.evaluate("route => { location.hash = route }", route)
    page.wait_for_timeout(50)
    settled(page)


def audio(page):
    return page.evaluate("""() => { const a = document.getElementById('audio');
        return {src: a.getAttribute('src') || '', time: a.currentTime, paused: a.paused, error: a.error && a.error.code,
                transcoded: a.dataset.transcoded} }""")


def wait_playing(page, seconds=1.0, timeout=20000):
    page.wait_for_function(f"() => document.getElementById('audio').currentTime > {seconds}", timeout=timeout)
    return audio(page)


def queue_titles(page):
    return page.eval_on_selector_all("main .virtual .song .title",
        "els => els.map(e => [Number(e.closest('.row').getAttribute('aria-posinset')), e.textContent])"
        ".sort((a, b) => a[0] - b[0]).map(x => x[1])")


with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                args=["--no-sandbox", "--autoplay-policy=no-user-gesture-required"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(10000)   # one step that fails does not hold the walk for long
    page.on("pageerror", lambda error: out["pageErrors"].append(str(error)))
    page.on("console", lambda message: out["consoleErrors"].append(message.text) if message.type == "error" else None)
    page.on("response", lambda response: out["streams"].append(
        {"url": response.url.split("/rest/", 1)[-1], "status": response.status,
         "type": response.headers.get("content-type", "")}) if "/rest/stream" in response.url else None)

    @step("login")
    def _():
        started = time.monotonic()
        page.goto(BASE + "/")
        page.wait_for_selector("#login-form", state="visible")
        out["loginFormMs"] = round((time.monotonic() - started) * 1000)
        # Nothing without a session: mlib's API says 401, the Subsonic API its own "failed" (or 401).
        out["beforeLogin"] = page.evaluate("""async () => {
            const rest = await fetch('/rest/getAlbumList2?type=newest&f=json');
            const body = rest.status === 200 ? (await rest.json())['subsonic-response'] : null;
            return { query: (await fetch('/api/query?q=')).status, session: (await fetch('/api/session')).status,
                     album: body ? body.status : `http ${rest.status}` } }""")
        page.screenshot(path=f"{EVIDENCE}/login-1280.png")
        page.fill("#login-user", USER)
        page.fill("#login-password", "wrong password")
        page.click("#login-form button[type=submit]")
        page.wait_for_function("() => document.getElementById('login-error').textContent.length > 0")
        out["wrongPassword"] = page.text_content("#login-error")
        page.fill("#login-password", PASSWORD)
        page.click("#login-form button[type=submit]")
        page.wait_for_selector("#shell", state="visible")
        settled(page)
        page.wait_for_selector("main .album-card")
        out["who"] = page.text_content("#who")
        out["albumCards"] = page.locator("main .album-card").count()
        # The CSRF token lives in the page's memory only: no cookie or storage a script can read holds it.
        out["readableCookies"] = page.evaluate("() => document.cookie")
        out["storage"] = page.evaluate("() => localStorage.length + sessionStorage.length")

    @step("search")
    def _():
        page.fill("#search-input", 'artist:"Web Artist" year:1990..1999')
        page.press("#search-input", "Enter")
        page.wait_for_selector("#search-total")
        out["searchTotal"] = page.text_content("#search-total")
        out["searchTitles"] = page.eval_on_selector_all("main .song .title", "els => els.map(e => e.textContent)")
        page.screenshot(path=f"{EVIDENCE}/search-1280.png")
        page.fill("#search-input", "year:19xx..")
        page.press("#search-input", "Enter")
        page.wait_for_selector("main .error")
        out["badQuery"] = page.text_content("main .error")

    @step("hostileText")
    def _():
        go(page, "#/search/" + "hostile")
        page.wait_for_selector("main .song .title")
        out["hostileTitles"] = page.eval_on_selector_all("main .song .title", "els => els.map(e => e.textContent)")
        follow(page, "main .song a", "#/album/")   # its album
        out["hostileAlbumHeading"] = page.text_content("main h1")
        out["xss"] = page.evaluate("() => window.__xss ?? null")
        out["injectedElements"] = page.evaluate("() => document.querySelectorAll('main script, main img[src=x], main b').length")

    @step("album")
    def _():
        go(page, "#/albums")
        follow(page, "main .album-card:has-text('Web Album')", "#/album/")
        out["albumHeading"] = page.text_content("main h1")
        out["albumTracks"] = page.eval_on_selector_all("main .song .title", "els => els.map(e => e.textContent)")
        page.screenshot(path=f"{EVIDENCE}/album-1280.png")

    @step("playFLAC")
    def _():
        page.click("main button[aria-label='Play Track 1']")
        state = wait_playing(page)
        out["flac"] = state
        out["flacNowTitle"] = page.text_content("#now-title")
        out["mediaSession"] = page.evaluate("() => navigator.mediaSession.metadata && navigator.mediaSession.metadata.title")
        # The synced lyrics of Track 1 (a .lrc beside it) follow the music on the now-playing page.
        go(page, "#/now")
        page.wait_for_selector("main .lyric.active", timeout=10000)
        out["activeLyric"] = page.text_content("main .lyric.active")
        page.screenshot(path=f"{EVIDENCE}/now-playing-1280.png")

    @step("playALAC")
    def _():
        go(page, "#/search/" + 'album:"Apple Album"')
        page.wait_for_selector("main button[aria-label='Play Apple Lossless Song']")
        page.click("main button[aria-label='Play Apple Lossless Song']")
        page.wait_for_function("() => (document.getElementById('audio').getAttribute('src') || '').includes('format=opus')")
        state = wait_playing(page)
        out["alac"] = state
        page.evaluate("() => document.getElementById('audio').pause()")

    @step("queue")
    def _():
        go(page, "#/queue")
        page.click("main button:has-text('Clear')")
        go(page, "#/search/" + 'album:"Web Album"')
        page.wait_for_selector("main .song")
        for n in range(1, 6):
            page.click(f"main button[aria-label='Add Track {n} to the queue']")
        go(page, "#/queue")
        page.wait_for_selector("main .virtual .song")
        out["queued"] = queue_titles(page)
        # The keyboard: focus "Move Track 1 down" and press Enter; the focus stays with the moved song.
        page.focus("main button[aria-label='Move Track 1 down']")
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)
        out["afterKeyboardMove"] = queue_titles(page)
        out["focusAfterMove"] = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
        # Drag and drop: Track 5 onto the first row.
        page.drag_and_drop("main .virtual .row[aria-posinset='5']", "main .virtual .row[aria-posinset='1']")
        page.wait_for_timeout(200)
        out["afterDrag"] = queue_titles(page)
        page.screenshot(path=f"{EVIDENCE}/queue-1280.png")

    @step("smartPlaylist")
    def _():
        go(page, "#/smart")
        page.fill("#smart-name", "Nineties from the page")
        page.fill("#smart-rule", "year:1990..1999")
        page.wait_for_function("() => /match/.test(document.getElementById('smart-total').textContent)")
        out["smartPreview"] = page.text_content("#smart-total")
        out["smartPreviewTitles"] = page.eval_on_selector_all("main .preview .title", "els => els.map(e => e.textContent)")
        page.screenshot(path=f"{EVIDENCE}/smart-playlist-1280.png")
        page.click("main form.smart button[type=submit]")
        page.wait_for_function("() => location.hash.startsWith('#/playlist/')")
        settled(page)
        out["smartSavedHeading"] = page.text_content("main h1")
        out["smartSavedTitles"] = page.eval_on_selector_all("main .song .title", "els => els.map(e => e.textContent)")

    @step("serverPlayer")
    def _():
        go(page, "#/queue")
        before = mpc("current", "-f", "%title%")
        out["mpcBefore"] = before
        page.check("#remote-toggle")
        page.wait_for_function("() => document.body.dataset.remote === 'true'")
        deadline = time.monotonic() + 10
        current = ""
        while time.monotonic() < deadline:
            current = mpc("current", "-f", "%title%")
            if current:
                break
            time.sleep(0.1)
        out["mpcAfterSwitch"] = current
        out["pageAfterSwitch"] = page.text_content("#now-title")
        out["mpcQueue"] = mpc("playlist", "-f", "%title%").split("\n")
        started = time.monotonic()
        mpc("next")
        expected = mpc("current", "-f", "%title%")
        out["mpcAfterNext"] = expected
        page.wait_for_function("title => document.getElementById('now-title').textContent === title", arg=expected, timeout=5000)
        out["followMs"] = round((time.monotonic() - started) * 1000)
        # And the other way: the page's Next moves the server's player.
        page.click("#next")
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and mpc("current", "-f", "%title%") == expected:
            time.sleep(0.05)
        out["mpcAfterPageNext"] = after = mpc("current", "-f", "%title%")
        # The page shows it once the server's event comes back (it draws the server's state, not its wish).
        try:
            page.wait_for_function("title => document.getElementById('now-title').textContent === title", arg=after, timeout=2000)
        except Exception:
            pass
        out["pageAfterPageNext"] = page.text_content("#now-title")
        page.screenshot(path=f"{EVIDENCE}/server-player-1280.png")
        page.click("#play")   # pause the server's player
        page.uncheck("#remote-toggle")

    @step("screenshots")
    def _():
        routes = [("albums", "#/albums"), ("artists", "#/artists"), ("songs", "#/songs"), ("genres", "#/genres"), ("folders", "#/folders"),
                  ("playlists", "#/playlists"), ("status", "#/status"), ("queue", "#/queue"), ("now-playing", "#/now"),
                  ("smart-playlist", "#/smart"), ("search", "#/search/" + 'artist:"Web Artist"')]
        go(page, "#/albums")
        web = page.get_attribute("main .album-card:has-text('Web Album')", "href")
        routes.append(("album", web))
        for width, height in ((375, 740), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            for name, route in routes:
                go(page, route)
                page.wait_for_timeout(300)   # covers
                page.evaluate("() => { document.getElementById('status').textContent = '' }")   # no passing toast
                page.screenshot(path=f"{EVIDENCE}/{name}-{width}.png")
            if width == 375:
                page.click("#menu-button")
                page.screenshot(path=f"{EVIDENCE}/menu-375.png")
                page.keyboard.press("Escape")
        page.emulate_media(color_scheme="dark")
        for width, height in ((375, 740), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            for name, route in (("albums", "#/albums"), ("album", web), ("queue", "#/queue")):
                go(page, route)
                page.wait_for_timeout(300)
                page.screenshot(path=f"{EVIDENCE}/{name}-dark-{width}.png")
        page.emulate_media(color_scheme="light")
        page.set_viewport_size({"width": 1280, "height": 800})

    @step("logout")
    def _():
        page.click("#logout")
        page.wait_for_selector("#login-form", state="visible")
        out["afterLogout"] = page.evaluate("""async () => ({
            session: (await fetch('/api/session')).status, query: (await fetch('/api/query?q=')).status })""")
        page.set_viewport_size({"width": 375, "height": 740})
        page.screenshot(path=f"{EVIDENCE}/login-375.png")

    browser.close()

print(json.dumps(out, indent=1))
