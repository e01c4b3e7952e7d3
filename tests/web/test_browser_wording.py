"""Words at the web table a newcomer stumbled on (issue 36), in headless chromium: Join or Watch
without a room code says what is missing; while another person decides the action bar reads
"Bob is deciding…"; a signal refused for coming too fast is told as the table's rule, not as
"Error: …"; the host's "Hand to bot" on another person's seat asks first, and Cancel leaves the
seat to its person.  (The game-over words are checked in test_browser.py's whole game.)"""

from __future__ import annotations

import time
from collections.abc import Iterator
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


def new_page(browser: Any, problems: list[str], locale: str = "en") -> Any:
    page = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
    watch_problems(page, problems)
    return page


def test_join_and_watch_without_a_code_say_what_is_missing(tmp_path: Path, browser: Any) -> None:
    problems: list[str] = []
    with LiveServer(tmp_path) as srv:
        page = new_page(browser, problems)
        page.goto(srv.url)
        for button in ("#btn-join", "#btn-watch-code"):
            page.fill("#in-code", "   ")
            page.click(button)
            page.wait_for_selector("#notice:not([hidden])")
            assert page.inner_text("#notice") == "Enter the room code first."
            assert page.evaluate("document.activeElement.id") == "in-code"
            assert page.locator("#start").is_visible()  # still on the start screen
            page.click("#btn-watch")  # any other button clears the notice ...
            page.wait_for_selector("#notice", state="hidden")
            page.goto(srv.url)  # ... and back to the start screen for the next button
        page.select_option("#in-locale", "ru")
        page.click("#btn-join")
        page.wait_for_selector("#notice:not([hidden])")
        assert page.inner_text("#notice") == "Сначала введи код комнаты."
    assert not problems, problems


def test_another_persons_turn_a_fast_signal_and_hand_to_bot_read_well(
    tmp_path: Path, browser: Any
) -> None:
    problems: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    with LiveServer(tmp_path, seed=lambda: 11) as srv:
        ann, bob = new_page(browser, problems), new_page(browser, problems)
        ann.goto(srv.url)
        ann.fill("#in-name", "Ann")
        ann.select_option("#in-seats", "4")
        ann.click("#btn-create")
        ann.wait_for_selector("#lobby:not([hidden])")
        code = ann.inner_text("#room-code")
        bob.goto(srv.url)
        bob.fill("#in-name", "Bob")
        bob.fill("#in-code", code)
        bob.click("#btn-join")
        bob.wait_for_selector("#lobby:not([hidden])")
        ann.wait_for_selector('#lobby-seats tr[data-seat="1"] td.name:text("Bob")')
        ann.click("#btn-fill")
        ann.wait_for_selector('#lobby-seats tr[data-seat="3"] td.kind:text("bot")')
        ann.click("#btn-start")
        for page in (ann, bob):
            page.wait_for_selector("#table:not([hidden])")
        room = srv.registry.rooms[code]

        # Ann plays until it is Bob's decision: her action bar says who decides, in a sentence.
        deadline = time.monotonic() + 90
        while not (room.match and room.match.game.pending and room.match.game.pending.seat == 1):
            assert time.monotonic() < deadline, "Bob never had a decision"
            if not click_an_option(ann):
                time.sleep(0.05)
        ann.wait_for_function(
            "() => document.getElementById('decision-text').textContent === 'Bob is deciding…'"
        )
        ann.screenshot(path=str(ARTIFACTS / "web-bob-deciding.png"))

        # Two claims at once: the second is refused by the table's pace, told as such.
        bob.evaluate(
            "() => { const b = document.querySelector('#signals .claim[data-role=\"raider\"]');"
            " b.click(); b.click(); }"
        )
        bob.wait_for_function(
            "() => document.getElementById('toast').textContent.startsWith('One signal at a time')"
        )
        assert "Error" not in bob.inner_text("#toast")

        # "Hand to bot" on Bob's seat asks Ann first; Cancel keeps Bob playing his seat.
        ann.click('.seat[data-seat="1"] button.autopilot')
        ann.wait_for_selector("#autopilot-confirm[open]")
        assert ann.inner_text("#autopilot-title") == "Hand Bob's seat to the bot?"
        assert "until you give the seat back" in ann.inner_text("#autopilot-text")
        ann.screenshot(path=str(ARTIFACTS / "web-autopilot-confirm.png"))
        ann.click("#autopilot-no")
        ann.wait_for_selector("#autopilot-confirm", state="hidden")
        time.sleep(0.3)  # a message sent anyway would have reached the room by now
        assert not room.match.seats[1].autopilot  # type: ignore[union-attr]
        ann.click('.seat[data-seat="1"] button.autopilot')
        ann.wait_for_selector("#autopilot-confirm[open]")
        ann.click("#autopilot-yes")
        ann.wait_for_selector('.seat[data-seat="1"] .badge:text("autopilot")')
        assert room.match.seats[1].autopilot  # type: ignore[union-attr]
    assert not problems, problems
