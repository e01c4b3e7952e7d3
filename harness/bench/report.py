"""``bangarena bench report`` — how long the HTML report of a large league takes, how big it is,
and how fast its pages load; prints figures and a final JSON line.

1. A bot-only league (a rule bot and a random player, every table size × mode, ``--games`` games
   in all; 1,000 by default) is played into a temporary folder — or ``--run RUN`` reports an
   existing run instead.  Playing it is not timed.
2. ``build_report`` writes the report as ``bangarena report`` does (``--workers`` processes);
   the figures: wall time, time per game, ``index.html`` size, per-game file sizes.
3. With playwright and a chromium (``/usr/bin/chromium``; skipped otherwise, or with
   ``--no-browser``), the page is opened headless: the time until the game list is drawn, and
   the time to open the largest game (its file loaded and the first step drawn).

Targets: 1,000 games written in ≤ 30 s on 2 cores, ``index.html`` ≤ 1 MB, a game opened in
under a second.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Any

from .core import BenchError, cpu_seconds, print_result, python_version, temp_dir
from .league import rulebot_and_random
from .progress_display import Progress

TARGET_SECONDS = 30.0
TARGET_INDEX_BYTES = 1_000_000
TARGET_OPEN_MS = 1000.0
CHROMIUM = Path("/usr/bin/chromium")
SEATS = [4, 5, 6, 7, 8]
MODES = ["classic", "partners", "double_agent", "old_classic"]


def _league(games: int, seed: int, tmp: Path, progress: bool) -> Path:
    tables = [{"seats": SEATS, "modes": MODES}]
    cells = len(SEATS) * len(MODES)
    return rulebot_and_random("bench-report", tables, cells, games, seed, tmp, progress)


def _browser(index: Path, largest: str) -> dict[str, Any]:
    """Page-load figures in headless chromium, or why they were skipped."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"skipped": "playwright is not installed"}
    if not CHROMIUM.exists():
        return {"skipped": f"{CHROMIUM} is missing"}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page(viewport={"width": 1300, "height": 900})
            t0 = time.perf_counter()
            page.goto(index.as_uri())
            page.wait_for_selector("#game-list tbody tr")
            index_ms = 1000 * (time.perf_counter() - t0)
            t0 = time.perf_counter()
            page.evaluate("id => { location.hash = 'game=' + encodeURIComponent(id); }", largest)
            page.wait_for_selector("#seat-table")
            open_ms = 1000 * (time.perf_counter() - t0)
            t0 = time.perf_counter()
            page.keyboard.press("End")
            page.wait_for_function("document.getElementById('btn-next').disabled")
            end_ms = 1000 * (time.perf_counter() - t0)
        finally:
            browser.close()
    return {
        "index_ms": round(index_ms, 1),
        "open_largest_game_ms": round(open_ms, 1),
        "jump_to_end_ms": round(end_ms, 1),
        "target_open_ms": TARGET_OPEN_MS,
        "pass": open_ms < TARGET_OPEN_MS,
    }


def bench_report(
    games: int,
    seed: int,
    tmp: Path,
    run: str | None = None,
    workers: int | None = None,
    browser: bool = True,
    progress: bool = True,
) -> dict[str, Any]:
    """The report of a new bot-only league of ``games`` games (or of the run folder ``run``)
    written into ``tmp``; its figures."""
    from harness.records.run_folder import finished_games, open_run_folder
    from harness.records.store import RecordError
    from harness.report import build_report

    try:
        run_dir = Path(run) if run else _league(games, seed, tmp, progress)
        finished = finished_games(open_run_folder(run_dir))
    except RecordError as e:
        raise BenchError(str(e)) from None
    workers = workers or os.cpu_count() or 1
    out = tmp / "report"
    cpu0 = cpu_seconds(children=True)  # this process and its finished worker processes
    with Progress("bench report", len(finished), enabled=progress) as bar:
        result = build_report(run_dir, out, workers=workers, on_game=lambda: bar.advance())
    cpu = cpu_seconds(children=True) - cpu0
    sizes = sorted(result.game_bytes)
    largest = max(finished, key=lambda g: g.decisions).game_id
    figures: dict[str, Any] = {
        "benchmark": "report",
        "games": result.games,
        "decisions": sum(g.decisions for g in finished),
        "workers": workers,
        "cores": os.cpu_count(),
        "seconds": round(result.seconds, 2),
        "cpu_seconds": round(cpu, 2),  # this process and its worker processes
        "seconds_if_cores_idle": round(cpu / workers, 2),
        "ms_per_game": round(1000 * result.seconds / max(1, result.games), 1),
        "index_bytes": result.index_bytes,
        "game_bytes_median": int(statistics.median(sizes)) if sizes else 0,
        "game_bytes_max": sizes[-1] if sizes else 0,
        "total_mb": round(result.bytes / 1e6, 1),
        "warnings": len(result.warnings),
        "target_seconds": TARGET_SECONDS,
        "target_index_bytes": TARGET_INDEX_BYTES,
        "pass": result.seconds <= TARGET_SECONDS and result.index_bytes <= TARGET_INDEX_BYTES,
        "python": python_version(),
    }
    figures["browser"] = _browser(result.index, largest) if browser else {"skipped": "--no-browser"}
    return figures


def run(
    games: int,
    seed: int,
    run: str | None = None,
    workers: int | None = None,
    browser: bool = True,
    progress: bool = True,
) -> int:
    """Measure, print the figures and the JSON line."""
    with temp_dir("bangarena-bench-report-") as tmp:
        r = bench_report(games, seed, tmp, run, workers, browser, progress)
    b = r["browser"]
    print(f"report benchmark: {r['games']:,} games ({r['decisions']:,} decisions), "
          f"{r['workers']} worker processes on {r['cores']} cores")  # fmt: skip
    print(f"  written in          {r['seconds']:>10,.2f} s  ({r['ms_per_game']} ms per game; "
          f"target <= {TARGET_SECONDS:g} s for 1,000 games)")  # fmt: skip
    print(f"  CPU time            {r['cpu_seconds']:>10,.2f} s  (all processes; "
          f"{r['seconds_if_cores_idle']:,.1f} s of wall time on {r['workers']} idle cores)")  # fmt: skip
    print(f"  index.html          {r['index_bytes'] / 1e3:>10,.0f} kB  (target <= 1 MB)")
    print(f"  game files          {r['game_bytes_median'] / 1e3:>10,.0f} kB median, "
          f"{r['game_bytes_max'] / 1e3:,.0f} kB largest, {r['total_mb']:,} MB in all")  # fmt: skip
    if "skipped" in b:
        print(f"  browser             skipped: {b['skipped']}")
    else:
        print(f"  page ready          {b['index_ms']:>10,.0f} ms  (game list drawn)")
        print(f"  largest game open   {b['open_largest_game_ms']:>10,.0f} ms  (target < 1 s; "
              f"jump to its end {b['jump_to_end_ms']:,.0f} ms)")  # fmt: skip
    return print_result(r)
