"""Acting at the web table in a real browser (headless chromium, see tests/browser.py), at the
widths people use: 1400 × 900 and a 390 × 844 phone.

With 8 seats your options are inside the screen whenever it is your turn (the action bar is
pinned to its bottom) and number keys choose them; a card of your hand is clicked, then the seat
it aims at; the last play is highlighted on the table; the events stand beside the table on a wide
screen.  A second tab of the same browser that takes the seat leaves the first one out — it does
not reconnect by itself, so the others get no stream of frames — until the person clicks to take
the seat back there.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.web.rooms import Room
from tests.browser import launch, require_chromium, watch_errors

from .server import Client, LiveServer

sync_api = require_chromium()

LIVE_CHOICE = "#choices button.choice:not([disabled])"
# Where the bar's choices are, and whether each one is what a tap at its centre would hit.
CHOICES = """() => [...document.querySelectorAll('#choices button.choice')].map((b) => {
  const r = b.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {id: b.dataset.id || null, card: b.dataset.card || null, top: r.top, bottom: r.bottom,
          left: r.left, right: r.right, hit: !!hit && b.contains(hit)}; })"""
AIMED = re.compile(r"^play:([a-z_]+)@(\d+)$")  # a card played at a seat, nothing more to choose


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def open_table(browser: Any, srv: LiveServer, width: int, height: int, seats: int) -> Any:
    phone = width < 800
    page = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    ).new_page()
    page.goto(srv.url)
    page.fill("#in-name", "Ann")
    page.select_option("#in-seats", str(seats))
    page.click("#btn-play")
    page.wait_for_selector("#table:not([hidden])")
    return page


def the_room(srv: LiveServer) -> Room:
    (room,) = srv.registry.rooms.values()
    return room


def chosen(room: Room, decision: int, timeout: float = 10.0) -> str:
    """The option the game recorded for decision number ``decision``."""
    deadline = time.monotonic() + timeout
    while True:
        assert room.match is not None
        if len(room.match.decisions) >= decision:
            return room.match.decisions[decision - 1].chosen
        assert time.monotonic() < deadline, f"decision {decision} was not made"
        time.sleep(0.02)


@pytest.mark.parametrize(("width", "height"), [(1400, 900), (390, 844)])
def test_with_eight_seats_your_options_are_in_view_and_number_keys_choose_them(
    tmp_path: Path, browser: Any, width: int, height: int
) -> None:
    problems: list[str] = []
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        page = open_table(browser, srv, width, height, 8)
        watch_errors(page, problems)
        room = the_room(srv)
        picked = 0
        made = 0
        # Ann's decisions (forced ones are asked too), each chosen by number keys, until at
        # least four were made and a card with several options came up
        while made < 4 or (not picked and made < 24):
            made += 1
            page.wait_for_selector(LIVE_CHOICE)
            choices = page.evaluate(CHOICES)
            assert choices, "no choices in the bar"
            for c in choices:  # inside the screen, not covered, without any scrolling
                assert c["left"] >= 0 and c["right"] <= width, (width, c)
                assert c["top"] >= 0 and c["bottom"] <= height, (height, c)
                assert c["hit"], c
            decision = page.evaluate("S.decision")
            page.keyboard.press("1")
            want = choices[0]["id"]
            if choices[0]["card"]:  # "1" picked a card: its options are in the bar now
                page.wait_for_selector(f"#hand .card.picked[data-card='{choices[0]['card']}']")
                want = page.evaluate(CHOICES)[0]["id"]
                page.keyboard.press("1")
                picked += 1
            assert want and chosen(room, decision) == want
        assert picked, "no card with several options came up"  # seed 5: a Shot at two seats
        # The full list of options stays there for screen readers (and whoever opens it).
        page.wait_for_selector(LIVE_CHOICE)
        ids = page.evaluate("S.ctx.decision.options.map((o) => o.id)")
        listed = page.eval_on_selector_all(
            "#options button.option", "(bs) => bs.map((b) => b.dataset.id)"
        )
        assert listed == ids
    assert not problems, problems


def test_click_a_card_then_its_target_the_last_play_and_the_log_beside_the_table(
    tmp_path: Path, browser: Any
) -> None:
    problems: list[str] = []
    with LiveServer(tmp_path, seed=lambda: 5) as srv:
        page = open_table(browser, srv, 1400, 900, 8)
        watch_errors(page, problems)
        room = the_room(srv)

        # The events beside the table, in view on a wide screen.
        box = page.evaluate(
            """() => { const f = document.getElementById('feed-box').getBoundingClientRect(),
            r = document.getElementById('ring').getBoundingClientRect();
            return {feedLeft: f.left, feedTop: f.top, feedBottom: f.bottom, ringRight: r.right,
                    height: innerHeight}; }"""
        )
        assert box["feedLeft"] >= box["ringRight"], box
        assert box["feedTop"] >= 0 and box["feedBottom"] <= box["height"], box

        # Ann's decisions until one plays a card at a seat (a click on the bar meanwhile).
        for _ in range(10):
            page.wait_for_selector(LIVE_CHOICE)
            options = page.evaluate("S.ctx.decision.options.map((o) => o.id)")
            aimed = [m for o in options if (m := AIMED.match(o))]
            if aimed:
                break
            page.click(f"{LIVE_CHOICE}:not(.pick)")
        else:
            pytest.fail("no card to play at a seat came up")
        card = aimed[0].group(1)
        seats = sorted(int(m.group(2)) for m in aimed if m.group(1) == card)
        decision = page.evaluate("S.decision")

        # The card first: the seats it aims at are highlighted, and only those.
        page.click(f"#hand button.card[data-card='{card}']")
        page.wait_for_selector(f"#hand button.card.picked[data-card='{card}'][aria-pressed='true']")
        targets = page.eval_on_selector_all(
            "#ring .seat.target", "(bs) => bs.map((b) => Number(b.dataset.seat))"
        )
        assert sorted(targets) == seats
        # A seat to aim at is a button for the keyboard too, named by what choosing it does.
        target = seats[-1]
        seat = page.evaluate(
            """([k, id]) => { const b = document.querySelector(`#ring .seat[data-seat="${k}"]`);
            return {role: b.getAttribute('role'), tab: b.tabIndex, name: b.getAttribute('aria-label'),
                    label: S.ctx.decision.options.find((o) => o.id === id).label}; }""",
            [target, f"play:{card}@{target}"],
        )
        assert (seat["role"], seat["tab"], seat["name"]) == ("button", 0, seat["label"]), seat
        # ... then its target.
        page.click(f"#ring .seat[data-seat='{target}']")
        assert chosen(room, decision) == f"play:{card}@{target}"

        # The last play: its card in the centre, its player's and its target's seats marked.
        page.wait_for_function(
            "(t) => S.lastPlay && S.lastPlay.seat === S.ctx.you.seat && S.lastPlay.target === t",
            arg=target,
        )
        shown = page.evaluate(
            """(t) => ({by: [...document.querySelectorAll('#ring .seat.last-by')].map((b) => b.dataset.seat),
            at: [...document.querySelectorAll('#ring .seat.last-at')].map((b) => b.dataset.seat),
            me: String(S.ctx.you.seat), centre: document.getElementById('last-play').textContent,
            name: S.ctx.seats[t].name, label: S.lastPlay.label})""",
            target,
        )
        assert shown["by"] == [shown["me"]] and shown["at"] == [str(target)], shown
        assert shown["label"] in shown["centre"] and shown["name"] in shown["centre"], shown
        assert room.match is not None
        last = [e for e in room.match.game.events if e["t"] == "play"][-1]
        assert (last["seat"], last.get("target"), last["card"].split(".")[0]) == (0, target, card)
    assert not problems, problems


def closed(ws: Any, timeout: float = 10.0) -> bool:
    """Whether the page's WebSocket ``ws`` closes within ``timeout``.  Playwright's sync API
    delivers a socket's events only inside its own calls, so this waits for the event with one
    (a loop of ``time.sleep`` would never see a close delivered after the last call)."""
    if not ws.is_closed():
        with contextlib.suppress(sync_api.TimeoutError):
            ws.wait_for_event("close", timeout=timeout * 1000)
    return bool(ws.is_closed())


def quiet(client: Client, seconds: float) -> int:
    """How many frames ``client`` receives in the next ``seconds``."""
    n = 0
    deadline = time.monotonic() + seconds
    while (left := deadline - time.monotonic()) > 0:
        try:
            client.recv(timeout=left)
            n += 1
        except TimeoutError:
            break
    return n


def test_a_second_tab_takes_the_seat_and_the_first_stays_out_until_asked(
    tmp_path: Path, browser: Any
) -> None:
    problems: list[str] = []
    with LiveServer(tmp_path) as srv:
        tabs = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        first = tabs.new_page()
        sockets: dict[str, list[Any]] = {"first": [], "second": []}
        first.on("websocket", lambda ws: sockets["first"].append(ws))
        watch_errors(first, problems)
        first.goto(srv.url)
        first.fill("#in-name", "Ann")
        first.click("#btn-create")
        first.wait_for_selector("#lobby:not([hidden])")
        code = first.inner_text("#room-code")
        bob = Client(srv.ws_url)
        bob.send(type="join", code=code, name="Bob")
        bob.wait_type("joined")

        # Ann opens the room's link in a second tab: it takes her seat with the stored token.
        second = tabs.new_page()
        second.on("websocket", lambda ws: sockets["second"].append(ws))
        watch_errors(second, problems)
        second.goto(f"{srv.url}/?room={code}")
        second.wait_for_selector("#lobby:not([hidden])")
        first.wait_for_selector("#away[open]")
        assert len(sockets["first"]) == 1 and closed(sockets["first"][0])
        quiet(bob, 0.5)  # the frames of the move itself
        # No tab takes the seat back by itself: nothing reaches Bob, the first tab stays closed.
        assert quiet(bob, 2.5) == 0
        assert len(sockets["first"]) == 1 and len(sockets["second"]) == 1
        assert first.locator("#away").is_visible()
        room = srv.registry.rooms[code]
        assert len(room.slots[0].conns) == 1 and room.slots[0].kind == "person"

        # Ann takes the seat back in the first tab: now the second one waits for her.
        first.click("#away-back")
        first.wait_for_selector("#away", state="hidden")
        first.wait_for_selector('#lobby-seats tr[data-seat="0"] td.name:text("Ann")')
        second.wait_for_selector("#away[open]")
        quiet(bob, 0.5)
        assert quiet(bob, 2.5) == 0
        assert len(sockets["first"]) == 2 and len(sockets["second"]) == 1
        assert closed(sockets["second"][0]) and not sockets["first"][1].is_closed()
        assert first.inner_text("#lobby-seats tr[data-seat='0'] td.muted").count("you") == 1
        # The second tab can go back to the start screen: the seat stays with the first.
        second.click("#away-start")
        second.wait_for_selector("#start:not([hidden])")
        assert quiet(bob, 1.0) == 0
        bob.close()
    assert not problems, problems
