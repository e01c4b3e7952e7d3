"""The league report of one run: tables built from the records alone.

* :func:`build_report` — a :class:`Report` holding pandas DataFrames: ``summary`` (one row per
  player), ``win_rates`` (player × role, Wilson intervals), ``role_adjusted`` (results minus the
  role's base rate), ``base_rates`` (role × table size × mode), ``ratings`` (openskill, bootstrap
  intervals) and ``rates`` (fallbacks, invalid answers and timeouts per decision and per model
  call, call counts, latency median and p95, tokens — cached input too — cost, history policy);
  ``flags`` (:mod:`.flags`): players whose fallback rate makes their win rates not valid, too many
  void games, unfinished paired deals; ``spend`` (:mod:`.spend_table`): every model call the run
  sent, from its spend ledger — preflight samples and calls of void or abandoned games included.
  Void games are excluded from every win rate, rating and score and counted everywhere else.
* :func:`~.league_report_output.print_report` — the run checks and the tables as rich tables on
  a console; :func:`~.league_report_output.save_report` — ``<run>/report/summary.csv``, one CSV
  per table, ``flags.csv`` and ``report.md`` (:mod:`.league_report_output`, with the columns of
  :mod:`.league_report_columns`).

A flagged player's win rates, scores and ratings are marked "not valid" in every format (the
``valid`` column of the CSV files).

Usage from Python::

    from harness.runs import build_report
    r = build_report("results/quickstart")
    r.win_rates  # a pandas DataFrame
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from harness.league.league_config import SEATED_KINDS
from harness.league.model_calls import count_model_calls, history_policies
from harness.views.plural import count

from .compactions import compaction_table
from .flags import RunFlags, run_config, run_flags
from .locales import locale_win_rates, player_locales
from .luck_tables import luck_table
from .move_tables import move_table
from .probe_table import probe_tables
from .ratings import DEFAULT_BOOTSTRAP, DEFAULT_SEED, compute_ratings
from .spend_table import spend_table, unrecorded_note
from .stats import base_rates, clustered_wilson, deals, load_run, rates, role_adjusted, win_rates
from .talk_table import claim_effect_table, signal_table, talk_line

__all__ = ["INTERVALS_NOTE", "REPORT_DIR", "TABLES", "Report", "build_report"]

REPORT_DIR = "report"
TABLES = ("summary", "win_rates", "role_adjusted", "ratings", "rates", "base_rates", "spend",
          "compactions", "signals", "claim_effect")  # fmt: skip
INTERVALS_NOTE = (
    "Every 95% interval is clustered by deal (the games of one deal are one cluster; "
    'docs/statistics.md); "–": no interval (one deal).'
)


@dataclass
class Report:
    """Every table of a run's report (pandas DataFrames with raw, unrounded numbers)."""

    run_dir: Path
    name: str
    games: int
    seat_games: int
    bootstrap: int
    summary: pd.DataFrame
    win_rates: pd.DataFrame
    role_adjusted: pd.DataFrame
    base_rates: pd.DataFrame
    ratings: pd.DataFrame
    rates: pd.DataFrame
    cells: list[str] = field(default_factory=list)  # "5p classic: 70 games"
    last_finished: str = ""
    flags: RunFlags = field(default_factory=RunFlags)
    void_games: int = 0
    # a model's win rate by role per locale (harness.runs.locales); empty without a comparison
    locales: pd.DataFrame = field(default_factory=pd.DataFrame)
    # every call of the spend ledger per model player (harness.runs.spend_table)
    spend: pd.DataFrame = field(default_factory=pd.DataFrame)
    # luck-adjusted scores per player × role (harness.runs.luck_tables); empty unless asked
    luck: pd.DataFrame = field(default_factory=pd.DataFrame)
    # move analysis per player × role (harness.runs.move_tables); empty unless analysed
    moves: pd.DataFrame = field(default_factory=pd.DataFrame)
    # history compactions per model player and locale (harness.runs.compactions)
    compactions: pd.DataFrame = field(default_factory=pd.DataFrame)
    # table talk (harness.runs.talk_table): whether it was on, and its metrics
    talk: str = ""
    signals: pd.DataFrame = field(default_factory=pd.DataFrame)
    claim_effect: pd.DataFrame = field(default_factory=pd.DataFrame)
    # belief probes (harness.runs.probe_table): per player × role × round, per player, and
    # the calibration bins; empty when the run has no probes
    probes: pd.DataFrame = field(default_factory=pd.DataFrame)
    probe_summary: pd.DataFrame = field(default_factory=pd.DataFrame)
    probe_calibration: pd.DataFrame = field(default_factory=pd.DataFrame)

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables by file stem, in report order."""
        return {name: getattr(self, name) for name in TABLES}

    @property
    def has_models(self) -> bool:
        return bool(self.rates["kind"].isin(SEATED_KINDS).any()) if not self.rates.empty else False

    @property
    def exit_code(self) -> int:
        """0, or 3 when the run is flagged (:data:`harness.runs.flags.EXIT_FLAGGED`)."""
        return self.flags.exit_code

    def flags_table(self) -> pd.DataFrame:
        """``flags.csv``: every flag, then the notes (kind ``note``, e.g. void games under the
        threshold)."""
        rows = [{"kind": f.kind, "player": f.player or "", "message": f.message}
                for f in self.flags.flags]  # fmt: skip
        rows += [{"kind": "note", "player": "", "message": n} for n in self.flags.notes]
        return pd.DataFrame(rows, columns=["kind", "player", "message"])


def _summary(
    seats: pd.DataFrame, adjusted: pd.DataFrame, ratings: pd.DataFrame, rate: pd.DataFrame
) -> pd.DataFrame:
    rows = []
    for player, part in seats.groupby("player", sort=True):
        n = len(part)
        k = int(part["won"].sum())
        lo, hi = clustered_wilson(part["won"], deals(part))
        rows.append(
            {
                "player": player,
                "seat_games": n,
                "wins": k,
                "win_rate": k / n,
                "win_lo": lo,
                "win_hi": hi,
            }
        )
    out = pd.DataFrame(
        rows, columns=["player", "seat_games", "wins", "win_rate", "win_lo", "win_hi"]
    )
    adj = adjusted[["player", "score", "ci_lo", "ci_hi"]].rename(
        columns={"ci_lo": "score_lo", "ci_hi": "score_hi"}
    )
    rat = ratings[["player", "mu", "sigma", "ordinal", "ordinal_lo", "ordinal_hi"]]
    rat = rat.rename(columns={"mu": "rating_mu", "sigma": "rating_sigma"})
    cost = rate[["player", "kind", "model", "history", "games", "decisions", "fallback_rate",
                 "invalid_rate", "timeout_rate", "tokens_per_game", "cost_per_game_usd"]]  # fmt: skip
    out = cost.merge(out, on="player", how="left")
    out = out.merge(adj, on="player", how="left").merge(rat, on="player", how="left")
    order = ["player", "kind", "model", "history", "games", "seat_games", "wins", "win_rate",
             "win_lo", "win_hi", "score", "score_lo", "score_hi", "rating_mu", "rating_sigma",
             "ordinal", "ordinal_lo", "ordinal_hi", "decisions", "fallback_rate", "invalid_rate",
             "timeout_rate", "tokens_per_game", "cost_per_game_usd"]  # fmt: skip
    out = out[order]
    return out.sort_values(["ordinal", "player"], ascending=[False, True]).reset_index(drop=True)


def _mark(df: pd.DataFrame, flags: RunFlags, with_reason: bool = False) -> pd.DataFrame:
    """``df`` with a ``valid`` column (False for flagged players) and, when asked, ``flag``."""
    out = df.copy()
    flagged = flags.flagged_players
    out["valid"] = ~out["player"].isin(flagged) if len(out) else pd.Series(dtype=bool)
    if with_reason:
        out["flag"] = [
            (f.message if (f := flags.player_flag(str(p))) is not None else "")
            for p in out["player"]
        ]
    return out


def build_report(
    run_dir: str | Path,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    seed: int = DEFAULT_SEED,
    luck: bool = False,
    luck_progress: Callable[[int, int], None] | None = None,
    advantage_progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
    advantage: bool = False,
) -> Report:
    """Compute every table of the report of ``run_dir`` from its ``games.jsonl``; with ``luck``
    also the luck-adjusted table (each game replayed, stored in ``<run>/analysis/``) with the
    advantage-adjusted scores already stored; with ``advantage`` too those missing are computed
    (rule-bot play-outs from every departure, the slow part, on ``workers`` processes).
    ``luck_progress(done, total)`` and ``advantage_progress`` are told how far that got.

    Raises :class:`~harness.records.store.RecordError` when the folder is not a readable run.
    """
    data = load_run(run_dir)
    seats = data.seats  # games with a result only: void games count nowhere in win rates
    config = run_config(data.run_dir)
    counts = count_model_calls(data.run_dir, data.records)
    flags = run_flags(data.records, counts, config, data.copies)
    adjusted = role_adjusted(seats)
    ratings = compute_ratings(seats, bootstrap=bootstrap, seed=seed)
    rate = rates(data.all_seats, counts, history_policies(config, counts))
    cells = [
        f"{n}p {mode}: {count(k, 'game')}"
        for (n, mode), k in data.games.groupby(["seats", "mode"]).size().items()
    ]
    results = [
        *data.games.loc[data.games["void"].isna(), "game_id"],
        *(c.game_id for c in data.copies),
    ]
    spend = spend_table(data.run_dir, results)  # a copy's calls were spent on a game with a result
    if (note := unrecorded_note(spend)) is not None:
        flags.notes.append(note)
    probes, probe_summary, probe_calibration = probe_tables(data.run_dir)
    return Report(
        run_dir=data.run_dir,
        name=data.name,
        games=len(data.games),
        seat_games=len(seats),
        bootstrap=bootstrap,
        summary=_mark(_summary(seats, adjusted, ratings, rate), flags, with_reason=True),
        win_rates=_mark(win_rates(seats), flags),
        role_adjusted=_mark(adjusted, flags),
        base_rates=base_rates(seats),
        ratings=_mark(ratings, flags),
        rates=rate,
        cells=cells,
        last_finished=str(data.games["finished_at"].max()),
        flags=flags,
        void_games=data.void_games,
        locales=locale_win_rates(seats, data.games, player_locales(config)),
        spend=spend,
        luck=_mark(
            luck_table(
                str(data.run_dir),
                seats,
                progress=luck_progress,
                advantage_progress=advantage_progress,
                workers=workers,
                compute_advantage=advantage,
            ),
            flags,
        )  # fmt: skip
        if luck
        else pd.DataFrame(),
        moves=_mark(move_table(str(data.run_dir)), flags),
        compactions=compaction_table(data.run_dir, data.records, config),
        talk=talk_line(data.run_dir),
        signals=_mark(signal_table(data.run_dir), flags),
        claim_effect=claim_effect_table(data.run_dir),
        probes=probes,
        probe_summary=probe_summary,
        probe_calibration=probe_calibration,
    )
