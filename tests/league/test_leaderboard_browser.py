"""The ``bangarena leaderboard`` page in a real browser (headless Debian chromium driven by
playwright): the table renders with one row per CSV row, the left-out run and its reason are
shown, every score carries its visible 95 % interval, and nothing on the page needs an emoji font.

Needs ``pip install playwright`` (never ``playwright install``: the system chromium is used) and
``apt-get install -y chromium``; skipped with the reason when either is missing.  Saves a
screenshot to ``test-artifacts/leaderboard.png``.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.cli.main import main
from harness.runs import ROLE_ADJUSTED
from tests.browser import ARTIFACTS, launch, open_watched, require_chromium
from tests.web.test_browser_table import PAGE_TEXT, emoji_in

from .test_leaderboard import _league

require_chromium()

# a win rate in % and a role-adjusted score in pp (the header says which), inside 0–100 % / ±100
RATE = re.compile(r"^\d+\.\d % \(\d+\.\d % – \d+\.\d %\)$")
POINTS = re.compile(r"^[+-]\d+\.\d \([+-]\d+\.\d – [+-]\d+\.\d\)$")
RATING = re.compile(r"^-?\d+\.\d \[-?\d+\.\d, -?\d+\.\d\]$")
CELLS = """() => [...document.querySelectorAll('#leaderboard tr')].slice(1).map((tr) =>
  [...tr.cells].map((td) => td.innerText.trim()))"""
NOTES_SHOWN = """() => [...document.querySelectorAll('#leaderboard td span.note')].map((s) => {
  const r = s.getBoundingClientRect(); const st = getComputedStyle(s);
  return r.width > 0 && r.height > 0 && st.visibility === 'visible' && st.display !== 'none'
    && parseFloat(st.opacity) > 0; })"""


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, str]], Path]:
    root = tmp_path_factory.mktemp("board-page")
    a, b = _league(root, "runa"), _league(root, "runb", seed=2)
    five = _league(root, "runfive", seats=5)
    out = root / "board"
    argv = ["leaderboard", str(a), str(b), str(five), "--out", str(out), "--bootstrap", "10"]
    assert main(argv) == 0
    with (out / "leaderboard.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return out / "leaderboard.html", rows, five


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_the_leaderboard_page_shows_the_table_the_left_out_run_and_intervals(
    board: tuple[Path, list[dict[str, str]], Path], browser: Any
) -> None:
    html, rows, five = board
    page, problems, requested = open_watched(browser, html.as_uri(), 1280, 900)

    # the front: players by score, a panel per role
    assert page.locator("#front-scores g.interval").count() == len(
        [r for r in rows if r["role"] == ROLE_ADJUSTED]
    )
    assert page.locator("#front-roles figure.role-panel").count() == len(
        {r["role"] for r in rows if r["role"] != ROLE_ADJUSTED}
    )
    table = page.locator("#leaderboard")
    assert table.is_visible()
    box = table.bounding_box()
    assert box is not None and box["width"] > 400 and box["height"] > 20 * len(rows)
    cells = page.evaluate(CELLS)
    assert len(cells) == len(rows)  # one row per CSV row, in its order
    for got, want in zip(cells, rows, strict=True):
        player, _plays, role, n, raw, adjusted, mu, ordinal, _runs = got
        assert (player, role, n) == (want["player"], want["role"], want["seat_games"])
        unit = POINTS if role == ROLE_ADJUSTED else RATE
        assert unit.match(raw), raw
        assert float(raw.split()[0]) == pytest.approx(100 * float(want["raw"]), abs=0.051)
        assert unit.match(adjusted), adjusted
        if role != ROLE_ADJUSTED:  # a luck-adjusted mean is shown inside 0–100 %
            assert 0.0 <= float(adjusted.split()[0]) <= 100.0
        if role == ROLE_ADJUSTED:
            assert RATING.match(mu) and RATING.match(ordinal), (mu, ordinal)
        else:
            assert mu == ordinal == ""
    shown = page.evaluate(NOTES_SHOWN)
    assert len(shown) == 2 * len(rows) + 2 * sum(r["role"] == ROLE_ADJUSTED for r in rows)
    assert all(shown)  # every interval is laid out and visible

    left = page.locator(".left-out")
    assert left.count() == 1 and left.is_visible()
    assert left.inner_text() == f"Left out {five}: seat counts 5 ≠ 4"

    text = page.evaluate(PAGE_TEXT)
    assert emoji_in(text) == []
    assert page.locator("img").count() == 0  # no picture but inline SVG
    assert all(u.startswith(("file:", "data:")) for u in requested)
    assert problems == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "leaderboard.png"), full_page=True)
    page.close()
