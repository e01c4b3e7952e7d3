"""The HTML report in a real browser: headless Debian chromium driven by playwright.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; skipped with the reason when either is missing.  Saves a
screenshot of the summary charts, the replay viewer and the page at 800 px to
``test-artifacts/report-summary.png``, ``report.png`` and ``report-800.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.records import RunStore
from harness.report import build_report
from harness.report.html import natural_key
from tests.browser import ARTIFACTS, launch, open_watched, require_chromium, watch_errors

from . import build_run

require_chromium()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunStore, Path]:
    store = build_run(tmp_path_factory.mktemp("runs"), name="browser")
    result = build_report(store.root, workers=1)
    return store, result.index


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_report_summary_game_replay_and_model_prompt(
    report: tuple[RunStore, Path], browser: Any
) -> None:
    store, index = report
    page, problems, requested = open_watched(browser, index.as_uri(), 1400, 1000)

    # The front: a panel per role, one bar per player who played it, with a Wilson whisker.
    roles_played = {o.role for g in store.games() for o in g.seat_outcomes}
    panels = page.locator("#front-roles figure.role-panel")
    assert panels.count() == len(roles_played) and panels.first.is_visible()
    bars = page.locator("#front-roles g.interval")
    assert bars.count() >= 6
    assert bars.first.locator("line").count() == 3
    assert page.locator("#game-list tbody tr").count() == len(store.games())
    # Ratings with intervals and role-adjusted scores, one row per player, as charts and table.
    players = {o.player for g in store.games() for o in g.seat_outcomes}
    assert page.locator("#ratings-table tbody tr").count() == len(players)
    assert "(" in page.locator("#ratings-table tbody tr").first.inner_text()
    for chart in ("#ratings-chart", "#front-scores"):
        assert page.locator(chart).is_visible()
        rows = page.locator(f"{chart} g.interval")
        assert rows.count() == len(players)
        assert rows.first.locator("line.whisker").count() == 1
    assert page.locator("#ratings-chart g.interval circle").count() == len(players)
    assert page.locator("#front-scores g.interval rect").count() == len(players)
    # Win rate by table size × mode per player, and the base rate of every role: a panel per
    # mode, a line or point per player (role) with whiskers.
    modes = {g.mode for g in store.games()}
    size_mode = page.locator("#size-mode-chart svg.panel")
    assert size_mode.count() == len(modes) and size_mode.first.is_visible()
    assert page.locator("#size-mode-chart svg.panel").first.locator("g.series").count() == len(
        players
    )
    base = page.locator("#base-rates-chart svg.panel")
    assert base.count() == len(modes)
    roles = {o.role for g in store.games() for o in g.seat_outcomes}
    assert page.locator("#base-rates-chart .legend li").count() == len(roles)
    assert page.locator("#base-rates-chart circle").count() >= len(roles)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#front").screenshot(path=str(ARTIFACTS / "report-summary.png"))
    assert not any("/games/" in u for u in requested), "game files must load on demand"

    # The game list: natural order, sortable columns, filters.
    ids = [g.game_id for g in store.games()]
    listed = page.locator("#game-list tbody tr a.open-game")
    assert listed.all_inner_texts() == sorted(ids, key=natural_key)
    decisions = {g.game_id: g.decisions for g in store.games()}
    page.click('#game-list th[data-sort="decisions"] button')
    shown = [decisions[i] for i in listed.all_inner_texts()]
    assert shown == sorted(shown)
    assert page.get_attribute('#game-list th[data-sort="decisions"]', "aria-sort") == "ascending"
    page.click('#game-list th[data-sort="decisions"] button')
    shown = [decisions[i] for i in listed.all_inner_texts()]
    assert shown == sorted(shown, reverse=True)
    page.click('#game-list th[data-sort="id"] button')
    assert listed.all_inner_texts() == sorted(ids, key=natural_key)
    page.select_option("#f-player", label="random")
    page.select_option("#f-role", label="Marshal")
    expected = [
        g.game_id
        for g in store.games()
        if any(o.player == "random" and o.role == "marshal" for o in g.seat_outcomes)
    ]
    assert sorted(listed.all_inner_texts()) == sorted(expected)
    assert page.locator("#game-count").inner_text() == str(len(expected))
    page.select_option("#f-player", "")
    page.select_option("#f-role", "")
    page.check("#f-fallbacks")
    assert sorted(listed.all_inner_texts()) == sorted(
        g.game_id for g in store.games() if g.fallbacks
    )
    page.uncheck("#f-fallbacks")
    assert listed.count() == len(ids)

    # Open the longest game; its file is injected only now.
    games = sorted(store.games(), key=lambda g: g.decisions)
    game = games[-1]
    page.click(f'a.open-game[data-game="{game.game_id}"]')
    page.wait_for_selector("#seats .seat-box")
    assert any(u.endswith(f"/games/{game.game_id}.js") for u in requested)
    total = game.decisions + 1
    label = page.locator("#step-label")
    assert label.inner_text() == f"Step 1 of {total}"
    for _ in range(3):
        page.click("#btn-next")
    assert label.inner_text() == f"Step 4 of {total}"
    page.click("#btn-prev")
    assert label.inner_text() == f"Step 3 of {total}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert label.inner_text() == f"Step 5 of {total}"
    page.keyboard.press("ArrowLeft")
    assert label.inner_text() == f"Step 4 of {total}"
    assert page.locator("#feed li").count() > 0
    assert page.locator("#seats .seat-box").count() == game.seats
    # drawn with the web table's art: a portrait per seat, every hand face up in the full view
    assert page.locator("#seats .seat-box svg.portrait").count() == game.seats
    assert page.locator("#seats .seat-hand .card-back").count() == 0

    # Jump to a model decision and open its exact prompt (the button shows: a model plays).
    assert page.locator("#btn-next-model").is_visible()
    page.click("#btn-next-model")
    pane = page.locator("#model-pane")
    assert pane.is_visible()
    page.click("#prompt-details summary")
    prompt = page.locator("#prompt-details")
    assert prompt.get_attribute("open") is not None
    text = prompt.inner_text()
    assert "You are playing BangArena" in text  # the system prompt, by sha256
    assert "Answer with" in text  # the user message as sent
    raw = page.locator("#raw-details").inner_text()
    assert "choice" in raw or "I think I will play" in raw
    page.click("#reasoning-details summary")
    assert "Reasoning #" in page.locator("#reasoning-details").inner_text()
    assert "<b>carefully</b>" in page.locator("#reasoning-details").inner_text()  # shown as text

    # The same step as one seat saw it: distances, that seat's hand face up, every other hand
    # face down, and the page says so.
    step = label.inner_text()
    page.select_option("#seat-select", "0")
    assert label.inner_text() == step
    me = page.locator('#seats .seat-box[data-seat="0"]')
    assert "me" in (me.get_attribute("class") or "")
    assert me.locator(".seat-hand .card-back").count() == 0
    others = page.locator('#seats .seat-box:not([data-seat="0"])')
    assert others.locator(".seat-hand .card-face").count() == 0
    assert others.locator("svg.icon-distance").count() >= 1
    assert page.locator("#view-note").inner_text().startswith("As ")

    # The viewer state is in the address, so a reload comes back to the same step.
    page.reload()
    page.wait_for_selector("#seats .seat-box")
    assert label.inner_text() == step

    # At game over a seat's view shows every role (the game reveals them); before, hidden ones
    # are "?" and no later model decision leaves the button disabled.
    page.keyboard.press("End")
    assert label.inner_text() == f"Step {total} of {total}"
    role_cells = page.locator("#seats .seat-role").all_inner_texts()
    assert "?" not in role_cells and len(role_cells) == game.seats
    assert page.locator("#btn-next-model").is_disabled()
    page.keyboard.press("Home")
    assert "?" in page.locator("#seats .seat-role").all_inner_texts()

    page.select_option("#seat-select", "-1")
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    page.click("#btn-close")
    assert page.locator("#summary").is_visible()
    assert problems == []
    page.close()


def test_report_at_800_px_has_no_page_wide_overflow(
    report: tuple[RunStore, Path], browser: Any
) -> None:
    """Wide tables scroll inside their own box; charts shrink to the page."""
    _store, index = report
    page = browser.new_page(viewport={"width": 800, "height": 1000})
    page.goto(index.as_uri())
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    for chart in ("#ratings-chart", "#front-scores", "#size-mode-chart svg.panel"):
        box = page.locator(chart).first.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 800
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "report-800.png"), full_page=False)
    page.locator("a.open-game").first.click()
    page.wait_for_selector("#seats .seat-box")
    assert page.evaluate("document.documentElement.scrollWidth") <= 800
    page.close()


def test_report_of_a_game_id_that_is_not_a_plain_file_name(tmp_path: Path, browser: Any) -> None:
    store = build_run(
        tmp_path,
        name="odd",
        cells=((4, "classic"),),
        games_per_cell=1,
        players=("rulebot", "random"),
    )
    gid = store.games()[0].game_id
    new_id = "odd game <x>&'1'"
    src = store.games_dir / f"{gid}.jsonl"
    dst = store.games_dir / f"{new_id}.jsonl"
    dst.write_text(src.read_text(encoding="utf-8").replace(gid, new_id), encoding="utf-8")
    src.unlink()
    games = store.games_path.read_text(encoding="utf-8").replace(gid, new_id)
    store.games_path.write_text(games, encoding="utf-8")
    result = build_report(store.root, workers=1)
    assert not (result.out_dir / "games" / f"{new_id}.js").exists()
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(result.index.as_uri())
    page.locator("a.open-game").first.click()
    page.wait_for_selector("#seats .seat-box")
    assert new_id in page.locator("#game-title").inner_text()
    # no model seat in this game: no "next model decision" control
    assert page.locator("#btn-next-model").is_hidden()
    page.keyboard.press("End")
    assert "Game over" in page.locator("#decision-pane").inner_text()
    assert errors == []
    page.close()


def test_the_arabic_report_is_right_to_left_without_errors(
    report: tuple[RunStore, Path], browser: Any, tmp_path: Path
) -> None:
    """``report --locale ar``: the whole page reads right to left in Arabic (issue 15), and the
    viewer draws a game with the Arabic words of the page's labels."""
    store, _index = report
    index = build_report(store.root, tmp_path / "ar", locale="ar", workers=1).index
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    problems: list[str] = []
    watch_errors(page, problems)
    page.goto(index.as_uri())
    assert page.get_attribute("html", "dir") == "rtl" and page.get_attribute("html", "lang") == "ar"
    assert page.locator("#game-list tbody tr").count() == len(store.games())
    page.locator("a.open-game").first.click()
    page.wait_for_selector("#seats .seat-box")
    assert page.locator("#step-label").inner_text().startswith("الخطوة 1 من ")
    page.keyboard.press("End")
    assert "انتهت المباراة" in page.locator("#decision-pane").inner_text()
    assert problems == []
    page.close()
