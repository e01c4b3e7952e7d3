"""The HTML report in a real browser: headless Debian chromium driven by playwright.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; skipped with the reason when either is missing.  Saves a
screenshot of the replay viewer to ``test-artifacts/report.png``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.records import RunStore
from harness.report import build_report

from . import build_run

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
)
if not CHROMIUM.exists():  # pragma: no cover - depends on the machine
    pytest.skip(f"{CHROMIUM} is missing (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunStore, Path]:
    store = build_run(tmp_path_factory.mktemp("runs"), name="browser")
    result = build_report(store.root, workers=1)
    return store, result.index


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        try:
            yield b
        finally:
            b.close()


def test_report_summary_game_replay_and_model_prompt(
    report: tuple[RunStore, Path], browser: Any
) -> None:
    store, index = report
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    page.on(
        "console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type == "error" else None
    )
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(index.as_uri())

    # The summary chart: one bar per player × role, with a Wilson whisker each.
    assert page.locator("#win-rate-chart").is_visible()
    bars = page.locator("#win-rate-chart g.bar")
    assert bars.count() >= 6
    assert bars.first.locator("line").count() == 3
    assert page.locator("#game-list tbody tr").count() == len(store.games())
    # Ratings with intervals and role-adjusted scores, one row per player.
    players = {o.player for g in store.games() for o in g.seat_outcomes}
    assert page.locator("#ratings-table tbody tr").count() == len(players)
    assert "(" in page.locator("#ratings-table tbody tr").first.inner_text()
    assert not any("/games/" in u for u in requested), "game files must load on demand"

    # Open the longest game; its file is injected only now.
    games = sorted(store.games(), key=lambda g: g.decisions)
    game = games[-1]
    page.click(f'a.open-game[data-game="{game.game_id}"]')
    page.wait_for_selector("#seat-table")
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
    assert page.locator("#seat-table tbody tr").count() == game.seats

    # Jump to a model decision and open its exact prompt.
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

    # The same step as one seat saw it: a distance column and that seat's hand only.
    step = label.inner_text()
    page.select_option("#seat-select", "0")
    assert label.inner_text() == step
    assert "Dist" in page.locator("#seat-table thead").inner_text()
    assert page.locator("#table-pane h3").first.inner_text().startswith("Your hand")

    # The viewer state is in the address, so a reload comes back to the same step.
    page.reload()
    page.wait_for_selector("#seat-table")
    assert label.inner_text() == step

    ARTIFACTS.mkdir(exist_ok=True)
    page.select_option("#seat-select", "-1")
    page.screenshot(path=str(ARTIFACTS / "report.png"), full_page=True)
    page.click("#btn-close")
    assert page.locator("#summary").is_visible()
    assert problems == []
    page.close()


def test_report_of_a_game_id_that_is_not_a_plain_file_name(tmp_path: Path, browser: Any) -> None:
    store = build_run(tmp_path, name="odd", cells=((4, "classic"),), games_per_cell=1)
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
    page.wait_for_selector("#seat-table")
    assert new_id in page.locator("#game-title").inner_text()
    page.keyboard.press("End")
    assert "Game over" in page.locator("#decision-pane").inner_text()
    assert errors == []
    page.close()
