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

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from .args import positive_int
from .errors import CliError
from .progress import Progress

TARGET_SECONDS = 30.0
TARGET_INDEX_BYTES = 1_000_000
TARGET_OPEN_MS = 1000.0
CHROMIUM = Path("/usr/bin/chromium")
SEATS = [4, 5, 6, 7, 8]
MODES = ["classic", "partners", "double_agent", "old_classic"]


def register_bench(bsub: Any) -> None:
    """Add ``report`` to the ``bench`` sub-parser group."""
    p = bsub.add_parser(
        "report",
        help="HTML report of a 1,000-game league: seconds to write, index size, game load time",
        description="Plays a temporary bot-only league (not timed), writes its HTML report and "
        "opens it in headless chromium; ends with one JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=1000, help="games in the league")
    p.add_argument("--run", metavar="RUN", help="report this run instead (default: a new league)")
    p.add_argument("--workers", type=positive_int, default=None, help="processes (default: cores)")
    p.add_argument("--seed", type=int, default=1, help="base seed of the league")
    p.add_argument("--no-browser", action="store_true", help="skip the page-load measurement")
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_report_bench)


def _league(games: int, seed: int, tmp: Path, progress: bool) -> Path:
    from harness.league.config import parse_config

    from .league_bench_cmd import run_league

    cells = len(SEATS) * len(MODES)
    config = parse_config(
        {
            "name": "bench-report",
            "players": [{"name": "rulebot", "kind": "bot"}, {"name": "random", "kind": "random"}],
            "tables": [{"seats": SEATS, "modes": MODES}],
            "games_per_table": max(1, round(games / cells)),
            "paired": False,
            "base_seed": seed,
            "output": str(tmp),
        },
        "bench config",
    )
    run_dir = tmp / config.name
    run_league(config, run_dir, progress=progress)
    return run_dir


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


def _cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (the report's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bench_report(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    from harness.records.run_folder import finished_games, open_run_folder
    from harness.records.store import RecordError
    from harness.report import build_report

    show = not args.no_progress
    try:
        run_dir = Path(args.run) if args.run else _league(args.games, args.seed, tmp, show)
        games = finished_games(open_run_folder(run_dir))
    except RecordError as e:
        raise CliError(str(e)) from None
    workers = args.workers or os.cpu_count() or 1
    out = tmp / "report"
    cpu0 = _cpu_seconds()
    with Progress("bench report", len(games), enabled=show) as bar:
        result = build_report(run_dir, out, workers=workers, on_game=lambda: bar.advance())
    cpu = _cpu_seconds() - cpu0
    sizes = sorted(result.game_bytes)
    largest = max(games, key=lambda g: g.decisions).game_id
    figures: dict[str, Any] = {
        "benchmark": "report",
        "games": result.games,
        "decisions": sum(g.decisions for g in games),
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
        "python": platform.python_version(),
    }
    figures["browser"] = (
        {"skipped": "--no-browser"} if args.no_browser else _browser(result.index, largest)
    )
    return figures


def run_report_bench(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="bangarena-bench-report-") as d:
        r = bench_report(args, Path(d))
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
    print(json.dumps(r))
    return 0
