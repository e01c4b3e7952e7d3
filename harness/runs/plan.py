"""Planning a league (``bangarena plan``): the games needed to detect a difference of a given
size between two players in a role, raw and luck-adjusted, and what those games cost.

**Sample size.**  Two players A and B in one role, each with ``n`` independent seat-games, scores
with standard deviation ``σ`` per seat-game (a win indicator, or its luck-adjusted score).  A
two-sided test at level ``α`` detects a true difference ``δ`` with probability ``power`` when

    n = 2 · (z₁₋α/₂ + z_power)² · σ² / δ²     seat-games per player and role (unpaired)

(normal approximation to the difference of two means, ``Var(D̂) = 2σ²/n``).  Seat-games are not
independent — seats of one deal are correlated — so ``σ`` is the *effective* spread per
seat-game measured with the deal as the cluster (below).  With the variance bench's figures the
spread is that of the per-deal *difference* ``σ_d`` of two agents playing the same deals at the
same seat (paired, duplicate deals), and ``n = (z₁₋α/₂ + z_power)² · σ_d² / δ²`` deals — the same
formula with ``σ² = σ_d² / 2``.

**Where the spread comes from.**  ``--from RUN``: per role, the spread of a comparison of two
players clustered by deal (:mod:`.plan_spread`: every game sharing a deal seed is one cluster),
of the pilot's seat-game results and of their luck-adjusted scores (computed and stored beside the
run when missing, as ``league report --luck`` does), averaged over the pilot's pairs of players.
It is the SD per seat-game that, in the unpaired formula, gives the clustered variance of the
difference of the two players' means — so a paired pilot's pairing and the correlation of a
player's seats within a deal are both in it, and with a paired schedule the planned deals are
``(z₁₋α/₂ + z_power)² · σ_d² / δ²`` for the per-deal difference ``σ_d``.  The role-adjusted row
uses the result minus the role's base rate at that table size and mode.  A role with too few
deals (no pair of players in two deals of it) or no spread seen (every player always won or
always lost) takes the spread over all the pilot's seats, and says so.  A pilot too small for any
spread (a single deal), or no pilot: the variance bench's figures
(``analysis/data/variance_bench.json``), measured on rule bots — one SD for every role; a pilot's
model usage still gives the costs.  The spread is of the pilot's design: a pilot that played each
deal once is conservative for a paired league, and a paired pilot is not for an unpaired one
(the plan says so).

**From seat-games to games.**  The config's schedule (seat counts, modes, distinct seatings,
players) is built for ``games_per_table = g``; a player at a seat of a ``k``-seat table in
``mode`` holds role ``r`` with probability ``composition(k, mode)[r] / k`` (roles are dealt at
random).  The plan is the smallest ``g`` at which *every* player's expected seat-games reach ``n``
in every role the schedule deals (and, for the role-adjusted row, over all its seats).

**Cost.**  Model calls per model seat per game and tokens per call come from the pilot's model
seats (the same ``provider/model`` when it played, else all its model seats).  Without model seats
in the pilot, the caller may pass each player's usage measured on its prompts
(``bangarena plan`` does: :mod:`.plan_usage`, output tokens estimated from the shortest valid
answers); else decisions with more than one option per seat per game are counted on rule-bot
playouts of the config's tables (``DEFAULT_PLAYOUTS`` per table) at one call per decision, and
tokens are not estimated.  Dollars need a price (the model's ``price`` or LiteLLM's map); without
output tokens they are the input's cost alone.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from harness.engine.roles import composition
from harness.league.league_config import LeagueConfig, PlayerConfig
from harness.league.schedule import build_schedule
from harness.views.plural import count

from .luck_tables import ROLE_ADJUSTED, with_luck
from .plan_spread import DEAL, deal_spread
from .stats import ROLE_ORDER, RunData, base_rates, load_run

BENCH_FILE = "variance_bench.json"
DEFAULT_PLAYOUTS = 12  # rule-bot games per table for the default decisions per seat
PLAYOUT_SEED = 50_000_000
EXACT_LIMIT = 4_000  # games per table built exactly; beyond, the per-game rate is extrapolated


class PlanError(ValueError):
    """Input the plan cannot use (one-line message)."""


def z(p: float) -> float:
    return NormalDist().inv_cdf(p)


def seat_games_needed(sd: float, delta: float, alpha: float, power: float) -> float:
    """``2 · (z₁₋α/₂ + z_power)² · sd² / delta²`` seat-games per player (unpaired, two-sided)."""
    return 2.0 * (z(1 - alpha / 2) + z(power)) ** 2 * sd * sd / (delta * delta)


@dataclass(frozen=True)
class Spread:
    """The spread per seat-game of a score in ``role``, raw and luck-adjusted, clustered by deal
    (:mod:`.plan_spread`); ``paired``: the SD of a paired per-deal difference at one seat, the
    bench's figure."""

    role: str
    sd_raw: float
    sd_adjusted: float
    seat_games: int  # seat-games the SDs were computed from (0: not from this run)
    note: str = ""
    paired: bool = False

    def needed(self, delta: float, alpha: float, power: float, adjusted: bool) -> float:
        sd = self.sd_adjusted if adjusted else self.sd_raw
        if self.paired:
            return seat_games_needed(sd / math.sqrt(2.0), delta, alpha, power)
        return seat_games_needed(sd, delta, alpha, power)


@dataclass
class Usage:
    """Model calls per model seat per game and tokens per call, with where they came from."""

    calls_per_seat_game: float
    input_per_call: float | None = None
    cached_per_call: float | None = None
    output_per_call: float | None = None
    source: str = ""


@dataclass
class Source:
    kind: str  # "pilot" or "bench"
    text: str
    spreads: dict[str, Spread]
    usage: dict[str, Usage] = field(default_factory=dict)  # by provider/model label; "" = any
    pilot_paired: bool | None = None  # the pilot replayed deals (None: no pilot spread)


def pilot_source(run_dir: str | Path, luck: bool = True, score: str = "luck") -> Source:
    """The spreads and model usage of a finished run (luck computed when missing; without
    ``luck`` the luck-adjusted spread is the raw one, and the source says so); a run too small
    for any spread gives the bench's spreads with its own usage.  ``score="advantage"``: the
    adjusted spread is that of the advantage-adjusted score (:mod:`harness.analysis.advantage`,
    computed and stored when missing) instead of the chance-corrected one."""
    if score not in ("luck", "advantage"):
        raise PlanError(f"the adjusted score is 'luck' or 'advantage', got {score!r}")
    data = load_run(run_dir)
    seats = data.seats
    if seats.empty:
        raise PlanError(f"{run_dir}: no game with a result to measure")
    if luck:
        if score == "advantage":
            df = with_luck(str(data.run_dir), seats, advantage=True)
            df["adjusted"] = df["advantage"]
        else:
            df = with_luck(str(data.run_dir), seats)
    else:
        df = seats.assign(adjusted=seats["won"].astype(float))
    base = base_rates(df)[["seats", "mode", "role", "base_rate"]]
    df = df.merge(base, on=["seats", "mode", "role"], how="left")
    df = df.merge(data.games[["game_id", "seed"]], on="game_id")
    df["won"] = df["won"].astype(float)
    df["won_rel"] = df["won"] - df["base_rate"]
    df["adj_rel"] = df["adjusted"] - df["base_rate"]
    usage = _pilot_usage(data)
    games = int(seats["game_id"].nunique())
    deals = int(df.groupby(DEAL).ngroups)
    paired = bool((df.groupby(DEAL)["game_id"].nunique() > 1).any())
    text = f"pilot run {data.name} ({count(games, 'game')} in {count(deals, 'deal')}, {len(seats)} seat-games)"
    if not luck:
        text += "; luck not computed: the luck-adjusted spread is the raw one"
    elif score == "advantage":
        text += "; adjusted: the advantage-adjusted score (rule-bot play-outs per departure)"
    spreads = _deal_spreads(df)
    if not spreads:
        bench = bench_source()
        text += (
            ": too small to measure a spread (no pair of players in two deals); the spread is "
            f"taken from the bench figures — {bench.text}"
        )
        return Source("bench", text, bench.spreads, usage)
    return Source("pilot", text, spreads, usage, paired)


def _deal_spreads(df: pd.DataFrame) -> dict[str, Spread]:
    """Per role (and role-adjusted): the spread clustered by deal (:mod:`.plan_spread`); a role
    without one takes the spread over all seats; empty when there is none at all."""
    all_raw, all_adj = deal_spread(df, "won"), deal_spread(df, "adjusted")
    if not (all_raw.sd > 0 and all_adj.sd > 0):  # NaN too: no pair of players in two deals
        return {}
    spreads: dict[str, Spread] = {}
    for role in [*ROLE_ORDER, *sorted(set(df["role"]) - set(ROLE_ORDER))]:
        part = df[df["role"] == role]
        raw, adj = deal_spread(part, "won"), deal_spread(part, "adjusted")
        if raw.sd > 0 and adj.sd > 0:
            note = f"{count(raw.deals, 'deal')}, {count(raw.pairs, 'pair')} of players"
            spreads[role] = Spread(role, raw.sd, adj.sd, len(part), note)
        else:
            why = "no spread seen" if raw.pairs else "too few deals"
            note = f"{why} in the pilot: the spread over all roles"
            spreads[role] = Spread(role, all_raw.sd, all_adj.sd, len(part), note)
    raw, adj = deal_spread(df, "won_rel"), deal_spread(df, "adj_rel")
    note = f"{count(raw.deals, 'deal')}, {count(raw.pairs, 'pair')} of players"
    spreads[ROLE_ADJUSTED] = Spread(ROLE_ADJUSTED, raw.sd, adj.sd, len(df), note)
    return spreads


def _pilot_usage(data: RunData) -> dict[str, Usage]:
    """Model calls per model seat-game and tokens per call of the run's model seats, per
    ``provider/model`` and over all of them (``""``)."""
    usage: dict[str, Usage] = {}
    models = data.seats[data.seats["kind"] == "model"]
    for label, part in [("", models), *models.groupby("model", sort=True)]:
        calls = float(part["model_calls"].sum())
        if part.empty or calls == 0:
            continue
        cached = pd.to_numeric(part["cached_input_tokens"], errors="coerce")
        usage[str(label)] = Usage(
            calls / len(part),
            float(part["input_tokens"].sum()) / calls,
            float(cached.fillna(0).sum()) / calls,
            float(part["output_tokens"].sum()) / calls,
            f"pilot {data.name}: {len(part)} model seat-games"
            + (f" of {label}" if label else " of every model"),
        )
    return usage


def bench_source() -> Source:
    """The variance bench's shipped figures (rule bots): one SD for every role."""
    raw = resources.files("harness.analysis").joinpath("data", BENCH_FILE).read_text("utf-8")
    b = json.loads(raw)
    text = (
        f"variance bench figures of rule bots (`{b['command']}`, {b['deals']} paired deals, "
        f"pair {b['pair']}): SD of the per-deal difference, raw {b['sd_raw']}, "
        f"luck-adjusted {b['sd_adjusted']}, for every role"
    )
    spreads = {
        r: Spread(r, float(b["sd_raw"]), float(b["sd_adjusted"]), 0, "bench", paired=True)
        for r in [*ROLE_ORDER, ROLE_ADJUSTED]
    }
    return Source("bench", text, spreads)


class ScheduleCounts:
    """Per player: expected seat-games of each role (and ``ROLE_ADJUSTED``: all its seats) in the
    config's schedule with ``g`` games per table.  The first ``g`` games of a table do not depend
    on ``games_per_table``, so one schedule of ``limit`` games per table answers every ``g`` up to
    it; past it, the per-game rate at ``limit`` is extrapolated."""

    def __init__(self, config: LeagueConfig, limit: int = EXACT_LIMIT) -> None:
        self.limit = limit
        self.players = [p.name for p in config.players]
        self.roles = [*ROLE_ORDER, ROLE_ADJUSTED]
        cfg = config.model_copy(update={"games_per_table": limit, "shuffle_names": False})
        pi = {p: i for i, p in enumerate(self.players)}
        ri = {r: i for i, r in enumerate(self.roles)}
        steps: dict[tuple[int, str], list[np.ndarray]] = {}
        for spec in build_schedule(cfg):
            comp = composition(spec.seats, spec.mode)
            step = np.zeros((len(self.players), len(self.roles)))
            for player in spec.lineup:
                step[pi[player], ri[ROLE_ADJUSTED]] += 1.0
                for role, k in comp.items():
                    step[pi[player], ri[role]] += k / spec.seats
            steps.setdefault((spec.seats, spec.mode), []).append(step)
        zero = np.zeros((1, len(self.players), len(self.roles)))
        cum = [np.concatenate([zero, np.cumsum(np.stack(v), axis=0)]) for v in steps.values()]
        self._cum: np.ndarray = np.sum(cum, axis=0)

    def seat_games(self, g: int, player: str) -> int:
        """``player``'s seat-games at ``g`` games per table (all its seats)."""
        i, j = self.players.index(player), self.roles.index(ROLE_ADJUSTED)
        if g <= self.limit:
            return round(float(self._cum[g, i, j]))
        return round(float(self._cum[self.limit, i, j]) * g / self.limit)

    def least(self, g: int, role: str) -> float:
        """The fewest expected seat-games of ``role`` of any player at ``g`` games per table."""
        j = self.roles.index(role)
        if g <= self.limit:
            return float(self._cum[g, :, j].min())
        return float(self._cum[self.limit, :, j].min()) * g / self.limit


def dealt_roles(config: LeagueConfig) -> list[str]:
    """The roles the config's tables deal, in rules order."""
    roles = {r for t in config.tables for n in t.seats for m in t.modes for r in composition(n, m)}
    return [r for r in ROLE_ORDER if r in roles]


def games_per_table(counts: ScheduleCounts, role: str, need: float) -> int:
    """The smallest games per table at which every player expects ``need`` seat-games of
    ``role``."""
    if need <= 0:
        return 1
    at_limit = counts.least(counts.limit, role)
    if at_limit <= 0:
        raise PlanError(f"some player of the config is never dealt the role {role}")
    if at_limit < need:
        return math.ceil(counts.limit * need / at_limit)
    lo, hi = 0, counts.limit
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if counts.least(mid, role) >= need:
            hi = mid
        else:
            lo = mid
    return hi


def table_cells(config: LeagueConfig) -> list[tuple[int, str]]:
    cells: list[tuple[int, str]] = []
    for t in config.tables:
        for n in t.seats:
            for m in t.modes:
                if (n, m) not in cells:
                    cells.append((n, m))
    return cells


def playout_decisions(config: LeagueConfig, games: int = DEFAULT_PLAYOUTS) -> float:
    """Decisions with more than one option per seat per game, over ``games`` rule-bot games of
    every table of the config (fixed seeds)."""
    from harness.analysis.playout import new_bots, play_out
    from harness.engine import Game

    total = seat_games = 0
    for i, (n, mode) in enumerate(table_cells(config)):
        for k in range(games):
            seed = PLAYOUT_SEED + 1000 * i + k
            game = Game.new(n, mode, seed)
            count = [0]

            def visit(g: Game, _k: int, count: list[int] = count) -> None:
                if g.pending is not None and len(g.pending.options) > 1:
                    count[0] += 1

            play_out(game, new_bots(game, seed), visit=visit)
            total += count[0]
            seat_games += n
    return total / seat_games


@dataclass
class PlayerCost:
    player: str
    model: str
    seat_games: int
    calls: float
    input_tokens: float | None
    cached_input_tokens: float | None
    output_tokens: float | None
    usd: float | None  # output tokens included only when they were measured
    source: str


def _model_seat_games(config: LeagueConfig, g: int, counts: ScheduleCounts) -> dict[str, int]:
    models = sorted(p.name for p in config.players if p.kind == "model")
    return {name: counts.seat_games(g, name) for name in models}


def _cost(p: PlayerConfig, u: Usage, seat_games: int) -> PlayerCost:
    calls = u.calls_per_seat_game * seat_games
    tokens = [None if x is None else x * calls for x in
              (u.input_per_call, u.cached_per_call, u.output_per_call)]  # fmt: skip
    usd = None  # without measured output tokens: the input's cost alone
    spec = p.model
    if spec is not None and tokens[0] is not None:
        usd = spec.price_book().cost(
            spec.model,
            provider=spec.provider,
            input_tokens=round(tokens[0] or 0),
            cached_input_tokens=round(tokens[1] or 0),
            output_tokens=round(tokens[2] or 0),
        )
    label = p.label or ""
    inp, cached, output = tokens
    return PlayerCost(p.name, label, seat_games, calls, inp, cached, output, usd, u.source)


def costs(
    config: LeagueConfig,
    g: int,
    source: Source,
    default_calls: float | None,
    player_usage: dict[str, Usage] | None = None,
    counts: ScheduleCounts | None = None,
) -> list[PlayerCost]:
    """Per model player of ``config``: calls, tokens and dollars of ``g`` games per table (usage
    from the pilot, else ``player_usage``, else decisions counted on rule-bot playouts; seat-games
    from ``counts``, built when not given)."""
    out = []
    counts = counts if counts is not None else ScheduleCounts(config)
    for name, seat_games in _model_seat_games(config, g, counts).items():
        p = config.player(name)
        u = source.usage.get(p.label or "") or source.usage.get("")
        u = u or (player_usage or {}).get(name)
        if u is None:
            calls = default_calls if default_calls is not None else playout_decisions(config)
            u = Usage(
                calls,
                source=f"{calls:.1f} decisions with a choice per seat per game on rule-bot "
                f"playouts ({DEFAULT_PLAYOUTS} per table), 1 call each; tokens not estimated",
            )
        out.append(_cost(p, u, seat_games))
    return out


@dataclass
class RoleRow:
    role: str
    sd_raw: float
    sd_adjusted: float
    pilot_seat_games: int
    per_player_raw: int
    per_player_adjusted: int
    games_raw: int  # games of the whole schedule
    games_adjusted: int
    note: str
    paired: bool = False  # the SDs are of a per-deal difference (paired formula)


@dataclass
class Plan:
    config: str
    detect: float
    alpha: float
    power: float
    source: str
    source_text: str
    paired_formula: bool
    cells: int
    players: list[str]
    roles: list[RoleRow]
    games_raw: int  # every dealt role to the detectable difference
    games_adjusted: int
    games_per_table_raw: int
    games_per_table_adjusted: int
    costs_raw: list[PlayerCost]
    costs_adjusted: list[PlayerCost]
    notes: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"command": "plan", **asdict(self)}


def make_plan(
    config: LeagueConfig,
    detect: float,
    alpha: float,
    power: float,
    source: Source,
    config_name: str = "",
    default_calls: float | None = None,
    player_usage: dict[str, Usage] | None = None,
) -> Plan:
    """The plan for ``config`` (see the module docstring)."""
    cells = len(table_cells(config))
    counts = ScheduleCounts(config)
    rows: list[RoleRow] = []
    per_table: dict[tuple[str, bool], int] = {}
    for role in [*dealt_roles(config), ROLE_ADJUSTED]:
        s = source.spreads.get(role) or source.spreads[ROLE_ADJUSTED]
        if any(math.isnan(x) for x in (s.sd_raw, s.sd_adjusted)):
            raise PlanError(f"the {source.text} has too few seat-games to measure a spread")
        need_raw = s.needed(detect, alpha, power, adjusted=False)
        need_adj = s.needed(detect, alpha, power, adjusted=True)
        g_raw = games_per_table(counts, role, need_raw)
        g_adj = games_per_table(counts, role, need_adj)
        per_table[(role, False)], per_table[(role, True)] = g_raw, g_adj
        rows.append(
            RoleRow(
                role,
                round(s.sd_raw, 4),
                round(s.sd_adjusted, 4),
                s.seat_games,
                math.ceil(need_raw),
                math.ceil(need_adj),
                g_raw * cells,
                g_adj * cells,
                s.note,
                s.paired,
            )  # fmt: skip
        )
    roles = [r.role for r in rows if r.role != ROLE_ADJUSTED]
    g_raw = max(per_table[(r, False)] for r in roles)
    g_adj = max(per_table[(r, True)] for r in roles)
    models = [p for p in config.players if p.kind == "model"]
    if default_calls is None and any(
        (p.label or "") not in source.usage
        and "" not in source.usage
        and p.name not in (player_usage or {})
        for p in models
    ):
        default_calls = playout_decisions(config)
    notes = []
    if source.kind == "bench" and not config.paired:
        notes.append(
            "the bench's figures are of paired deals and this config is not paired: a pilot "
            "run (--from) measures its own spread"
        )
    if source.kind == "bench":
        notes.append(
            "bot figures of one seat per deal: a model's spread, and the correlation of a "
            "player's seats within a deal, may differ; a pilot run measures them"
        )
    if source.pilot_paired is False and config.paired:
        notes.append(
            "the pilot played each deal once and this config is paired: its spread is "
            "conservative here (pairing only lowers the spread of a difference)"
        )
    if source.pilot_paired and not config.paired:
        notes.append(
            "the pilot replayed its deals and this config does not: pairing lowered the pilot's "
            "spread, so these games may fall short of the power; a pilot of this config measures it"
        )
    return Plan(
        config=config_name or config.name,
        detect=detect,
        alpha=alpha,
        power=power,
        source=source.kind,
        source_text=source.text,
        paired_formula=all(r.paired for r in rows),
        cells=cells,
        players=[p.name for p in config.players],
        roles=rows,
        games_raw=g_raw * cells,
        games_adjusted=g_adj * cells,
        games_per_table_raw=g_raw,
        games_per_table_adjusted=g_adj,
        costs_raw=costs(config, g_raw, source, default_calls, player_usage, counts),
        costs_adjusted=costs(config, g_adj, source, default_calls, player_usage, counts),
        notes=notes,
    )
