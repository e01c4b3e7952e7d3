"""``bangarena report RUN``: a self-contained offline HTML report with a replay viewer.

Layout of the output folder (default ``RUN/report``)::

    index.html          summary, the front (:mod:`harness.report.front`: players by
                        role-adjusted score, a panel per role, shared with the leaderboard page)
                        and charts (inline SVG: ratings, win rate by table size × mode, base role
                        rates, all with 95 % intervals), player, rating and table figures, the
                        game list (compact JSON drawn by the page: sortable, filterable, shown a
                        page at a time) and the viewer shell; CSS and JS inlined from
                        ``harness/report/static`` and the web table's art
                        (``harness/web/static/art.js``, the same file); no external scripts,
                        fonts or CDNs
    games/<id>.js       one file per game (:mod:`harness.report.payload`), loaded only when the
                        game is opened, by injecting a ``<script>`` tag (``fetch()`` of
                        ``file://`` is blocked in Chrome); it calls ``BangReport.gameLoaded``

All text comes from the jinja2 templates in ``prompts/report`` (the page) with the words of the
report's locale (:mod:`harness.report.labels`: headings, tables, charts, the viewer's words that
``report.js`` reads from the page's JSON; the game's glossary for roles, modes and sides) and the
engine's own narration and label templates (events, options, cards).  The page is
``dir="rtl"`` for Arabic; the inline SVG charts stay left to right inside it.  Game files are written by worker
processes; the league statistics (:mod:`harness.report.figures`, the slowest single piece:
bootstrap ratings) are computed in one of them at the same time.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from harness.engine.roles import MODES, ROLES
from harness.play.players import SEATED_KINDS
from harness.records import GameRecord, RunStore
from harness.records.store import DamagedGame
from harness.runs import score_text
from harness.views.glossary import LOCALES, SIDES
from harness.views.names import glossary, mode_name, role_name, side_name, text_direction

from .charts import (
    PALETTE,
    ROLE_COLORS,
    Interval,
    Point,
    Series,
    interval_chart,
    panel_chart,
)
from .figures import league_figures
from .front import RoleRate, Score, role_panels, score_chart
from .labels import count, fill, labels, plural_table
from .league_summary import ROLE_ORDER, Summary, load_config, summarize
from .payload import dumps, game_payload, game_script
from .templates import STATIC, environment, interval_text, static_text

__all__ = [
    "ReportResult",
    "build_report",
    "game_file_name",
    "game_list",
    "game_payload",
    "render_index",
]

ART = STATIC.parent.parent / "web" / "static" / "art.js"  # the web table's SVG art
PARALLEL_MIN_GAMES = 40
CHUNK = 8  # games per worker task
_SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,120}")


@dataclass(frozen=True)
class ReportResult:
    """Where the report went and what it cost to build."""

    out_dir: Path
    index: Path
    games: int
    bytes: int
    seconds: float
    warnings: list[str]
    index_bytes: int = 0
    game_bytes: tuple[int, ...] = ()


def game_file_name(game_id: str) -> str:
    """``<id>.js`` for plain ids, else a hash (ids become file names)."""
    if _SAFE_ID.fullmatch(game_id) and not game_id.startswith("."):
        return f"{game_id}.js"
    return "g" + hashlib.sha1(game_id.encode("utf-8")).hexdigest()[:16] + ".js"


# ----------------------------------------------------------------------------- game files


def _write_games(
    jobs: Sequence[tuple[str, str, str, str]],
) -> list[tuple[str, int, str | None]]:
    """Worker: write the scripts of some games of one run; (game id, bytes, warning) each."""
    out = []
    for run_dir, game_id, out_path, locale in jobs:
        store = RunStore(Path(run_dir))
        try:
            start, decisions, end = store.read_game(game_id)
        except DamagedGame as e:  # the rest of the run is still written
            out.append((game_id, 0, f"{e}; game {game_id} has no replay"))
            continue
        payload = game_payload(
            start, decisions, end, _prompts_of(run_dir), locale,
            analysis=_moves_of(run_dir).get(game_id),
        )  # fmt: skip
        text = game_script(payload)
        Path(out_path).write_text(text, encoding="utf-8")
        out.append((game_id, len(text.encode("utf-8")), payload.get("warn")))
    return out


@lru_cache(maxsize=2)
def _moves_of(run_dir: str) -> dict[str, Any]:
    """The run's stored move analyses by game (``bangarena analyze``; none: empty)."""
    from harness.analysis.run_moves import read_moves

    return read_moves(run_dir)


@lru_cache(maxsize=2)
def _prompts_of(run_dir: str) -> dict[str, str]:
    return {p["sha256"]: p["text"] for p in RunStore(Path(run_dir)).system_prompts()}


# ----------------------------------------------------------------------------- summary page


def _colors(summary: Summary) -> dict[str, str]:
    return {p.player: PALETTE[i % len(PALETTE)] for i, p in enumerate(summary.players)}


def charts(
    summary: Summary, figures: dict[str, Any], locale: str, colors: dict[str, str]
) -> dict[str, Any]:
    """Geometry of every chart of the summary page, tooltips in ``locale``."""
    words = labels(locale)
    C = words.charts
    standings = figures.get("standings", [])
    flagged = {p.player: p.flag for p in summary.players if not p.valid}

    def label(player: str) -> str:  # a flagged player's figures are not valid results
        return f"⚠ {player}" if player in flagged else player

    rated = [r for r in standings if r["ordinal"] is not None]
    ratings = interval_chart(
        [
            Interval(
                label(r["player"]),
                r["ordinal"],
                r["ordinal_lo"],
                r["ordinal_hi"],
                f"{r['ordinal']:.2f} {interval_text((r['ordinal_lo'], r['ordinal_hi']), 'fix')}",
                fill(
                    C["ratings_tip"],
                    player=r["player"],
                    value=f"{r['ordinal']:.2f}",
                    lo=_fix(r["ordinal_lo"]),
                    hi=_fix(r["ordinal_hi"]),
                    mu=f"{r['mu']:.2f}",
                    sigma=f"{r['sigma']:.2f}",
                    games=count(r["games"], "games", words),
                ),
                colors.get(r["player"], PALETTE[-1]),
            )
            for r in rated
        ],
        bars=False,
    )
    front = {
        "scores": score_chart(
            [
                Score(r["player"], r["score"], r["score_lo"], r["score_hi"], int(r["games"]))
                for r in standings
            ],
            colors,
            locale,
            frozenset(flagged),
        ),
        "roles": role_panels(
            [
                RoleRate(r.player, r.role, r.games, r.wins, r.rate, *_bounds(r.interval))
                for r in summary.role_rates
            ],
            colors,
            locale,
            frozenset(flagged),
        ),
    }
    modes = [m for m in MODES if any(x["mode"] == m for x in figures.get("base", []))]
    order = {p.player: i for i, p in enumerate(summary.players)}
    by_player = []
    base = []
    for m in modes:
        series = []
        players = sorted(
            {x["player"] for x in figures["size_mode"] if x["mode"] == m},
            key=lambda p: (order.get(p, len(order)), p),
        )
        for p in players:
            pts = tuple(
                Point(x["seats"], x["k"], x["n"], x["rate"], x["lo"], x["hi"])
                for x in figures["size_mode"]
                if x["mode"] == m and x["player"] == p
            )
            series.append(Series(p, p, colors.get(p, PALETTE[-1]), pts))
        by_player.append((mode_name(m, locale), series))
        roles = sorted(
            {x["role"] for x in figures["base"] if x["mode"] == m},
            key=lambda r: ROLE_ORDER.index(r) if r in ROLE_ORDER else len(ROLE_ORDER),
        )
        base.append(
            (
                mode_name(m, locale),
                [
                    Series(
                        r,
                        role_name(r, locale),
                        ROLE_COLORS.get(r, PALETTE[-1]),
                        tuple(
                            Point(x["seats"], x["k"], x["n"], x["rate"], x["lo"], x["hi"])
                            for x in figures["base"]
                            if x["mode"] == m and x["role"] == r
                        ),
                    )
                    for r in roles
                ],
            )
        )

    def tip(s: Series, p: Point) -> str:
        return fill(
            C["point_tip"],
            label=s.label,
            seats=count(p.seats, "seats", words),
            rate=f"{100 * p.rate:.1f}",
            k=p.k,
            n=p.n,
            lo="–" if p.lo is None else f"{100 * p.lo:.1f}",
            hi="–" if p.hi is None else f"{100 * p.hi:.1f}",
        )

    return {
        "front": front,
        "ratings": ratings,
        "size_mode": panel_chart(by_player, tip),
        "base": panel_chart(base, tip),
    }


def _bounds(interval: Any) -> tuple[float | None, float | None]:
    """An interval's bounds; ``(None, None)`` when there is none."""
    return (None, None) if interval is None else (interval[0], interval[1])


def _fix(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def game_list(games: Sequence[GameRecord], files: dict[str, str]) -> dict[str, Any]:
    """The game list as compact JSON for the page: names are indices into ``players``,
    ``roles``, ``modes`` and ``sides``; each row is ``[id, seats, mode, side, rounds,
    decisions, fallbacks, cost, has model seats, lineup, file]`` where the lineup is flat
    ``player, role, won`` triples in seat order and the file is 0 when it is ``<id>.js``."""
    players: dict[str, int] = {}
    roles = [r for r in ROLE_ORDER]
    modes: dict[str, int] = {}
    sides: dict[str, int] = {}
    rows = []
    for g in games:
        lineup: list[int] = []
        models = False
        for o in sorted(g.seat_outcomes, key=lambda o: o.seat):
            if o.role not in roles:
                roles.append(o.role)
            lineup += [players.setdefault(o.player, len(players)), roles.index(o.role), int(o.won)]
            models = models or o.kind in SEATED_KINDS
        file = files[g.game_id]
        side = g.winning_side or ("void" if g.void else "")
        rows.append(
            [
                g.game_id,
                g.seats,
                modes.setdefault(g.mode, len(modes)),
                sides.setdefault(side, len(sides)),
                g.rounds,
                g.decisions,
                g.fallbacks,
                round(g.cost_usd, 6),
                int(models),
                lineup,
                0 if file == f"{g.game_id}.js" else file,
            ]
        )
    return {
        "players": list(players),
        "roles": roles,
        "modes": list(modes),
        "sides": list(sides),
        "rows": rows,
    }


def viewer_words(locale: str) -> dict[str, Any]:
    """The words ``static/report.js`` draws the game list and the viewer with: the viewer
    labels, the game's names of roles, modes and winning sides, the counted nouns and the
    plural categories of 0 … 199 (:func:`harness.report.labels.plural_table`)."""
    words = labels(locale)
    return {
        **words.viewer,
        "sides": {
            **{k: side_name(k, locale) for k in SIDES},
            "void": words.viewer["void"],
            "": "—",
        },
        "roles": {r: role_name(r, locale) for r in ROLES},
        "modes": {m: mode_name(m, locale) for m in MODES},
        "counts": {k: dict(v) for k, v in words.counts.items()},
        "plural": plural_table(locale),
        "levels": _levels(),
    }


def _levels() -> dict[str, str]:
    """The win probability a decision loses to be an inaccuracy, a mistake or a blunder, in
    percentage points (:mod:`harness.analysis.moves`): the graph's legend says them."""
    from harness.analysis.moves import BLUNDER, INACCURACY, MISTAKE

    return {
        "inaccuracy": f"{100 * INACCURACY:g}",
        "mistake": f"{100 * MISTAKE:g}",
        "blunder": f"{100 * BLUNDER:g}",
    }


def render_index(
    summary: Summary,
    games: dict[str, Any],
    locale: str,
    warnings: Sequence[str],
    figures: dict[str, Any] | None = None,
    quiz_pages: Sequence[tuple[str, str]] = (),
) -> str:
    """The ``index.html`` text; ``games`` from :func:`game_list`, ``figures`` from
    :func:`harness.report.figures.league_figures`; ``quiz_pages`` (dataset, file) are linked."""
    figures = figures or {"standings": [], "size_mode": [], "base": []}
    colors = _colors(summary)
    env = environment()
    words = labels(locale)
    return env.get_template("index.html.j2").render(
        P=words.page,
        C=words.charts,
        ui=viewer_words(locale),
        kinds=words.kinds,
        reasons=words.fallback_reasons,
        sides={**{k: side_name(k, locale) for k in SIDES}, "void": words.viewer["void"]},
        languages={loc: glossary(loc).language for loc in LOCALES},
        fill=fill,
        count=lambda n, noun: count(n, noun, words, f"{n:,}"),
        page_dir=text_direction(locale),
        s=summary,
        ratings=figures["standings"],
        by_locale=figures.get("locales") or {"headers": [], "rows": []},
        luck=figures.get("luck") or [],
        luck_advantage=any(r.get("advantage") is not None for r in figures.get("luck") or []),
        score=lambda v, lo, hi, pp: score_text(v, lo, hi, pp, "page"),  # % or pp, clipped
        talk=figures.get("talk"),
        signals=figures.get("signals") or [],
        claim_effect=figures.get("claim_effect") or [],
        moves=figures.get("moves") or [],
        probes=figures.get("probes"),
        charts=charts(summary, figures, locale, colors),
        colors=colors,
        game_data=dumps(games).replace("</", "<\\/"),
        game_count=len(games["rows"]),
        locale=locale,
        game_dir=text_direction(locale),  # rtl: game text in Arabic reads right to left
        roles={r: role_name(r, locale) for r in ROLES},
        modes={m: mode_name(m, locale) for m in MODES},
        warnings=list(warnings),
        css=static_text("report.css"),
        js=static_text("report.js"),
        art=static_text(ART),  # the web table's pictures, the same file (one source of the art)
        board_js=static_text("board.js"),
        graph_js=static_text("graph.js"),
        generated=time.strftime("%Y-%m-%d %H:%M"),
        quiz_pages=list(quiz_pages),
    )


# ----------------------------------------------------------------------------- build


def build_report(
    run_dir: str | Path,
    out_dir: str | Path | None = None,
    *,
    locale: str = "en",
    workers: int | None = None,
    on_game: Callable[[], None] | None = None,
) -> ReportResult:
    """Write the report of ``run_dir`` to ``out_dir`` (default ``run_dir/report``).

    Games are written in worker processes when there are many (``workers`` defaults to the
    number of CPUs); ``on_game`` is called once per game written.  Raises
    :class:`harness.records.store.RecordError` for a broken run folder.
    """
    t0 = time.monotonic()
    _prompts_of.cache_clear()
    run = Path(run_dir)
    out = Path(out_dir) if out_dir is not None else run / "report"
    store = RunStore(run)
    games = store.games()
    config = load_config(run)
    name = str(config.get("name")) if config and config.get("name") else run.name
    summary = summarize(name, games, config, run)  # run: model decisions, calls and flags
    games_dir = out / "games"
    if games_dir.exists():
        shutil.rmtree(games_dir)
    games_dir.mkdir(parents=True)
    files = {g.game_id: game_file_name(g.game_id) for g in games}
    jobs = [(str(run), gid, str(games_dir / f), locale) for gid, f in files.items()]
    chunks = [jobs[i : i + CHUNK] for i in range(0, len(jobs), CHUNK)]
    n_workers = workers or os.cpu_count() or 1
    results: list[tuple[str, int, str | None]] = []
    figures: dict[str, Any] | None = None

    def done(part: list[tuple[str, int, str | None]]) -> None:
        results.extend(part)
        if on_game is not None:
            for _ in part:
                on_game()

    if n_workers > 1 and len(jobs) >= PARALLEL_MIN_GAMES:
        with ProcessPoolExecutor(max_workers=n_workers) as pool:
            stats: Future[dict[str, Any]] | None = (
                pool.submit(league_figures, str(run)) if games else None
            )
            for future in [pool.submit(_write_games, c) for c in chunks]:
                done(future.result())
            figures = stats.result() if stats is not None else None
    else:
        for c in chunks:
            done(_write_games(c))
        figures = league_figures(run) if games else None
    game_bytes = tuple(size for _gid, size, _w in results)
    warnings = [w for _gid, _size, w in results if w]
    index = out / "index.html"
    from .quiz_page import copy_quiz_pages  # the run's rules-quiz pages, when it has any

    quizzes = copy_quiz_pages(run, out)
    html = render_index(
        summary, game_list(sorted_games(games), files), locale, warnings, figures, quizzes
    )
    index.write_text(html, encoding="utf-8")
    index_bytes = len(html.encode("utf-8"))
    return ReportResult(
        out,
        index,
        len(games),
        sum(game_bytes) + index_bytes,
        time.monotonic() - t0,
        warnings,
        index_bytes,
        game_bytes,
    )


def natural_key(text: str) -> tuple[Any, ...]:
    """``g2`` before ``g10``: digit runs compare as numbers."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text))


def sorted_games(games: Sequence[GameRecord]) -> list[GameRecord]:
    """Games in natural order of their ids (the order ``games.jsonl`` has is finishing order)."""
    return sorted(games, key=lambda g: natural_key(g.game_id))
