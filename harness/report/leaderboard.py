"""The leaderboard of pooled runs (:mod:`harness.runs.pool`): one table per player × role of
raw and luck-adjusted scores with 95 % intervals, and per player its role-adjusted scores and
its rating over every pooled game — as a DataFrame, ``leaderboard.csv`` and a self-contained
``leaderboard.html`` (``prompts/report/leaderboard.html.j2``, the report's stylesheet inline),
which opens with the same front as the HTML report (:mod:`harness.report.front`: players by
role-adjusted score, a panel per role).  Players are in order of their raw role-adjusted score,
best first (:func:`player_rank`); the page and the terminal show win rates in % and role-adjusted
scores in pp, clipped to what is possible (:mod:`harness.runs.units`); the CSV keeps the
numbers as computed.

Rows per player: one per role (``raw`` = win rate with its Wilson interval, ``adjusted`` = mean
luck-adjusted score), then ``all (role-adjusted)`` (result minus the role's base rate at that
table size and mode over the pooled seats, raw and luck-adjusted), which also carries the
player's openskill rating (``mu`` and ordinal ``mu − 3σ``, rated over the pooled games in run
order, 95 % intervals from a bootstrap of whole deals:
:func:`harness.runs.ratings.compute_ratings`).  Every interval is clustered by deal (the pooled
seats' ``deal_key``: one seed at one table size and mode, whichever run played it); with one deal
there is none (NaN in the CSV, "[–]" on the page).

The advantage-adjusted score (``advantage``, ``adv_lo``, ``adv_hi``: the rule-bot value of the
deal plus the play-out advantages of the departures from the rule bot,
:mod:`harness.analysis.run_advantage`) is read as stored in each run's
``RUN/analysis/advantage.jsonl`` (``league report --advantage`` computes it; the leaderboard plays
no play-outs), with its deal-clustered interval as ``league report --luck`` shows it; NaN (and no
column on the page and in the terminal when no row has one) unless every seat of the row has a
stored score.
"""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pandas as pd
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from harness.analysis.run_advantage import ADVANTAGE_DIR, ADVANTAGE_FILE, run_advantage
from harness.paths import PROMPTS_DIR
from harness.runs import (
    DEFAULT_BOOTSTRAP,
    DEFAULT_SEED,
    ROLE_ADJUSTED,
    ROLE_ORDER,
    Pool,
    bounds_text,
    compute_ratings,
    scored_table,
    value_text,
)

from .front import leaderboard_front
from .labels import labels
from .templates import static_text

CSV_FILE = "leaderboard.csv"
HTML_FILE = "leaderboard.html"
COLUMNS = [
    "player", "plays", "role", "seat_games", "raw", "raw_lo", "raw_hi", "adjusted", "adj_lo",
    "adj_hi", "advantage", "adv_lo", "adv_hi", "mu", "mu_lo", "mu_hi", "ordinal", "ordinal_lo", "ordinal_hi", "runs",
]  # fmt: skip


def plays(spec: dict[str, Any]) -> str:
    """What plays a player's seats: ``provider/model``, ``agent/<factory>``, or its kind."""
    model = spec.get("model")
    if isinstance(model, dict):
        return f"{model.get('provider')}/{model.get('model')}"
    if isinstance(model, str):
        return model
    for key in ("agent", "url"):
        if spec.get(key):
            return f"{spec.get('kind')}/{spec[key]}"
    return str(spec.get("kind", "?"))


def leaderboard_table(
    pool: Pool, bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = DEFAULT_SEED
) -> pd.DataFrame:
    seats = pool.seats.copy()
    seats["advantage"] = stored_advantage(pool)
    scores = scored_table(seats)
    ratings = compute_ratings(pool.seats, bootstrap=bootstrap, seed=seed).set_index("player")
    order = {r: i for i, r in enumerate([*ROLE_ORDER, ROLE_ADJUSTED])}
    rows = []
    for r in scores.itertuples(index=False):
        player = str(r.player)
        row: dict[str, Any] = {
            "player": player,
            "plays": plays(pool.specs.get(player, {})),
            "role": r.role,
            "seat_games": int(r.seat_games),
            "raw": r.win_rate,
            "raw_lo": r.win_lo,
            "raw_hi": r.win_hi,
            "adjusted": r.adjusted,
            "adj_lo": r.adj_lo,
            "adj_hi": r.adj_hi,
            "advantage": r.advantage,
            "adv_lo": r.adv_lo,
            "adv_hi": r.adv_hi,
            "runs": len(pool.runs_of.get(player, [])),
        }
        rated = r.role == ROLE_ADJUSTED and player in ratings.index
        for col in ("mu", "mu_lo", "mu_hi", "ordinal", "ordinal_lo", "ordinal_hi"):
            row[col] = float(ratings.loc[player, col]) if rated else math.nan
        rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    if out.empty:
        return out
    out["_o"] = out["role"].map(lambda x: order.get(x, len(order)))
    out["_p"] = out["player"].map(player_rank(out))
    keys = ["_p", "player", "_o"]
    return out.sort_values(keys).drop(columns=["_o", "_p"]).reset_index(drop=True)


def stored_advantage(pool: Pool) -> list[float]:
    """Each pooled seat's stored advantage-adjusted score (NaN when its run has none stored for
    that game); a pooled game id is ``NNN:<run name>/<game id>``, ``NNN`` the run's place in
    ``pool.runs`` (:func:`harness.runs.pool.pool_runs`)."""
    stored: list[dict[str, list[float]]] = []
    for run_dir in pool.runs:
        path = Path(run_dir) / ADVANTAGE_DIR / ADVANTAGE_FILE
        lines = run_advantage(run_dir, compute=False) if path.is_file() else {}
        stored.append({g: line.adjusted for g, line in lines.items()})
    out = []
    for g, s, run in zip(pool.seats["game_id"], pool.seats["seat"], pool.seats["run"], strict=True):
        i = int(str(g)[:3])
        scores = stored[i].get(str(g)[len(f"{i:03d}:{run}/") :])
        out.append(math.nan if scores is None else scores[int(s)])
    return out


def has_advantage(table: pd.DataFrame) -> bool:
    """Whether any row has an advantage-adjusted score (else the column is left out)."""
    return bool(len(table)) and bool(table["advantage"].notna().any())


def player_rank(table: pd.DataFrame) -> dict[str, int]:
    """Each player's place by its role-adjusted score (the raw ``all (role-adjusted)`` row:
    result minus the role's base rate), best first; players without one last, by name."""
    own = table[table["role"] == ROLE_ADJUSTED]
    score = {
        str(p): float(v)
        for p, v in zip(own["player"], own["raw"], strict=True)
        if not math.isnan(float(v))
    }
    players = sorted({str(p) for p in table["player"]})
    ranked = sorted(players, key=lambda p: (p not in score, -score.get(p, 0.0), p))
    return {p: i for i, p in enumerate(ranked)}


def write_csv(table: pd.DataFrame, path: Path) -> None:
    table.to_csv(path, index=False, float_format="%.6g")


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR / "report"),
        undefined=StrictUndefined,
        autoescape=select_autoescape(("html", "html.j2")),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["f3"] = lambda x: "–" if x is None or math.isnan(x) else f"{x:.3f}"
    env.filters["f1"] = lambda x: "–" if x is None or math.isnan(x) else f"{x:.1f}"
    env.globals["bracket"] = _bracket
    return env


def _bracket(lo: float | None, hi: float | None, digits: int) -> str:
    """``[0.412, 0.538]``, or ``[–]`` when there is no interval (one deal)."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return "[–]"
    return f"[{lo:.{digits}f}, {hi:.{digits}f}]"


def render_html(pool: Pool, table: pd.DataFrame) -> str:
    css = static_text("report.css")
    key = pool.key
    rows = table.to_dict("records")
    words = labels("en")
    return (
        _environment()
        .get_template("leaderboard.html.j2")
        .render(
            css=css,
            runs=pool.runs,
            run_names=sorted({str(r) for r in pool.seats["run"]}),
            games=int(pool.seats["game_id"].nunique()),
            key=key,
            rows=rows,
            front=leaderboard_front(rows, ROLE_ADJUSTED),
            P=words.page,
            C=words.charts,
            value=lambda v, pp: value_text(v, pp, "page"),
            bounds=lambda lo, hi, pp: bounds_text(lo, hi, pp, "page"),
            left_out=pool.left_out,
            notes=pool.notes,
            role_adjusted=ROLE_ADJUSTED,
            advantage=has_advantage(table),
            generated=time.strftime("%Y-%m-%d %H:%M"),
        )
    )


def save(pool: Pool, table: pd.DataFrame, out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    csv_path, html_path = out / CSV_FILE, out / HTML_FILE
    write_csv(table, csv_path)
    html_path.write_text(render_html(pool, table), encoding="utf-8")
    return csv_path, html_path
