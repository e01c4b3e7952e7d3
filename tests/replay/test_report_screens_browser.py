"""Every page the project writes at a desktop (1400 × 900) and a phone (390 × 844) width, in
headless Debian chromium (issue 36): the report's front, the replay viewer, the leaderboard and
the rules-quiz page never scroll sideways; chart text stays legible on the phone; the replay
draws the table with the web table's art, its player header carries each seat's move accuracy,
a model seat's answer sits beside the board, the win-probability graph has axes and a legend,
and Play steps through the game.

Saves the six screenshots of the report, the replay and the leaderboard at both widths to
``test-artifacts/screens/`` (the copies in ``docs/screens/`` are these, see docs/report.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from harness.analysis.run_moves import read_moves, run_moves, settings_for
from harness.cli.main import main
from harness.records import RunStore
from harness.report import build_report
from tests.browser import ARTIFACTS, launch, open_watched, require_chromium

from . import build_run

require_chromium()

SIZES = {"desktop": (1400, 900), "phone": (390, 844)}
SCREENS = ARTIFACTS / "screens"
# The smallest rendered size of any chart text: its font size times the scale its SVG is drawn
# at (an SVG shrunk to a phone's width shrinks its text with it).
SMALLEST_TEXT = """() => {
  let out = [];
  for (const t of document.querySelectorAll('svg.chart-svg text, #wp-svg text')) {
    const svg = t.ownerSVGElement, r = svg.getBoundingClientRect();
    if (!r.width) continue;
    const vb = svg.viewBox.baseVal, scale = vb && vb.width ? r.width / vb.width : 1;
    out.push([parseFloat(getComputedStyle(t).fontSize) * scale, svg.id || svg.className.baseVal]);
  }
  out.sort((a, b) => a[0] - b[0]);
  return out.slice(0, 3);
}"""


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    root = tmp_path_factory.mktemp("screens")
    store = build_run(root, name="screens", games_per_cell=2)
    run_moves(store.root, settings_for(worlds=2, max_worlds=2))
    index = build_report(store.root, workers=1).index
    board = root / "board"
    assert main(["leaderboard", str(store.root), "--out", str(board), "--bootstrap", "10"]) == 0
    quiz = root / "quiz.html"
    quiz.write_text(_quiz_page(), encoding="utf-8")
    moves = read_moves(store.root)
    # the game whose analysis has the most labelled decisions, with a model seat in it
    gid = max(moves, key=lambda g: sum(m.label is not None for m in moves[g].decisions))
    _start, decisions, _end = store.read_game(gid)
    # a model decision a few turns in: the screenshots show its answer beside the board
    shown = next(
        (i for i, d in enumerate(decisions) if i >= 20 and d.model and d.model.get("attempts")),
        30,
    )
    return {
        "store": store,
        "index": index,
        "board": board / "leaderboard.html",
        "quiz": quiz,
        "game": gid,
        "moves": moves[gid],
        "shown": shown,
    }


def _quiz_page() -> str:
    from harness.quiz.dataset import read_dataset
    from harness.quiz.quiz_summary import summarize
    from harness.quiz.run import QuizAnswer
    from harness.report.quiz_page import render_quiz_page

    dataset = read_dataset(Path(__file__).resolve().parents[2] / "quizzes" / "core.en.jsonl")
    answers = [
        QuizAnswer(
            run="screens",
            dataset=dataset.label,
            dataset_sha256="x",
            question_id=q.id,
            kind=q.kind,
            mode=q.mode,
            seats=q.seats,
            answer_shape=q.answer_shape,
            player="fakellm",
            model="openai:fake-1",
            rules="rules.en.md",
            rules_sha256="0" * 64,
            expected=q.answer,
            given=q.answer if i % 3 == 0 else [],
            exact=i % 3 == 0,
            f1=float(i % 3 == 0),
            fallback=None,
            record={},
        )  # fmt: skip
        for i, q in enumerate(dataset.questions[:30])
    ]
    return render_quiz_page(summarize("screens", dataset, answers), dataset, answers)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launch()


def _replay_url(pages: dict[str, Any], step: int = 0, seat: int = -1) -> str:
    return f"{pages['index'].as_uri()}#game={pages['game']}&step={step}&seat={seat}"


@pytest.mark.parametrize("size", list(SIZES))
def test_no_page_scrolls_sideways(pages: dict[str, Any], browser: Any, size: str) -> None:
    width, height = SIZES[size]
    urls = {
        "report": pages["index"].as_uri(),
        "replay": _replay_url(pages, step=pages["shown"]),
        "leaderboard": pages["board"].as_uri(),
        "quiz": pages["quiz"].as_uri(),
    }
    for name, url in urls.items():
        page, problems, _requested = open_watched(browser, url, width, height)
        if name == "replay":
            page.wait_for_selector("#seats .seat-box")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, (name, size)
        assert problems == [], (name, problems)
        if name != "quiz":
            SCREENS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENS / f"{name}-{size}.png"))
        page.close()


def test_chart_text_is_legible_on_a_phone(pages: dict[str, Any], browser: Any) -> None:
    for url in (pages["index"].as_uri(), pages["board"].as_uri(), _replay_url(pages, 30)):
        page, problems, _ = open_watched(browser, url, 390, 844)
        if "#game=" in url:
            page.wait_for_selector("#wp-svg")
        smallest = page.evaluate(SMALLEST_TEXT)
        assert smallest, url
        assert smallest[0][0] >= 10.0, (url, smallest)
        assert problems == []
        page.close()


def test_the_replay_draws_the_table_and_a_model_answer_beside_it(
    pages: dict[str, Any], browser: Any
) -> None:
    store: RunStore = pages["store"]
    game = next(g for g in store.games() if g.game_id == pages["game"])
    page, problems, _ = open_watched(browser, _replay_url(pages), 1400, 900)
    page.wait_for_selector("#seats .seat-box")
    # the web table's art: a portrait per seat (board and header), card faces with pictograms
    assert page.locator("#seats .seat-box svg.portrait").count() == game.seats
    assert page.locator("#player-header .player-chip svg.portrait").count() == game.seats
    assert page.locator("#seats .seat-hand .card-face svg.picto").count() >= game.seats
    assert page.locator("#view-note").inner_text().startswith("Full view")

    # the header: each analysed seat's accuracy and counts, as the move analysis has them
    moves = pages["moves"]
    for seat in {m.seat for m in moves.decisions}:
        mine = [m for m in moves.decisions if m.seat == seat]
        chip = page.locator(f'#player-header .player-chip[data-seat="{seat}"]')
        acc = sum(m.accuracy for m in mine) / len(mine)
        assert chip.locator(".acc-value").inner_text() == f"Accuracy {acc:.1f}"
        for label, cls in (("inaccuracy", "Inaccuracies"), ("mistake", "Mistakes"),
                           ("blunder", "Blunders")):  # fmt: skip
            want = sum(m.label == label for m in mine)
            assert chip.locator(f".lv-{label}").inner_text() == f"{cls} {want}"

    # the graph: axes with ticks, a legend line per analysed seat and one per level
    assert page.locator("#wp-svg .wp-tick").count() >= 7
    assert page.locator("#wp-svg .wp-label").all_text_contents() == ["step", "win probability"]
    seats = {m.seat for m in moves.decisions}
    assert page.locator("#wp-legend li.wp-seat").count() == len(seats)
    levels = page.locator("#wp-legend li.wp-level").all_inner_texts()
    assert levels[:3] == [
        "inaccuracy: lost at least 5 pp against the best option",
        "mistake: lost at least 10 pp against the best option",
        "blunder: lost at least 15 pp against the best option",
    ]

    # a model decision: its reason and reasoning beside the board, at the board's height
    page.click("#btn-next-model")
    thinking = page.locator("#thinking-pane")
    assert thinking.is_visible()
    assert "Reasoning #" in thinking.inner_text()
    board, side = page.locator("#table-pane").bounding_box(), thinking.bounding_box()
    assert board is not None and side is not None
    assert side["x"] >= board["x"] + board["width"] and side["y"] < board["y"] + board["height"]
    # another seat's view never shows it (the decider's prompt and hand are its own)
    decider = int(page.locator("#seats .seat-box.deciding").get_attribute("data-seat") or -1)
    other = next(i for i in range(game.seats) if i != decider)
    page.select_option("#seat-select", str(other))
    assert thinking.is_hidden() and page.locator("#options").count() == 0
    assert page.locator("#view-note").inner_text().startswith("As ")

    # Play steps on by itself until paused
    page.select_option("#seat-select", "-1")
    label = page.locator("#step-label")
    before = label.inner_text()
    page.click("#btn-play")
    assert page.get_attribute("#btn-play", "aria-pressed") == "true"
    page.wait_for_function(
        "(t) => document.getElementById('step-label').textContent !== t", arg=before,
        timeout=30_000,
    )  # fmt: skip
    page.click("#btn-play")
    assert page.get_attribute("#btn-play", "aria-pressed") == "false"
    assert problems == []
    page.close()


def test_the_replay_on_a_phone_stacks_the_seats(pages: dict[str, Any], browser: Any) -> None:
    page, problems, _ = open_watched(browser, _replay_url(pages, step=20), 390, 844)
    page.wait_for_selector("#seats .seat-box")
    boxes = [b for b in (page.locator("#seats .seat-box").nth(i).bounding_box()
                         for i in range(page.locator("#seats .seat-box").count())) if b]  # fmt: skip
    assert boxes and all(b["x"] >= 0 and b["x"] + b["width"] <= 390 for b in boxes)
    assert len({round(b["x"]) for b in boxes}) == 1  # one column
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert problems == []
    page.close()
