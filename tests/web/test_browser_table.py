"""The table as people see it, in a real browser (headless Debian chromium driven by playwright).

A whole game on a phone-sized screen (390 × 844, 6 seats): the page never scrolls sideways, the
seat boxes stay inside the viewport without overlapping, in English and then in Arabic (right to
left, the feed's arrows pointing the reading way); the host sees "hand to bot" on a living
person's seat only; a check card is cleared after its check; the game-over summary has column
headers and each player's statistics.  Portrait clicks during a Fast game all open the mark menu
(the ring of seats is updated in place, never rebuilt under the pointer).  Every picture is SVG:
no emoji code point in the page's text or its static files.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; skipped with the reason when either is missing.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.engine.cards import CARD_TYPES
from harness.engine.characters import CHARACTERS
from harness.web import protocol
from harness.web.app import STATIC_DIR
from harness.web.match_stats import player_stats
from tests.browser import ARTIFACTS, launch, require_chromium, watch_errors

from .server import Client, LiveServer
from .test_browser import click_an_option

sync_api = require_chromium()

# Code points that need a picture (emoji) font: everything from U+1F000 on, the emoji variation
# selector, the BMP characters shown as emoji by default (Unicode Emoji_Presentation=Yes), and
# ⛶ and ⏱, which no text font here draws.  Text symbols such as ♥ ★ ☀ ☠ are left to the fonts.
BMP_EMOJI = "⌚⌛⏩⏪⏫⏬⏰⏳◽◾☔☕♈♉♊♋♌♍♎♏♐♑♒♓♿⚓⚡⚪⚫⚽⚾⛄⛅⛎⛔⛪⛲⛳⛵⛺⛽✅✊✋✨❌❎❓❔❕❗➕➖➗➰➿⬛⬜⭐⭕⛶⏱"
EMOJI = re.compile(f"[\U0001f000-\U0001faff\ufe0f{BMP_EMOJI}]")

LAYOUT = """() => ({
  scroll: document.scrollingElement.scrollWidth, width: innerWidth,
  seats: [...document.querySelectorAll('#ring .seat')].map((e) => {
    const r = e.getBoundingClientRect(); return [e.dataset.seat, r.left, r.top, r.right, r.bottom]; }),
  dialogs: [...document.querySelectorAll('dialog[open]')].map((e) => {
    const r = e.getBoundingClientRect(); return [e.id, r.left, r.right]; }),
})"""
PAGE_TEXT = """() => document.body.innerText + [...document.querySelectorAll('[title],[aria-label]')]
  .map((e) => (e.getAttribute('title') || '') + (e.getAttribute('aria-label') || '')).join(' ')"""


def emoji_in(text: str) -> list[str]:
    return sorted(set(EMOJI.findall(text)))


def layout_problems(page: Any) -> list[str]:
    """What is cut off, overlaps or makes the page scroll sideways, now."""
    got = page.evaluate(LAYOUT)
    width = got["width"]
    out = []
    if got["scroll"] > width:
        out.append(f"the page scrolls sideways: {got['scroll']} > {width}")
    for seat, left, _top, right, _bottom in got["seats"]:
        if left < 0 or right > width:
            out.append(f"seat {seat} is cut off: {left:.0f}..{right:.0f} of {width}")
    boxes = got["seats"]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            w = min(a[3], b[3]) - max(a[1], b[1])
            h = min(a[4], b[4]) - max(a[2], b[2])
            if w > 0.5 and h > 0.5:
                out.append(f"seats {a[0]} and {b[0]} overlap by {w:.0f}×{h:.0f}")
    for name, left, right in got["dialogs"]:
        if left < 0 or right > width:
            out.append(f"dialog {name} is cut off: {left:.0f}..{right:.0f} of {width}")
    return out


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def play_safe(page: Any) -> None:
    """Answer a pending decision the careful way: end the turn, dodge rather than take a hit."""
    page.evaluate(
        """() => { const bs = [...document.querySelectorAll('#options button.option:not([disabled])')];
        const pick = bs.find((b) => b.dataset.id === 'end') || bs.find((b) => b.dataset.id !== 'take') || bs[0];
        if (pick) pick.click(); }"""
    )


def over(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('over').open"))


def answer(client: Client) -> None:
    """Answer what the WebSocket person is asked, if anything (the first option)."""
    try:
        f = client.recv(timeout=0.005)
    except TimeoutError:
        return
    if f["type"] == "view" and f["ask"]:
        opt = f["ctx"]["decision"]["options"][0]["id"]
        client.send(type="act", decision=f["decision"], option=opt)


def test_static_files_have_no_emoji_and_art_for_every_character_card_and_reaction(
    browser: Any,
) -> None:
    files = sorted(STATIC_DIR.glob("*.*"))
    assert {"index.html", "main.js", "art.js", "style.css", "i18n.js"} <= {p.name for p in files}
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not emoji_in(text), (path.name, emoji_in(text))
    page = browser.new_page()
    page.set_content("<!doctype html><body></body>")
    page.add_script_tag(content=(STATIC_DIR / "art.js").read_text(encoding="utf-8"))
    art = page.evaluate(
        """() => ({characters: ART.characters, cards: ART.cards, reactions: ART.reactions,
        portraits: ART.characters.map((c) => ART.portrait(c).innerHTML),
        pictos: ART.cards.map((c) => ART.pictogram(c).innerHTML),
        shapes: [...ART.characters.map((c) => ART.portrait(c)), ...ART.cards.map((c) => ART.pictogram(c))]
          .map((e) => e.querySelectorAll("path,rect,circle,ellipse").length)})"""
    )
    assert sorted(art["characters"]) == sorted(c.id for c in CHARACTERS)
    assert sorted(art["cards"]) == sorted(t.id for t in CARD_TYPES)
    assert set(protocol.REACTIONS) <= set(art["reactions"])
    # Distinct drawings: no two characters or cards share a picture.
    assert len(set(art["portraits"])) == 16 and len(set(art["pictos"])) == 22
    assert min(art["shapes"]) >= 2, art["shapes"]  # drawings, not placeholders
    page.close()


def test_a_whole_game_on_a_phone(tmp_path: Path, browser: Any) -> None:
    problems: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    with LiveServer(tmp_path, seed=lambda: 3) as srv:
        ctx = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        page = ctx.new_page()
        watch_errors(page, problems)
        page.goto(srv.url)
        assert page.evaluate("innerWidth") == 390
        page.fill("#in-name", "Ann")
        page.select_option("#in-seats", "6")
        page.select_option("#in-speed", "fast")
        page.click("#btn-create")
        page.wait_for_selector("#lobby:not([hidden])")
        assert not layout_problems(page), layout_problems(page)
        code = page.inner_text("#room-code")
        bob = Client(srv.ws_url)
        bob.send(type="join", code=code, name="Bob")
        bob.wait_type("joined")
        page.wait_for_selector('#lobby-seats tr[data-seat="1"] td.name:text("Bob")')
        page.click("#btn-fill")
        page.wait_for_selector('#lobby-seats tr[data-seat="5"] td.kind:text("bot")')
        assert not layout_problems(page), layout_problems(page)
        page.click("#btn-start")
        page.wait_for_selector("#table:not([hidden])")
        assert page.locator("#ring .seat").count() == 6
        assert page.locator("#ring .seat svg.portrait").count() == 6
        for button, icon in (("notify", "bell"), ("focus", "focus"), ("library", "book")):
            assert page.locator(f"#btn-{button} svg.icon-{icon}").count() == 1
        page.wait_for_function("() => document.querySelectorAll('#hand .card-face').length > 0")
        faces = page.evaluate(
            """() => [...document.querySelectorAll('#hand .card-face')].map((f, i) =>
              [f.querySelector('svg.picto') !== null, f.querySelector('.card-name').textContent,
               S.ctx.hand[i].label.startsWith(f.querySelector('.card-name').textContent)])"""
        )
        assert faces and all(p and name and prefix for p, name, prefix in faces), faces
        # A reaction: a drawn picture above the sender's portrait.
        page.click('#reactions button[data-reaction="like"]')
        page.wait_for_selector("#ring .seat.me .bubble svg.reaction-like")

        room = srv.registry.rooms[code]
        seen = {"bob_alive_button": 0, "bob_dead": 0, "checks": 0, "arabic": False, "layouts": 0}
        shown_check: list[Any] = [None, 0.0]  # the check card on screen, since when
        clicks = 0
        deadline = time.monotonic() + 240
        while not over(page):
            assert time.monotonic() < deadline, "the game did not end in time"
            answer(bob)
            if click_an_option(page):
                clicks += 1
            if clicks == 12 and not seen["arabic"]:
                page.select_option("#in-locale", "ar")
                page.wait_for_selector('html[dir="rtl"][lang="ar"]')
                page.wait_for_function(  # the feed again, in Arabic
                    "() => /[\\u0600-\\u06ff]/.test(document.querySelector('#feed li').textContent)"
                )
                seen["arabic"] = True
            bad = layout_problems(page)
            assert not bad, (clicks, bad)
            seen["layouts"] += 1
            assert not emoji_in(page.evaluate(PAGE_TEXT))
            state = page.evaluate(
                """() => { const b = document.querySelector('.seat[data-seat="1"]');
                return b && {dead: b.classList.contains('dead'),
                             button: !!b.querySelector('button.autopilot'),
                             check: document.getElementById('check-card').hidden ? null
                                    : document.getElementById('check-card').textContent}; }"""
            )
            if state and not over(page):
                if state["dead"]:
                    assert not state["button"], "hand-to-bot offered on an eliminated seat"
                    seen["bob_dead"] += 1
                else:
                    seen["bob_alive_button"] += state["button"]
            check = state["check"] if state else None
            if check and check != shown_check[0]:
                shown_check[:] = [check, time.monotonic()]
                seen["checks"] += 1
            elif check:  # cleared 3.5 s after its check, not left to stand for later ones
                assert time.monotonic() - shown_check[1] < 6.0, f"check card still shown: {check}"
            else:
                shown_check[:] = [None, 0.0]
            if seen["arabic"]:
                assert "→" not in page.inner_text("#feed")
        page.screenshot(path=str(ARTIFACTS / "web-phone-over.png"))
        assert not layout_problems(page), layout_problems(page)
        assert seen["arabic"] and "←" in page.inner_text("#feed")
        assert seen["bob_alive_button"] > 0 and seen["bob_dead"] > 0, seen
        assert seen["checks"] > 0, seen

        # The summary: a header per column, each player's statistics from the game's events.
        game = room.match.game  # type: ignore[union-attr]
        heads = page.locator("#over-players thead th").all_inner_texts()
        assert len(heads) == 14 and all(h.strip() for h in heads)
        expected = player_stats(game.events, game.n)
        for i, row in enumerate(page.locator("#over-players tbody tr").all()):
            shown = {
                td.get_attribute("data-stat"): int(td.inner_text())
                for td in row.locator("td[data-stat]").all()
            }
            assert shown == {k: v for k, v in expected[i].as_dict().items() if k != "stars"}
        assert sum(s.shots for s in expected) > 0 and sum(s.taken for s in expected) > 0
        bob.close()
    assert not problems, problems


@pytest.mark.parametrize(("width", "seats"), [(360, 8), (430, 4), (900, 8)])
def test_narrow_screens_fit_four_to_eight_seats(
    tmp_path: Path, browser: Any, width: int, seats: int
) -> None:
    with LiveServer(tmp_path, seed=lambda: 9) as srv:
        page = browser.new_context(
            viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True
        ).new_page()
        page.goto(srv.url)
        page.select_option("#in-seats", str(seats))
        page.click("#btn-play")
        page.wait_for_selector("#table:not([hidden])")
        for _ in range(15):
            click_an_option(page)
            assert not layout_problems(page), layout_problems(page)
            time.sleep(0.05)
        assert page.locator("#ring .seat").count() == seats
        # Abilities whole: the character's full text, nothing clipped.
        abilities = page.evaluate(
            """() => [...document.querySelectorAll('#ring .seat')].map((b) => {
              const a = b.querySelector('.ability'), s = S.ctx.seats[Number(b.dataset.seat)];
              return [a.textContent === s.ability, a.scrollHeight <= a.clientHeight + 1]; })"""
        )
        assert abilities == [[True, True]] * seats
        page.click("#btn-library")
        page.wait_for_selector("#library-body tr svg.picto")
        assert not layout_problems(page), layout_problems(page)


def test_portrait_clicks_during_a_fast_game_all_open_the_mark_menu(
    tmp_path: Path, browser: Any
) -> None:
    """16 presses on portraits (held 80 ms, as a person's tap) while bots play at Fast speed."""
    pauses = {"slow": 0.5, "normal": 0.3, "fast": 0.1}
    with LiveServer(tmp_path, seed=lambda: 7, pauses=pauses) as srv:
        page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
        page.goto(srv.url)
        page.select_option("#in-seats", "8")
        page.select_option("#in-speed", "fast")
        page.click("#btn-play")
        page.wait_for_selector("#table:not([hidden])")
        assert not layout_problems(page), layout_problems(page)  # 8 seats on a desktop screen
        page.evaluate(
            "() => { for (const e of document.querySelectorAll('#ring .seat')) e.kept = true; }"
        )
        feed_before = page.locator("#feed li").count()
        opened = missed = 0
        for i in range(16):
            play_safe(page)  # the game goes on: the bots play between the presses
            targets = page.evaluate(
                """() => S.ctx.seats.filter((s) => s.alive && !s.you && !s.role)
                .map((s) => s.seat)"""  # a public role (the Marshal) is never marked
            )
            if not page.evaluate("S.ctx.you.alive") or not targets:
                break
            seat = targets[i % len(targets)]
            # Where the seat's portrait is now (its contents may be redrawn at any moment).
            r = page.evaluate(
                """(k) => { const b = document.querySelector(`#ring .seat[data-seat="${k}"]`);
                const p = b.querySelector('svg.portrait'), r = (p || b).getBoundingClientRect();
                return {x: r.x + r.width / 2, y: r.y + r.height / 2}; }""",
                seat,
            )
            page.mouse.move(r["x"], r["y"])
            page.mouse.down()
            time.sleep(0.08)
            page.mouse.up()
            try:
                page.wait_for_function("document.getElementById('mark-menu').open", timeout=3000)
            except sync_api.Error:
                missed += 1
                continue
            opened += 1
            page.click("#mark-close")
        frames = page.locator("#feed li").count() - feed_before
        kept = page.evaluate(
            "() => [...document.querySelectorAll('#ring .seat')].every((e) => e.kept)"
        )
    assert (opened, missed) == (16, 0)
    assert frames > 16, "the table hardly changed during the presses"
    assert kept, "the ring of seats was rebuilt"
