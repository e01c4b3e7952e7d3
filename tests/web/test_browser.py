"""The web table in a real browser: headless Debian chromium driven by playwright.

Two browser contexts are two people.  One creates a room, the other joins by its code, the host
seats a model (a fake OpenAI server on 127.0.0.1) and fills the rest with bots; both play a whole
game through the page.  On the way the host hands the second person's seat to the bot and gives
it back, the second person reloads the page mid-game and gets the seat back, and switches to
Russian (after a look at the table in Arabic, right to left).  The finished game is then in
``bangarena report``.  The page runs under its Content-Security-Policy (its own scripts and styles
only, no eval: the test's waits are functions, not strings) and any violation is a console error.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; skipped with the reason when either is missing.  Saves
screenshots to ``test-artifacts/web-*.png``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.cli.main import main
from harness.records import RunStore
from tests.browser import ARTIFACTS, launch, require_chromium, watch_errors
from tests.fakes.backends import KEY_ENV, SECRET_KEY, model_player
from tests.fakes.openai_server import FakeOpenAIServer

from .server import LiveServer

sync_api = require_chromium()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def watch_problems(page: Any, problems: list[str]) -> None:
    watch_errors(page, problems)
    page.on(
        "request",
        lambda r: None if r.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:"))
        else problems.append(f"request off the machine: {r.url}"),
    )  # fmt: skip


def click_an_option(page: Any) -> bool:
    """Click the first option of the action bar's full list of options (opened first), if the
    page shows any (the page re-renders often)."""
    buttons = page.locator("#options button.option:not([disabled])")
    try:
        if buttons.count():
            if not page.evaluate("document.getElementById('all-options').open"):
                page.click("#all-options summary", timeout=1000)
            buttons.first.click(timeout=1000)
            return True
    except sync_api.Error:
        pass
    return False


def over(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('over').open"))


def test_two_people_bots_and_a_model_play_a_whole_game(
    tmp_path: Path, browser: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    problems: list[str] = []
    ARTIFACTS.mkdir(exist_ok=True)
    with FakeOpenAIServer() as fake:
        player = model_player("gpt-test", fake.base_url)
        with LiveServer(tmp_path, players=[player], seed=lambda: 2024) as srv:
            ann = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
            bob = browser.new_context(viewport={"width": 1300, "height": 1000}).new_page()
            for page in (ann, bob):
                watch_problems(page, problems)

            # Ann creates a room; Bob joins it by its code.
            ann.goto(srv.url)
            ann.fill("#in-name", "Ann")
            ann.select_option("#in-seats", "5")
            ann.select_option("#in-time", "15")
            ann.select_option("#in-speed", "fast")
            ann.click("#btn-create")
            ann.wait_for_selector("#lobby:not([hidden])")
            code = ann.inner_text("#room-code")
            assert len(code) == 5 and code in ann.inner_text("#room-link")
            bob.goto(srv.url)
            bob.fill("#in-name", "Bob")
            bob.fill("#in-code", code.lower())
            bob.click("#btn-join")
            bob.wait_for_selector("#lobby:not([hidden])")
            assert "Bob" in bob.inner_text('#lobby-seats tr[data-seat="1"]')
            ann.wait_for_selector('#lobby-seats tr[data-seat="1"] td.name:text("Bob")')
            assert bob.locator("#btn-start").is_hidden()  # only the host starts

            # The host seats the model in seat 3, fills the rest with bots and starts.
            ann.select_option('#lobby-seats tr[data-seat="2"] select.pick', "gpt-test")
            ann.click('#lobby-seats tr[data-seat="2"] button.seat-bot')
            ann.wait_for_selector('#lobby-seats tr[data-seat="2"] td.kind:text("openai/gpt-test")')
            ann.click("#btn-fill")
            ann.wait_for_selector('#lobby-seats tr[data-seat="4"] td.kind:text("bot")')
            ann.click("#btn-start")
            for page in (ann, bob):
                page.wait_for_selector("#table:not([hidden])")
            assert "You are Ann" in ann.inner_text("#you-line")
            assert ann.locator(".seat").count() == 5
            assert "openai/gpt-test" in ann.inner_text('.seat[data-seat="2"] .badge')

            # Bob switches to Russian: the page and the game's own labels change.
            bob.select_option("#in-locale", "ru")
            bob.wait_for_function(
                "() => document.querySelector('.seat[data-seat=\"3\"]').textContent.includes('Бот 4')"
            )
            assert "Раунд" in bob.inner_text("#status")
            assert "Ты — Bob" in bob.inner_text("#you-line")
            # ... and to Arabic for a moment: right to left, the page's and the game's words.
            bob.select_option("#in-locale", "ar")
            bob.wait_for_selector('html[dir="rtl"][lang="ar"]')
            bob.wait_for_function(
                "() => document.querySelector('.seat[data-seat=\"3\"]').textContent.includes('بوت 4')"
            )
            assert bob.inner_text("#btn-table-back") == "→ رجوع"
            assert "الجولة" in bob.inner_text("#status")
            bob.select_option("#in-locale", "ru")
            bob.wait_for_selector('html[dir="ltr"][lang="ru"]')

            room = srv.registry.rooms[code]
            steps = {"autopilot": "off", "reloaded": False, "clicks": 0}
            deadline = time.monotonic() + 150
            while not (over(ann) and over(bob)):
                assert time.monotonic() < deadline, "the game did not end in time"
                progressed = False
                for page in (ann, bob):
                    if not over(page) and click_an_option(page):
                        steps["clicks"] += 1
                        progressed = True
                decisions = room.match.decisions if room.match else []
                if steps["autopilot"] == "off" and steps["clicks"] >= 6:
                    # The host hands Bob's seat to the bot (asked first) ...
                    ann.click('.seat[data-seat="1"] button.autopilot')
                    ann.wait_for_selector("#autopilot-confirm[open]")
                    ann.click("#autopilot-yes")
                    ann.wait_for_selector('.seat[data-seat="1"] .badge:text("autopilot")')
                    bob.wait_for_selector('.seat[data-seat="1"] .badge:text("автопилот")')
                    steps["autopilot"] = "on"
                elif steps["autopilot"] == "on" and any(
                    d.seat == 1 and d.fallback == "autopilot" for d in decisions
                ):
                    # ... and gives it back once the bot has played for him.
                    ann.click('.seat[data-seat="1"] button.autopilot')
                    ann.wait_for_function(
                        "() => !document.querySelector('.seat[data-seat=\"1\"] .badge')"
                        ".textContent.includes('autopilot')"
                    )
                    steps["autopilot"] = "back"
                elif steps["autopilot"] == "back" and not steps["reloaded"]:
                    # Bob reloads the page mid-game: his seat and the whole view come back.
                    bob.reload()
                    bob.wait_for_selector("#table:not([hidden])")
                    bob.wait_for_function(
                        "() => document.getElementById('feed').children.length > 10"
                    )
                    assert "Bob" in bob.inner_text("#you-line")
                    assert bob.locator("#hand .card").count() == len(
                        room.match.game.seats[1].hand  # type: ignore[union-attr]
                    )
                    steps["reloaded"] = True
                    # the table mid-game, as the README shows it (docs/screens/table-desktop.png)
                    (ARTIFACTS / "screens").mkdir(exist_ok=True)
                    ann.screenshot(path=str(ARTIFACTS / "screens" / "table-desktop.png"))
                if not progressed:
                    time.sleep(0.03)
            ann.screenshot(path=str(ARTIFACTS / "web-table-over.png"))
            bob.screenshot(path=str(ARTIFACTS / "web-table-over-ru.png"))
            assert steps["reloaded"], steps

            # Game over: winners, every role revealed, a per-player summary.
            assert ann.inner_text("#over h2") == "Game over"
            headline = ann.inner_text("#over-headline")  # who won, without "Game over" again
            assert " win" in headline and "Game over" not in headline, headline
            bob_row = ann.locator("#over-players tbody tr").nth(1).inner_text()
            assert "by the bot)" in bob_row and "fallbacks" not in bob_row, bob_row  # autopilot
            assert "Игра окончена" in bob.inner_text("#over h2")
            rows = ann.locator("#over-players tbody tr")
            assert rows.count() == 5
            game = room.match.game  # type: ignore[union-attr]
            from harness.views.names import role_name

            shown = ann.locator("#over-players td.role").all_inner_texts()
            assert shown == [role_name(s.role) for s in game.seats]
            assert ann.locator("#over-players tr.won").count() == len(game.winners)

            # The library and the rules, from the app itself.
            ann.click("#over-close")
            ann.click("#btn-library")
            ann.wait_for_selector("#library-body tr")
            ann.click('#library .tabs button[data-tab="rules"]')
            ann.wait_for_selector("#library-body pre")
            assert "BangArena" in ann.inner_text("#library-body pre")
    assert not problems, problems
    store = RunStore(tmp_path / "web")
    (g,) = store.games()
    _, decisions, _ = store.read_game(g.game_id)
    assert any(d.seat == 1 and d.fallback == "autopilot" for d in decisions)
    assert not any(d.fallback == "timeout" for d in decisions), "nobody was left unasked"
    assert any(d.seat == 2 and d.model is not None for d in decisions)
    assert [o.kind for o in g.seat_outcomes] == ["human", "human", "model", "bot", "bot"]
    assert main(["report", str(store.root), "--out", str(tmp_path / "html"), "--workers", "1"]) == 0
