"""People at the web table in a real browser (headless chromium, see tests/browser.py).

← Back during a game asks first; a person who leaves comes back through the room's link; the
others read a line in their feed; a person the host removes is told why.  A friend watches a
started room by its code and by its watch link, sees the game go on, and goes back to the start.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import ARTIFACTS, launch, require_chromium

from .server import LiveServer
from .test_browser import click_an_option, watch_problems

sync_api = require_chromium()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def new_page(browser: Any, problems: list[str]) -> Any:
    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    watch_problems(page, problems)
    return page


def play_until(page: Any, done: Callable[[], bool], timeout: float = 60) -> None:
    """Click ``page``'s options (a person playing) until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the page did not get there in time"
        if not click_an_option(page):
            time.sleep(0.05)


def feed_has(page: Any, text: str) -> bool:
    return bool(page.locator("#feed li.note", has_text=text).count())


def test_back_asks_first_and_the_link_brings_the_person_back(tmp_path: Path, browser: Any) -> None:
    problems: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    with LiveServer(tmp_path, seed=lambda: 7) as srv:
        ann, bob, cid = (new_page(browser, problems) for _ in range(3))
        ann.goto(srv.url)
        ann.fill("#in-name", "Ann")
        ann.select_option("#in-seats", "5")
        ann.select_option("#in-speed", "fast")
        ann.click("#btn-create")
        ann.wait_for_selector("#lobby:not([hidden])")
        code = ann.inner_text("#room-code")
        for page, name in ((bob, "Bob"), (cid, "Cid")):
            page.goto(srv.url)
            page.fill("#in-name", name)
            page.fill("#in-code", code)
            page.click("#btn-join")
            page.wait_for_selector("#lobby:not([hidden])")

        # The host removes Cid before the game: Cid is told why, on the start screen.
        ann.wait_for_selector('#lobby-seats tr[data-seat="2"] td.name:text("Cid")')
        ann.click('#lobby-seats tr[data-seat="2"] button.remove')
        cid.wait_for_selector("#start:not([hidden])")
        cid.wait_for_selector("#notice:not([hidden])")
        assert cid.inner_text("#notice") == "The host removed you from the table."

        ann.click("#btn-fill")
        ann.wait_for_selector('#lobby-seats tr[data-seat="4"] td.kind:text("bot")')
        ann.click("#btn-start")
        for page in (ann, bob):
            page.wait_for_selector("#table:not([hidden])")

        # ← Back mid-game asks first; "Stay" keeps Bob at the table.
        bob.click("#btn-table-back")
        bob.wait_for_selector("#leave-confirm[open]")
        assert "bot plays your seat" in bob.inner_text("#leave-confirm")
        bob.screenshot(path=str(ARTIFACTS / "web-leave-confirm.png"))
        bob.click("#leave-no")
        bob.wait_for_selector("#leave-confirm", state="hidden")
        assert bob.locator("#table").is_visible() and "You are Bob" in bob.inner_text("#you-line")

        # "Leave": Bob is on the start screen; Ann reads a line and the bot plays Bob's seat.
        bob.click("#btn-table-back")
        bob.wait_for_selector("#leave-confirm[open]")
        bob.click("#leave-yes")
        bob.wait_for_selector("#start:not([hidden])")
        assert code in bob.inner_text("#notice")
        play_until(ann, lambda: feed_has(ann, "Bob left the table"))
        ann.wait_for_selector('.seat[data-seat="1"] .badge:text("autopilot")')

        # The room's link brings Bob back to his seat, and Ann reads that too.
        bob.goto(f"{srv.url}/?room={code}")
        bob.wait_for_selector("#table:not([hidden])")
        bob.wait_for_function("() => document.getElementById('you-line').textContent"
                              ".includes('You are Bob')")  # fmt: skip
        play_until(ann, lambda: feed_has(ann, "Bob is back at the table"))
        ann.wait_for_function(
            "() => !document.querySelector('.seat[data-seat=\"1\"] .badge')"
            ".textContent.includes('autopilot')"
        )
        room = srv.registry.rooms[code]
        assert room.slots[1].kind == "person" and not room.slots[1].left
        ann.screenshot(path=str(ARTIFACTS / "web-person-back.png"))
    assert not problems, problems


def test_a_friend_watches_a_started_room_and_goes_back(tmp_path: Path, browser: Any) -> None:
    problems: list[str] = []
    with LiveServer(tmp_path, seed=lambda: 11) as srv:
        ann, friend = new_page(browser, problems), new_page(browser, problems)
        ann.goto(srv.url)
        ann.fill("#in-name", "Ann")
        ann.select_option("#in-speed", "fast")
        ann.click("#btn-play")
        ann.wait_for_selector("#table:not([hidden])")
        ann.wait_for_function("() => location.search.startsWith('?room=')")
        code = ann.evaluate("new URLSearchParams(location.search).get('room')")

        def feed(page: Any) -> int:
            return int(page.locator("#feed li").count())

        # By its code, from the start screen.
        friend.goto(srv.url)
        friend.fill("#in-code", code.lower())
        friend.click("#btn-watch-code")
        friend.wait_for_selector("#table:not([hidden])")
        assert "You are watching" in friend.inner_text("#you-line")
        assert friend.locator("#hand-box").is_hidden()
        assert friend.locator("#options button").count() == 0
        seen = feed(friend)
        # the game goes on before the friend's eyes
        play_until(ann, lambda: feed(friend) > seen + 3)
        friend.click("#btn-watch-back")
        friend.wait_for_selector("#start:not([hidden])")
        assert friend.evaluate("location.search") == ""
        assert not srv.registry.rooms[code].spectators

        # By its watch link.
        friend.goto(f"{srv.url}/?watch={code}")
        friend.wait_for_selector("#table:not([hidden])")
        assert "You are watching" in friend.inner_text("#you-line")
        seen = feed(friend)
        play_until(ann, lambda: feed(friend) > seen + 3)
        friend.screenshot(path=str(ARTIFACTS / "web-watching.png"))
        friend.click("#btn-watch-back")
        friend.wait_for_selector("#start:not([hidden])")
        assert ann.locator("#table").is_visible()  # Ann plays on
    assert not problems, problems
