"""The league report of one run: tables built from the records alone, shown and saved.

* :func:`build_report` — a :class:`Report` holding pandas DataFrames: ``summary`` (one row per
  player), ``win_rates`` (player × role, Wilson intervals), ``role_adjusted`` (results minus the
  role's base rate), ``base_rates`` (role × table size × mode), ``ratings`` (openskill, bootstrap
  intervals) and ``rates`` (fallbacks, invalid answers and timeouts per decision and per model
  call, call counts, latency median and p95, tokens — cached input too — cost, history policy);
  ``flags`` (:mod:`.flags`): players whose fallback rate makes their win rates not valid, too many
  void games, unfinished paired deals; ``spend`` (:mod:`.spend_report`): every model call the run
  sent, from its spend ledger — preflight samples and calls of void or abandoned games included.
  Void games are excluded from every win rate, rating and score and counted everywhere else.
* :func:`print_report` — the run checks and the tables as rich tables on a console.
* :func:`save_report` — ``<run>/report/summary.csv``, one CSV per table, ``flags.csv`` and
  ``report.md``.

A flagged player's win rates, scores and ratings are marked "not valid" in every format (the
``valid`` column of the CSV files).

Usage from Python::

    from harness.league.report import build_report
    r = build_report("results/quickstart")
    r.win_rates  # a pandas DataFrame
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.views.plural import count

from .compactions import TITLE as COMPACTIONS_TITLE
from .compactions import compaction_notes, compaction_table
from .config import SEATED_KINDS
from .console_tables import fitted_tables
from .flags import RunFlags, run_config, run_flags
from .locales import TITLE as LOCALES_TITLE
from .locales import locale_table, locale_win_rates, player_locales
from .luck_report import ROLE_ADJUSTED, luck_table
from .model_calls import count_model_calls, history_policies
from .move_report import move_table
from .probe_report import probe_tables
from .ratings import DEFAULT_BOOTSTRAP, DEFAULT_SEED, compute_ratings
from .signal_report import EFFECT_TITLE as CLAIM_EFFECT_TITLE
from .signal_report import TITLE as SIGNALS_TITLE
from .signal_report import claim_effect_table, signal_table, talk_line, talk_setting
from .spend_report import spend_table, unrecorded_note
from .stats import base_rates, clustered_wilson, deals, load_run, rates, role_adjusted, win_rates
from .units import score_cell

__all__ = [
    "NOT_VALID",
    "REPORT_DIR",
    "TABLES",
    "Report",
    "build_report",
    "markdown",
    "print_report",
    "save_report",
]

REPORT_DIR = "report"
TABLES = ("summary", "win_rates", "role_adjusted", "ratings", "rates", "base_rates", "spend",
          "compactions", "signals", "claim_effect")  # fmt: skip
NOT_VALID = "not valid"
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
    # a model's win rate by role per locale (harness.league.locales); empty without a comparison
    locales: pd.DataFrame = field(default_factory=pd.DataFrame)
    # every call of the spend ledger per model player (harness.league.spend_report)
    spend: pd.DataFrame = field(default_factory=pd.DataFrame)
    # luck-adjusted scores per player × role (harness.league.luck_report); empty unless asked
    luck: pd.DataFrame = field(default_factory=pd.DataFrame)
    # move analysis per player × role (harness.league.move_report); empty unless analysed
    moves: pd.DataFrame = field(default_factory=pd.DataFrame)
    # history compactions per model player and locale (harness.league.compactions)
    compactions: pd.DataFrame = field(default_factory=pd.DataFrame)
    # table talk (harness.league.signal_report): whether it was on, and its metrics
    talk: str = ""
    signals: pd.DataFrame = field(default_factory=pd.DataFrame)
    claim_effect: pd.DataFrame = field(default_factory=pd.DataFrame)
    # belief probes (harness.league.probe_report): per player × role × round, per player, and
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
        """0, or 3 when the run is flagged (:data:`harness.league.flags.EXIT_FLAGGED`)."""
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


# ------------------------------------------------------------------------------------ display
Fmt = Callable[[Any], str]
Cell = Callable[[pd.Series], str]


def _nan(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _pct(x: Any) -> str:
    return "–" if _nan(x) else f"{100 * float(x):.1f}%"


def _pp(x: Any) -> str:
    return "–" if _nan(x) else f"{100 * float(x):+.1f}"


def _num(digits: int) -> Fmt:
    return lambda x: "–" if _nan(x) else f"{float(x):,.{digits}f}"


def _int(x: Any) -> str:
    return "–" if _nan(x) else f"{int(x):,}"


def _text(x: Any) -> str:
    return "" if _nan(x) else str(x)


def _usd(x: Any) -> str:
    return "–" if _nan(x) else f"${float(x):,.4f}"


def _seconds(x: Any) -> str:
    return "–" if _nan(x) else f"{float(x):,.2f} s"


def _interval(fmt: Fmt, lo: str, hi: str) -> Cell:
    def cell(row: pd.Series) -> str:
        if _nan(row[lo]) or _nan(row[hi]):
            return "–"
        return f"{fmt(row[lo])} … {fmt(row[hi])}"

    return cell


def _with_interval(fmt: Fmt, value: str, lo: str, hi: str) -> Cell:
    def cell(row: pd.Series) -> str:
        if _nan(row[value]):
            return "–"
        if _nan(row[lo]) or _nan(row[hi]):
            return f"{fmt(row[value])} (–)"  # one deal: no interval
        return f"{fmt(row[value])} ({fmt(row[lo])} … {fmt(row[hi])})"

    return cell


def _valid(inner: Cell | str, fmt: Fmt | None = None) -> Cell:
    """A result cell that reads "not valid (…)" for a flagged player."""

    def cell(row: pd.Series) -> str:
        text = inner(row) if callable(inner) else (fmt or _text)(row[inner])
        valid = row.get("valid", True)
        if not _nan(valid) and not bool(valid):
            return f"{NOT_VALID}: {text}"
        return text

    return cell


def _luck_cell(value: str, lo: str, hi: str) -> Cell:
    """A luck-table cell: a win rate in %, the role-adjusted row in pp (:mod:`.units`)."""
    return score_cell(value, lo, hi, lambda row: row["role"] == ROLE_ADJUSTED)


def _decisions(row: pd.Series) -> str:
    """``4 of 7`` for a model player (model decisions of all its decisions), else ``7``."""
    model = row.get("model_decisions")
    if row.get("kind") in SEATED_KINDS and not _nan(model):
        return f"{_int(model)} of {_int(row['decisions'])}"
    return _int(row["decisions"])


NOT_REPORTED = "n/a"


def _cached(row: pd.Series) -> str:
    """Cached input tokens and their share of the input of the calls that reported them, with
    how many did (``1,200 (62.0%, 8 of 9 calls)``); ``n/a`` when no call reported them."""
    tokens, reported = row.get("cached_input_tokens"), row.get("cached_reported_calls")
    if _nan(tokens) or (not _nan(reported) and int(reported) == 0):
        return NOT_REPORTED
    if _nan(reported):  # no per-call counts: the seat outcomes' sum
        return _int(tokens)
    return (
        f"{_int(tokens)} ({_pct(row.get('cached_input_share'))}, "
        f"{_int(reported)} of {_int(row.get('answered_calls'))} calls)"
    )


def _spend_cached(row: pd.Series) -> str:
    """The spend table's cached input tokens with how many answered calls reported them."""
    tokens = row.get("cached_input_tokens")
    if _nan(tokens):
        return NOT_REPORTED
    return f"{_int(tokens)} ({_int(row.get('cached_reported_calls'))} of {_int(row['answered'])})"


def _latency(row: pd.Series) -> str:
    med, p95 = row["call_latency_median_s"], row["call_latency_p95_s"]
    return "–" if _nan(med) else f"{_seconds(med)} / {_seconds(p95)}"


Column = tuple[str, str | Cell, Fmt | None]  # header, column/cell, format

_SPECS: dict[str, tuple[str, list[Column]]] = {
    "summary": (
        "Players (sorted by rating ordinal; intervals are 95%)",
        [
            ("player", "player", _text),
            ("model", "model", _text),
            ("games", "games", _int),
            ("seats", "seat_games", _int),
            ("win rate", _valid(_with_interval(_pct, "win_rate", "win_lo", "win_hi")), None),
            (
                "role-adjusted (pp)",
                _valid(_with_interval(_pp, "score", "score_lo", "score_hi")),
                None,
            ),
            (
                "ordinal",
                _valid(_with_interval(_num(1), "ordinal", "ordinal_lo", "ordinal_hi")),
                None,
            ),
            ("fallbacks", "fallback_rate", _pct),
            ("cost/game", "cost_per_game_usd", _usd),
        ],
    ),
    "win_rates": (
        "Win rate by player × role (games = seats played in that role; 95% Wilson interval, "
        "clustered by deal)",
        [
            ("player", "player", _text),
            ("role", "role", _text),
            ("games", "games", _int),
            ("wins", "wins", _int),
            ("win rate", _valid("win_rate", _pct), None),
            ("95% CI", _interval(_pct, "ci_lo", "ci_hi"), None),
        ],
    ),
    "role_adjusted": (
        "Role-adjusted score: result minus the role's base rate at that table size and mode "
        "(percentage points; 95% CI, Student's t, clustered by deal)",
        [
            ("player", "player", _text),
            ("games", "games", _int),
            ("seats", "seat_games", _int),
            ("win rate", _valid("win_rate", _pct), None),
            ("expected", "expected", _pct),
            ("score (pp)", _valid("score", _pp), None),
            ("95% CI", _interval(_pp, "ci_lo", "ci_hi"), None),
        ],
    ),
    "luck": (
        "Luck-adjusted score by player × role: the result minus the luck of chance and of "
        "known-policy seats, and the advantage-adjusted score: the rule-bot value of the deal "
        "plus the play-out advantage of every departure from the rule bot's choice "
        "(docs/analysis.md), next to the raw win rate; per player, "
        "role-adjusted (result minus the role's base rate), raw and adjusted (95% CI, "
        "clustered by deal); win rates in %, role-adjusted scores in pp, clipped to what is "
        "possible (luck.csv: unclipped)",
        [
            ("player", "player", _text),
            ("role", "role", _text),
            ("seats", "seat_games", _int),
            ("raw", _valid(_luck_cell("win_rate", "win_lo", "win_hi")), None),
            ("luck-adjusted", _valid(_luck_cell("adjusted", "adj_lo", "adj_hi")), None),
            ("advantage-adjusted", _valid(_luck_cell("advantage", "adv_lo", "adv_hi")), None),
        ],
    ),
    "moves": (
        "Move analysis by player × role (bangarena analyze; docs/analysis.md): win probability "
        "lost per decision, blunder rate and accuracy (0-100) of the player's own choices; 95% "
        "CI, Student's t, clustered by deal; left out and counted apart: fallback moves, "
        "autopilot moves, forced (one-option) decisions",
        [
            ("player", "player", _text),
            ("role", "role", _text),
            ("games", "games", _int),
            ("decisions", "decisions", _int),
            ("lost/decision", _valid(_with_interval(_num(3), "loss", "loss_lo", "loss_hi")), None),
            (
                "blunders",
                _valid(_with_interval(_pct, "blunder_rate", "blunder_lo", "blunder_hi")),
                None,
            ),
            ("accuracy", _valid(_with_interval(_num(1), "accuracy", "acc_lo", "acc_hi")), None),
            ("fallbacks", "fallbacks", _int),
            ("autopilot", "autopilot", _int),
            ("forced", "forced", _int),
        ],
    ),
    "ratings": (
        "Ratings (openskill Plackett-Luce, team matches in game order; 95% CI from a bootstrap "
        "of whole deals)",
        [
            ("player", "player", _text),
            ("games", "games", _int),
            ("mu", _valid("mu", _num(2)), None),
            ("95% CI", _interval(_num(2), "mu_lo", "mu_hi"), None),
            ("sigma", "sigma", _num(2)),
            ("ordinal", _valid("ordinal", _num(2)), None),
            ("95% CI", _interval(_num(2), "ordinal_lo", "ordinal_hi"), None),
        ],
    ),
    "rates": (
        "Decisions, fallbacks and costs (rates per decision — for model players per model "
        'decision, one with more than one option: "4 of 7" — latency per decision (a model '
        "player's over the decisions it answered itself), tokens, cost per game)",
        [
            ("player", "player", _text),
            ("kind", "kind", _text),
            ("decisions", _decisions, None),
            ("fallback", "fallback_rate", _pct),
            ("invalid", "invalid_rate", _pct),
            ("timeout", "timeout_rate", _pct),
            ("ms/decision", "latency_per_decision_ms", _num(2)),
            ("s/game", "latency_per_game_s", _num(2)),
            ("tokens/game", "tokens_per_game", _num(0)),
            ("cost/game", "cost_per_game_usd", _usd),
            ("cost", "cost_usd", _usd),
        ],
    ),
    "model_calls": (
        "Model seats — rates per model decision (more than one option; a single option never "
        "reaches the model): fallback, invalid, truncated (answers cut by the token limit, not "
        "counted as invalid), timeout; per call (every attempt, retries and re-prompts "
        "included): /call, overflow (requests longer than the model's context), failed calls "
        "(no answer: errors, timeouts, overflows); call latency p50 / p95 over the answered "
        "calls; cached input tokens of the calls that reported them (n/a: none did); "
        "fallback reasons in rates.csv",
        [
            ("player", "player", _text),
            ("history", "history", _text),
            ("model dec.", "model_decisions", _int),
            ("1-option", "single_option", _int),
            ("calls", "model_calls", _int),
            ("fallback", "fallback_rate", _pct),
            ("invalid", "invalid_rate", _pct),
            ("truncated", "truncated_rate", _pct),
            ("timeout", "timeout_rate", _pct),
            ("invalid/call", "invalid_per_call", _pct),
            ("truncated/call", "truncated_per_call", _pct),
            ("timeout/call", "timeout_per_call", _pct),
            ("overflow/call", "overflow_per_call", _pct),
            ("error/call", "error_per_call", _pct),
            ("failed calls", "failed_calls", _int),
            ("call p50 / p95", _latency, None),
            ("cached in", _cached, None),
        ],
    ),
    "spend": (
        "Spend — every model call the run sent, from spend.jsonl: preflight samples and calls of "
        "games without a result (void, or in flight at a stop) included and shown apart; calls "
        "cancelled at a stop have unknown tokens (not 0); answered calls in no decision record "
        "came back as the run stopped",
        [
            ("player", "player", _text),
            ("model", "model", _text),
            ("calls", "calls", _int),
            ("truncated", "truncated", _int),
            ("failed", "failed", _int),
            ("cancelled", "cancelled", _int),
            ("input tokens", "input_tokens", _int),
            ("cached in", _spend_cached, None),
            ("output tokens", "output_tokens", _int),
            ("cost", "cost_usd", _usd),
            ("preflight calls", "preflight_calls", _int),
            ("preflight cost", "preflight_cost_usd", _usd),
            ("no-result calls", "outside_calls", _int),
            ("no-result cost", "outside_cost_usd", _usd),
            ("tokens unknown", "unknown_token_calls", _int),
            ("answered, unrecorded", "unrecorded_answers", _int),
        ],
    ),
    "compactions": (
        COMPACTIONS_TITLE,
        [
            ("player", "player", _text),
            ("locale", "locale", _text),
            ("history", "history", _text),
            ("context", "context_tokens", _int),
            ("model dec.", "decisions", _int),
            ("compacted", "compacted", _int),
            ("share", "compacted_share", _pct),
            ("first request", "first_tokens", _int),
            ("per decision", "decision_tokens", _int),
            ("needs", "needs_tokens", _int),
            ("flag", "flag", _text),
        ],
    ),
    "signals": (
        SIGNALS_TITLE,
        [
            ("player", "player", _text),
            ("role", "role", _text),
            ("seats", "seat_games", _int),
            ("claims", "claims", _int),
            ("honest", _with_interval(_pct, "honest", "honest_lo", "honest_hi"), None),
            ("as deputy", "as_deputy", _int),
            ("as raider", "as_raider", _int),
            ("as loner", "as_loner", _int),
            ("marks", "marks", _int),
            ("accurate", _with_interval(_pct, "accurate", "accurate_lo", "accurate_hi"), None),
            ("reactions", "reactions", _int),
            ("refused", "refused", _int),
        ],
    ),
    "claim_effect": (
        CLAIM_EFFECT_TITLE,
        [
            ("player", "player", _text),
            ("claimed", "claimed", _text),
            ("claims", "claims", _int),
            ("attacks before", "before", _num(2)),
            ("after", "after", _num(2)),
            ("change", _with_interval(_num(2), "change", "change_lo", "change_hi"), None),
            ("no claim", _with_interval(_num(2), "no_claim", "no_claim_lo", "no_claim_hi"), None),
            ("marks after", "marks_after", _int),
            (
                "agree before",
                _with_interval(_pct, "agree_before", "agree_before_lo", "agree_before_hi"),
                None,
            ),
            (
                "agree after",
                _with_interval(_pct, "agree_after", "agree_after_lo", "agree_after_hi"),
                None,
            ),
        ],
    ),
    "base_rates": (
        "Base win rate of each role (all players) by table size and mode",
        [
            ("seats", "seats", _int),
            ("mode", "mode", _text),
            ("role", "role", _text),
            ("games", "games", _int),
            ("win rate", "base_rate", _pct),
        ],
    ),
}
# the probe scores of the model and both baselines, in the per-player and per-round tables
_PROBE_SCORES: list[Column] = [
    ("Brier", "brier", _num(3)),
    ("Brier counting", "brier_counting", _num(3)),
    ("Brier rule bot", "brier_rulebot", _num(3)),
    ("log loss", "log_loss", _num(3)),
    ("log loss counting", "log_loss_counting", _num(3)),
    ("log loss rule bot", "log_loss_rulebot", _num(3)),
]
_SPECS["probe_summary"] = (
    "Belief probes per model player (docs/probes.md): Brier score and log loss of the model, the "
    "counting observer and the rule bot on the same forecasts; beats the counting observer by "
    "(its Brier score minus the model's, per probe; 95% CI, cluster bootstrap over deals)",
    [
        ("player", "player", _text),
        ("model", "model", _text),
        ("probes", "probes", _int),
        ("invalid", "invalid_rate", _pct),
        ("forecasts", "forecasts", _int),
        *_PROBE_SCORES,
        ("beats counting by", _with_interval(_num(3), "beats_counting", "beats_lo", "beats_hi"),
         None),
    ],
)  # fmt: skip
_SPECS["probes"] = (
    "Belief probes by model player × its role × round (role and round 'all': every probe)",
    [
        ("player", "player", _text),
        ("role", "role", _text),
        ("round", "round", _text),
        ("probes", "probes", _int),
        ("invalid", "invalid", _int),
        ("forecasts", "forecasts", _int),
        *_PROBE_SCORES,
    ],
)
# Shown in this order; "model_calls" is a view of the rates table, shown when a model played.
SHOWN = ("summary", "win_rates", "role_adjusted", "luck", "moves", "ratings", "rates", "model_calls",
         "spend", "compactions", "signals", "claim_effect", "probe_summary", "probes",
         "base_rates")  # fmt: skip


def _shown(report: Report) -> list[tuple[str, pd.DataFrame]]:
    out = []
    for name in SHOWN:
        if name == "model_calls":
            if not report.has_models:
                continue
            df = report.rates[report.rates["kind"].isin(SEATED_KINDS)]
        elif (
            name in ("spend", "luck", "moves", "compactions", "signals", "claim_effect")
            and getattr(report, name).empty
        ):
            continue
        elif name in ("luck", "moves", "probe_summary", "probes"):
            df = getattr(report, name)
            if df.empty:
                continue
        else:
            df = report.tables()[name]
        out.append((name, df))
    return out


def _visible(df: pd.DataFrame, spec: list[Column]) -> list[Column]:
    """The spec without a ``model`` column when no player is a model."""
    if "model" in df.columns and not df["model"].fillna("").astype(str).str.len().any():
        return [c for c in spec if c[1] != "model"]
    return spec


def _justify(column: Column) -> str:
    return "left" if column[2] is _text else "right"


def _cells(df: pd.DataFrame, spec: list[Column]) -> list[list[str]]:
    out = []
    for _, row in df.iterrows():
        line = []
        for _header, col, fmt in spec:
            if callable(col):
                line.append(col(row))
            else:
                assert fmt is not None
                line.append(fmt(row[col]))
        out.append(line)
    return out


def _headline(report: Report) -> str:
    void = f", {report.void_games} void" if report.void_games else ""
    return (
        f"League report — run {report.name}: {count(report.games, 'game')}{void}, "
        f"{count(report.seat_games, 'seat')} ({'; '.join(report.cells)})"
    )


def _checks(report: Report) -> list[str]:
    """The run-check lines: flags first (each a reason the figures are not all results)."""
    lines = [f"FLAG: {f.message}" for f in report.flags.flags] + list(report.flags.notes)
    return lines + compaction_notes(report.compactions)


def print_report(report: Report, console: Any = None) -> None:
    """Show the report's run checks and tables on a rich console (stdout when ``None``)."""
    from rich.console import Console
    from rich.markup import escape

    console = console if console is not None else Console()
    console.print(f"[bold]{escape(_headline(report))}[/bold]")
    console.print(f"run folder: {escape(str(report.run_dir))}")
    console.print(escape(INTERVALS_NOTE))
    if report.talk:
        console.print(escape(report.talk))
    for line in _checks(report):
        style = "bold red" if line.startswith("FLAG") else "yellow"
        console.print(f"[{style}]{escape(line)}[/{style}]")
    for name, df in _shown(report):  # headers break between words; a wide table comes in parts
        title, spec = _SPECS[name]
        spec = _visible(df, spec)
        columns = [(c[0], _justify(c)) for c in spec]
        for table in fitted_tables(title, columns, _cells(df, spec), console.width):  # type: ignore[arg-type]
            console.print(table)
    headers, rows = locale_table(report.locales)
    if rows:
        for table in fitted_tables(
            LOCALES_TITLE, [(h, "left") for h in headers], rows, console.width
        ):
            console.print(table)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(report: Report) -> str:
    """The report as Markdown: a headline, the run checks and one table per DataFrame."""
    parts = [f"# {_md_escape(_headline(report))}", ""]
    parts.append(
        f"Computed from `{report.run_dir}/games.jsonl`"
        + (" and the spend ledger `spend.jsonl`" if not report.spend.empty else " alone")
        + f" (last game finished "
        f"{report.last_finished}); rating intervals from {report.bootstrap} bootstrap resamples "
        f"of whole deals. {INTERVALS_NOTE}"
    )
    if report.talk:
        parts += ["", _md_escape(report.talk)]
    checks = _checks(report)
    if checks:
        parts += ["", "## Run checks", ""]
        parts += [f"- **{_md_escape(c)}**" if c.startswith("FLAG") else f"- {c}" for c in checks]
    for name, df in _shown(report):
        title, spec = _SPECS[name]
        spec = _visible(df, spec)
        parts += ["", f"## {_md_escape(title)}", ""]
        parts.append("| " + " | ".join(_md_escape(c[0]) for c in spec) + " |")
        parts.append(
            "|" + "|".join(":---" if _justify(c) == "left" else "---:" for c in spec) + "|"
        )
        for line in _cells(df, spec):
            parts.append("| " + " | ".join(_md_escape(c) for c in line) + " |")
    headers, rows = locale_table(report.locales)
    if rows:
        parts += ["", f"## {_md_escape(LOCALES_TITLE)}", ""]
        parts.append("| " + " | ".join(headers) + " |")
        parts.append("|" + "|".join(":---" for _ in headers) + "|")
        parts += ["| " + " | ".join(_md_escape(c) for c in line) + " |" for line in rows]
    return "\n".join(parts) + "\n"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_report(report: Report, run_dir: str | Path | None = None) -> Path:
    """Write ``<run>/report/``: ``summary.csv``, one CSV per table (raw numbers; undefined values
    are empty cells), ``flags.csv`` (kind, player, message of every flag), ``settings.csv`` (the
    run's table-talk setting: ``on``, ``off`` or ``people``) and ``report.md``;
    return the folder."""
    out = Path(run_dir if run_dir is not None else report.run_dir) / REPORT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, df in report.tables().items():
        _write(out / f"{name}.csv", df.to_csv(index=False))
    _write(out / "flags.csv", report.flags_table().to_csv(index=False))
    talk = talk_setting(report.run_dir)
    _write(
        out / "settings.csv",
        pd.DataFrame([{"setting": "signals", "value": talk}]).to_csv(index=False),
    )
    if not report.locales.empty:
        _write(out / "locale_win_rates.csv", report.locales.to_csv(index=False))
    if not report.luck.empty:
        _write(out / "luck.csv", report.luck.to_csv(index=False))
    if not report.moves.empty:
        _write(out / "moves.csv", report.moves.to_csv(index=False))
    if not report.probes.empty:  # belief probes (harness.league.probe_report)
        _write(out / "probes.csv", report.probes.to_csv(index=False))
        _write(out / "probe_summary.csv", report.probe_summary.to_csv(index=False))
        _write(out / "probe_calibration.csv", report.probe_calibration.to_csv(index=False))
    _write(out / "report.md", markdown(report))
    return out
