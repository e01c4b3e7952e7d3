"""League statistics from a run's records alone (``games.jsonl``), as pandas DataFrames.

* :func:`load_run` — :class:`RunData`: ``games`` (one row per finished game, void ones included,
  with their ``void`` reason), ``seats`` (one row per seat of every game with a result — void games
  are excluded from every win rate) and ``all_seats`` (every seat, void games included, for the
  counts of decisions, fallbacks, tokens and costs).
* :func:`win_rates` — per player × role: games, wins, win rate and its 95 % Wilson interval
  (clustered by deal).
* :func:`base_rates` — per seats × mode × role: the win rate of that role over all players.
* :func:`role_adjusted` — per player: the mean of ``won - base rate of that role at that table size
  and mode``, with a 95 % interval (Student's t, standard error clustered by deal).
* :func:`rates` — per player: fallback, invalid-answer and timeout rates per decision (for model
  players per *model decision*, one with more than one option) and per model call, call counts,
  call latency median and p95, latency per decision and per game, tokens (cached input tokens
  too) and cost per game, and each model player's history policy.

A player may sit at several seats of one game (a league of two players at a six-seat table); every
seat counts as one result for its role, so ``games`` in :func:`win_rates` counts seat-games.  The
seats of one game are not independent, and neither are the games of one deal (a paired league
replays a deal once per seating): every interval is clustered by deal, the ``deal_key`` column
(:func:`harness.records.deals.deal_key`; a frame without it has each game as its own deal).  With
fewer than two deals an interval is NaN, shown as "–" (docs/statistics.md).  Nothing here is
hard-coded: every figure is computed from the records.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from harness.league import stats_basic
from harness.league.model_calls import DEFAULT_HISTORY, ModelCounts
from harness.records import GameRecord
from harness.records.copies import Copy, copies_note
from harness.records.deals import deal_of
from harness.records.run_folder import distinct_finished, open_run_folder

from .flags import game_void

__all__ = [
    "FALLBACK_REASONS",
    "ROLE_ORDER",
    "RunData",
    "base_rates",
    "clustered_wilson",
    "deals",
    "load_run",
    "mean_interval",
    "rates",
    "role_adjusted",
    "win_rates",
]

FALLBACK_REASONS: tuple[str, ...] = (
    "timeout", "error", "invalid_answer", "truncated", "context_overflow",
)  # fmt: skip
ROLE_ORDER: tuple[str, ...] = ("marshal", "deputy", "raider", "loner", "double_agent")

GAME_COLUMNS = [
    "game_id", "run", "seed", "seats", "mode", "deal", "rotation", "winning_side", "n_winners",
    "rounds", "high_noon", "decisions", "fallbacks", "cost_usd", "input_tokens", "output_tokens",
    "duration_s", "finished_at", "void", "deal_key",
]  # fmt: skip
SEAT_COLUMNS = [
    "game_id", "seats", "mode", "seat", "player", "kind", "model", "role", "team", "won", "alive",
    "decisions", "fallbacks", *(f"fallback_{r}" for r in FALLBACK_REASONS), "invalid_answers",
    "model_calls", "input_tokens", "cached_input_tokens", "output_tokens", "reasoning_tokens",
    "tokens", "cost_usd", "latency_s", "deal_key",
]  # fmt: skip


@dataclass
class RunData:
    """The finished games of one run: ``games`` (per game, void ones included), ``seats`` (per
    seat of the games with a result) and ``all_seats`` (per seat of every game, with a ``void``
    column)."""

    run_dir: Path
    name: str
    games: pd.DataFrame
    seats: pd.DataFrame
    all_seats: pd.DataFrame
    records: list[GameRecord]
    # games that replay another game's deal and seating, left out (harness.records.copies)
    copies: list[Copy] = field(default_factory=list)

    @property
    def void_games(self) -> int:
        return int(self.games["void"].notna().sum())

    @property
    def copies_note(self) -> str | None:
        """One line when copies were left out, else ``None``."""
        return copies_note(self.copies, len(self.records))


def load_run(run_dir: str | Path) -> RunData:
    """Read ``run_dir/games.jsonl`` into DataFrames, games sorted by ``game_id``; a game that
    replays another game's deal and seating is counted once (``copies``,
    :mod:`harness.records.copies`).

    Raises :class:`~harness.records.store.RecordError` (one-line message) when the folder does not
    exist, holds no ``games.jsonl`` or no finished game, or a record line is malformed.
    """
    root = Path(run_dir)
    read = distinct_finished(open_run_folder(root))  # the wording every command shares
    records = read.games  # each copy of a game counted once
    reasons = list(FALLBACK_REASONS)
    for g in records:
        for o in g.seat_outcomes:
            reasons += [r for r in o.fallbacks if r not in reasons]
    game_rows = []
    seat_rows = []
    for g in sorted(records, key=lambda r: r.game_id):
        game_rows.append(
            {
                **g.model_dump(exclude={"seat_outcomes", "schema_version", "winners"}),
                "n_winners": len(g.winners),
                "void": game_void(g),
                "deal_key": deal_of(g),
            }
        )
        for o in g.seat_outcomes:
            row = {
                "game_id": g.game_id,
                "void": game_void(g) is not None,
                "seats": g.seats,
                "mode": g.mode,
                "seat": o.seat,
                "player": o.player,
                "kind": o.kind,
                "model": o.model,
                "role": o.role,
                "team": o.team,
                "won": bool(o.won),
                "alive": bool(o.alive),
                "decisions": o.decisions,
                "fallbacks": sum(o.fallbacks.values()),
                "invalid_answers": o.invalid_answers,
                "model_calls": o.model_calls,
                "input_tokens": o.input_tokens,
                "cached_input_tokens": o.cached_input_tokens,
                "output_tokens": o.output_tokens,
                "reasoning_tokens": o.reasoning_tokens,
                "tokens": o.input_tokens + o.output_tokens,
                "cost_usd": o.cost_usd,
                "latency_s": o.latency_s,
                "deal_key": deal_of(g),
            }
            for r in reasons:
                row[f"fallback_{r}"] = o.fallbacks.get(r, 0)
            seat_rows.append(row)
    columns = SEAT_COLUMNS + [f"fallback_{r}" for r in reasons if r not in FALLBACK_REASONS]
    games = pd.DataFrame(game_rows, columns=GAME_COLUMNS)
    all_seats = pd.DataFrame(seat_rows, columns=[*columns, "void"])
    seats = all_seats[~all_seats["void"].astype(bool)].drop(columns="void").reset_index(drop=True)
    name = str(records[0].run)
    return RunData(root, name, games, seats, all_seats, records, read.copies)


def _role_key(role: pd.Series) -> pd.Series:
    order = {r: i for i, r in enumerate(ROLE_ORDER)}
    return role.map(lambda r: order.get(r, len(order)))


def win_rates(seats: pd.DataFrame, by: Sequence[str] = ()) -> pd.DataFrame:
    """Per player × role (and the extra ``by`` columns, e.g. ``("seats", "mode")``): ``games``
    (seat-games played in that role), ``wins``, ``win_rate`` and the 95 % Wilson interval
    ``ci_lo`` .. ``ci_hi``, clustered by deal (:func:`clustered_wilson`; NaN with one deal).
    Rows are sorted by player, then role in rules order."""
    keys = ["player", "role", *by]
    columns = [*keys, "games", "wins", "win_rate", "ci_lo", "ci_hi"]
    if seats.empty:
        return pd.DataFrame(columns=columns)
    g = seats.groupby(keys, sort=False)["won"].agg(games="size", wins="sum").reset_index()
    g["games"] = g["games"].astype(int)
    g["wins"] = g["wins"].astype(int)
    g["win_rate"] = g["wins"] / g["games"]
    # the same groups in the same order as ``g``'s rows
    bounds = [clustered_wilson(part["won"], deals(part))
              for _, part in seats.groupby(keys, sort=False)]  # fmt: skip
    g["ci_lo"] = [lo for lo, _ in bounds]
    g["ci_hi"] = [hi for _, hi in bounds]
    g = g.sort_values(
        ["player", "role", *by], key=lambda s: _role_key(s) if s.name == "role" else s
    )
    return g[columns].reset_index(drop=True)


def base_rates(seats: pd.DataFrame) -> pd.DataFrame:
    """Per seats × mode × role: ``games`` (seat-games), ``wins`` and ``base_rate``, the win rate
    of that role over every player of the run at that table size and mode."""
    columns = ["seats", "mode", "role", "games", "wins", "base_rate"]
    if seats.empty:
        return pd.DataFrame(columns=columns)
    g = seats.groupby(["seats", "mode", "role"])["won"].agg(games="size", wins="sum").reset_index()
    g["games"] = g["games"].astype(int)
    g["wins"] = g["wins"].astype(int)
    g["base_rate"] = g["wins"] / g["games"]
    g = g.sort_values(
        ["seats", "mode", "role"], key=lambda s: _role_key(s) if s.name == "role" else s
    )
    return g[columns].reset_index(drop=True)


def deals(frame: pd.DataFrame) -> pd.Series:
    """The cluster of every row of a seats (or decisions) frame: its ``deal_key`` column
    (:func:`harness.records.deals.deal_key`), else its ``game_id`` (each game its own deal)."""
    return frame["deal_key"] if "deal_key" in frame.columns else frame["game_id"]


def clustered_wilson(won: pd.Series, clusters: pd.Series) -> tuple[float, float]:
    """The 95 % Wilson interval of the win rate of ``won`` (1/0 per seat-game) when the seats
    are clustered by deal: a player who holds several seats of one game (two Raiders of the same
    team win or lose together), or plays one deal in several seatings, has fewer independent
    results than seat-games (:func:`harness.league.stats_basic.clustered_wilson`: the Wilson
    interval at the design-effect sample size).  ``(nan, nan)`` with fewer than two clusters."""
    bounds = stats_basic.clustered_wilson(won.astype(float).tolist(), clusters.tolist())
    return (math.nan, math.nan) if bounds is None else bounds


def _clustered_mean(values: pd.Series, clusters: pd.Series) -> tuple[float, float]:
    """Mean of ``values`` and its standard error clustered by ``clusters`` (the deals: NaN with
    < 2 clusters): ``se² = G/(G-1) · Σ_g (Σ_{i∈g} (x_i - x̄))² / n²``."""
    n = len(values)
    mean = float(values.mean())
    resid = (values - mean).groupby(clusters.to_numpy()).sum()
    g = len(resid)
    if g < 2:
        return mean, math.nan
    var = g / (g - 1) * float((resid**2).sum()) / (n * n)
    return mean, math.sqrt(var)


def mean_interval(values: pd.Series, clusters: pd.Series) -> tuple[float, float, float, float]:
    """``(mean, lo, hi, se)``: the mean of ``values``, its standard error clustered by
    ``clusters`` (the deals, :func:`_clustered_mean`) and the 95 % interval ``mean ± t·se``, ``t``
    the 97.5 % quantile of Student's t with ``G − 1`` degrees of freedom (``G`` clusters: the
    variance is estimated from them only).  NaN bounds and ``se`` with fewer than two clusters;
    NaN everywhere when ``values`` is empty."""
    if len(values) == 0:
        return math.nan, math.nan, math.nan, math.nan
    mean, se = _clustered_mean(values, clusters)
    if math.isnan(se):
        return mean, math.nan, math.nan, se
    half = stats_basic.t_quantile(0.975, clusters.nunique() - 1) * se
    return mean, mean - half, mean + half, se


def role_adjusted(seats: pd.DataFrame) -> pd.DataFrame:
    """Per player: each seat's result (1 won, 0 lost) minus the base rate of its role at that
    table size and mode (:func:`base_rates`), averaged over the player's seats.

    Columns: ``player``, ``games`` (distinct games), ``seat_games``, ``wins``, ``win_rate``,
    ``expected`` (mean base rate of the roles the player was dealt), ``score`` (= win_rate -
    expected), ``se`` and the 95 % interval ``ci_lo`` .. ``ci_hi`` (:func:`mean_interval`; the
    standard error is clustered by deal because a player's seats in one game, and its games of
    one deal, are not independent; NaN with one deal).  Sorted by score, best first.
    """
    columns = ["player", "games", "seat_games", "wins", "win_rate", "expected", "score", "se",
               "ci_lo", "ci_hi"]  # fmt: skip
    if seats.empty:
        return pd.DataFrame(columns=columns)
    base = base_rates(seats)[["seats", "mode", "role", "base_rate"]]
    df = seats[["game_id", "seats", "mode", "player", "role", "won"]].assign(deal=deals(seats))
    df = df.merge(base, on=["seats", "mode", "role"], how="left")
    df["won"] = df["won"].astype(float)
    df["resid"] = df["won"] - df["base_rate"]
    rows = []
    for player, part in df.groupby("player", sort=True):
        score, lo, hi, se = mean_interval(part["resid"], part["deal"])
        if part["won"].nunique() == 1 and not math.isnan(se):
            # won every seat-game or none: the residuals may not vary at all (one role, one
            # base rate) and a zero-width interval would claim certainty; the win rate's
            # clustered Wilson interval, shifted by the expected rate, is the honest one
            w_lo, w_hi = clustered_wilson(part["won"], part["deal"])
            expected = float(part["base_rate"].mean())
            lo, hi = min(lo, w_lo - expected), max(hi, w_hi - expected)
        rows.append(
            {
                "player": player,
                "games": int(part["game_id"].nunique()),
                "seat_games": len(part),
                "wins": int(part["won"].sum()),
                "win_rate": float(part["won"].mean()),
                "expected": float(part["base_rate"].mean()),
                "score": score,
                "se": se,
                "ci_lo": lo,
                "ci_hi": hi,
            }
        )
    out = pd.DataFrame(rows, columns=columns)
    return out.sort_values(["score", "player"], ascending=[False, True]).reset_index(drop=True)


RATE_COLUMNS = [
    "player", "kind", "model", "history", "games", "seat_games", "void_games", "decisions",
    "fallbacks",
    "fallback_rate", "timeouts", "timeout_rate", "invalid_answers", "invalid_rate",
    "model_decisions", "single_option", "model_calls", "failed_calls", "calls_per_decision",
    "fallback_per_call",
    "invalid_per_call", "timeout_per_call", "error_per_call", "truncated_rate",
    "truncated_per_call", "overflow_per_call", "call_latency_median_s",
    "call_latency_p95_s", "decision_latency_median_s", "decision_latency_p95_s", "lost_records",
    "fallback_reasons", "latency_per_decision_ms", "latency_per_game_s", "tokens_per_game",
    "input_tokens_per_game", "output_tokens_per_game", "input_tokens", "cached_input_tokens",
    "cached_input_share", "answered_calls", "cached_reported_calls", "cost_per_game_usd",
    "cost_usd",
]  # fmt: skip


def _or_nan(x: float | None) -> float:
    return math.nan if x is None else float(x)


def rates(
    seats: pd.DataFrame,
    counts: Mapping[str, ModelCounts] | None = None,
    history: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """Per player: decision quality and costs (pass ``RunData.all_seats``: void games count).

    ``counts`` (from :func:`~harness.league.model_calls.count_model_calls`) give model players
    their rates per *model decision* — a decision with more than one option, the only kind that
    reaches the model — and per model call; without them (or for bots and random seats) the
    rates are over every decision of the player:

    * ``fallback_rate`` — decisions that fell back (any reason) / decisions;
    * ``timeout_rate`` — decisions with a timed-out call or cut off by the timer / decisions;
    * ``invalid_rate`` — decisions with at least one invalid answer (unparseable or illegal, before
      any fallback) / decisions (seat outcomes alone: invalid answers / decisions);
    * ``model_calls``, ``calls_per_decision``, ``fallback_per_call``, ``invalid_per_call``,
      ``timeout_per_call``, ``error_per_call`` (failed calls: server, connection, rate limit, bad
      response), ``truncated_rate`` (decisions with an answer cut by the token limit / model
      decisions; never counted as invalid), ``truncated_per_call``, ``overflow_per_call``
      (requests refused as longer than the model's context), ``failed_calls`` (calls that got no
      answer: errors, timeouts, overflows), ``call_latency_median_s`` /
      ``call_latency_p95_s`` (over the answered calls) and ``decision_latency_*`` (over the model
      decisions the model answered itself, no fallback), ``lost_records`` (model decisions with
      no model record), ``fallback_reasons`` (``error 35 (connection_error 35)``);
    * ``latency_per_decision_ms`` — milliseconds per decision (a model player's: the mean over the
      model decisions it answered itself, as the decision latency); ``latency_per_game_s``,
      ``tokens_per_game`` (input + output), ``cost_per_game_usd`` — the player's seats of a game
      summed, averaged over the games it played; ``cached_input_tokens`` summed over the run's
      calls that reported them (NaN when none did: not reported is not 0) and
      ``cached_input_share`` of those calls' input tokens, ``cached_reported_calls`` of
      ``answered_calls`` saying how many reported; ``cost_usd`` — the player's total spend;
    * ``history`` — a model player's history policy (``conversation``, ``log``, ``since_last``).

    Undefined rates (nothing to divide by) are NaN here; reports show them as "–".
    """
    counts = counts or {}
    history = history or {}
    if seats.empty:
        return pd.DataFrame(columns=RATE_COLUMNS)
    rows = []
    for player, part in seats.groupby("player", sort=True):
        games = int(part["game_id"].nunique())
        decisions = int(part["decisions"].sum())
        per_dec = decisions if decisions else math.nan

        def total(col: str, part: pd.DataFrame = part) -> float:
            return float(part[col].sum())

        models = part["model"].dropna().unique()
        kind = str(part["kind"].iloc[0])
        row: dict[str, Any] = {
            "player": player,
            "kind": kind,
            "model": str(models[0]) if len(models) else "",
            "history": history.get(str(player), DEFAULT_HISTORY) if kind == "model" else "",
            "games": games,
            "seat_games": len(part),
            "void_games": int(part["void"].sum()) if "void" in part else 0,
            "decisions": decisions,
            "fallbacks": int(total("fallbacks")),
            "fallback_rate": total("fallbacks") / per_dec,
            "timeouts": int(total("fallback_timeout")),
            "timeout_rate": total("fallback_timeout") / per_dec,
            "invalid_answers": int(total("invalid_answers")),
            "invalid_rate": total("invalid_answers") / per_dec,
            "model_calls": int(total("model_calls")),
            "latency_per_decision_ms": 1000 * total("latency_s") / per_dec,
            "latency_per_game_s": total("latency_s") / games,
            "tokens_per_game": total("tokens") / games,
            "input_tokens_per_game": total("input_tokens") / games,
            "output_tokens_per_game": total("output_tokens") / games,
            "input_tokens": int(total("input_tokens")),
            "cached_input_tokens": _reported_sum(part["cached_input_tokens"]),
            "cached_input_share": _reported_sum(part["cached_input_tokens"]) / total("input_tokens")
            if total("input_tokens")
            else math.nan,
            "cost_per_game_usd": total("cost_usd") / games,
            "cost_usd": total("cost_usd"),
        }
        c = counts.get(str(player))
        if c is not None and c.games_read:
            row.update(
                {
                    "fallback_rate": _or_nan(c.fallback_per_decision),
                    "timeouts": c.timeout_decisions,
                    "timeout_rate": _or_nan(c.timeout_per_decision),
                    "invalid_rate": _or_nan(c.invalid_per_decision),
                    "model_decisions": c.decisions,
                    "single_option": c.single_option,
                    "model_calls": c.calls,
                    "failed_calls": c.failed_calls,
                    "latency_per_decision_ms": 1000 * _or_nan(c.mean_decision_latency),
                    "calls_per_decision": _or_nan(c.calls_per_decision),
                    "fallback_per_call": _or_nan(c.fallback_per_call),
                    "invalid_per_call": _or_nan(c.invalid_per_call),
                    "timeout_per_call": _or_nan(c.timeout_per_call),
                    "error_per_call": _or_nan(c.error_per_call),
                    "truncated_rate": _or_nan(c.truncated_per_decision),
                    "truncated_per_call": _or_nan(c.truncated_per_call),
                    "overflow_per_call": _or_nan(c.overflow_per_call),
                    "cached_input_tokens": _or_nan(c.cached_tokens),
                    "cached_input_share": _or_nan(c.cached_input_share),
                    "answered_calls": c.answered_calls,
                    "cached_reported_calls": c.cached_reported_calls,
                    "call_latency_median_s": _or_nan(c.call_latency(0.5)),
                    "call_latency_p95_s": _or_nan(c.call_latency(0.95)),
                    "decision_latency_median_s": _or_nan(c.decision_latency(0.5)),
                    "decision_latency_p95_s": _or_nan(c.decision_latency(0.95)),
                    "lost_records": c.lost_records,
                    "fallback_reasons": c.reasons_text(),
                }
            )
        elif row["fallbacks"]:
            reasons = {r: int(total(f"fallback_{r}")) for r in _reasons(part)}
            row["fallback_reasons"] = ", ".join(f"{r} {k}" for r, k in reasons.items() if k)
        rows.append(row)
    return pd.DataFrame(rows, columns=RATE_COLUMNS)


def _reported_sum(values: pd.Series) -> float:
    """The sum of the values reported (not null); NaN when none is."""
    known = pd.to_numeric(values, errors="coerce").dropna()
    return float(known.sum()) if len(known) else math.nan


def _reasons(part: pd.DataFrame) -> list[str]:
    return [c.removeprefix("fallback_") for c in part.columns if c.startswith("fallback_")]
