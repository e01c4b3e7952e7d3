"""The move analysis in the HTML report, in a real browser (headless Debian chromium): the
per-role table, each game's win-probability graph (SVG drawn by report.js) with markers on
inaccuracies, mistakes and blunders, and a click on a marker opening that decision with every
option's value."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.analysis.run_moves import read_moves, run_moves, settings_for
from harness.records import RunStore
from harness.report import build_report
from tests.browser import ARTIFACTS, launch, require_chromium, watch_errors

from . import build_run

require_chromium()


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[RunStore, Path]:
    store = build_run(tmp_path_factory.mktemp("runs"), name="moves", players=("rulebot", "random"))
    run_moves(store.root, settings_for(worlds=2, max_worlds=2))
    result = build_report(store.root, workers=1)
    return store, result.index


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def test_win_probability_graph_markers_and_click(
    report: tuple[RunStore, Path], browser: Any
) -> None:
    store, index = report
    moves = read_moves(store.root)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    problems: list[str] = []
    watch_errors(page, problems)
    page.goto(index.as_uri())
    roles = {m.role for rec in moves.values() for m in rec.decisions}
    assert page.locator("#moves-table tbody tr").count() == len(roles)

    # the game with the most labelled decisions
    gid, rec = max(moves.items(), key=lambda kv: sum(m.label is not None for m in kv[1].decisions))
    labelled = [m for m in rec.decisions if m.label is not None]
    assert labelled, "no labelled decision in any game"
    page.click(f'a.open-game[data-game="{gid}"]')
    page.wait_for_selector("#wp-svg")
    assert page.locator("#wp-pane").is_visible()
    seats = {m.seat for m in rec.decisions}
    assert page.locator("#wp-svg polyline.wp-line").count() == len(seats)
    points = page.locator("#wp-svg polyline.wp-line").first.get_attribute("points") or ""
    first_seat = int(page.locator("#wp-svg polyline.wp-line").first.get_attribute("data-seat") or 0)
    assert len(points.split()) == sum(m.seat == first_seat for m in rec.decisions)
    markers = page.locator("#wp-svg circle.wp-marker")
    assert markers.count() == len(labelled)
    for label in ("inaccuracy", "mistake", "blunder"):
        want = sum(m.label == label for m in labelled)
        assert page.locator(f"#wp-svg circle.wp-{label}").count() == want

    # a click on the last marker opens that decision with each option's value
    target = labelled[-1]
    markers.nth(len(labelled) - 1).dispatch_event("click")
    step = int(markers.nth(len(labelled) - 1).get_attribute("data-step") or -1)
    total = next(g.decisions for g in store.games() if g.game_id == gid) + 1
    assert page.locator("#step-label").inner_text() == f"Step {step + 1} of {total}"
    pane = page.locator("#decision-pane")
    assert f"Decision {target.index} " in pane.inner_text()
    verdict = page.locator("#analysis-verdict").inner_text()
    se = f" ± {100 * target.loss_se:.1f}" if target.loss_se is not None else ""
    assert target.label in verdict and f"{100 * target.loss:.1f}{se} pp" in verdict
    values = page.locator("#options .wp-value").all_inner_texts()
    assert values == [f"{100 * v:.1f} %" for v in target.values]
    chosen = page.locator("#options li.chosen").inner_text()
    assert target.chosen in chosen
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#viewer").screenshot(path=str(ARTIFACTS / "report-moves.png"))

    # viewed as another seat, that seat's graph only (none when it was not analysed)
    other = next(i for i in range(8) if i not in seats)
    page.select_option("#seat-select", str(other))
    assert page.locator("#wp-pane").is_hidden()
    assert not problems, problems
