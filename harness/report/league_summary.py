"""League summary for the HTML report, from ``games.jsonl`` alone, in pure Python (no pandas).

* win rate per player × role (every seat of every game is one result for its role, so a player
  sitting at two seats of a game counts twice), with its 95 % Wilson interval clustered by deal
  (:func:`harness.league.stats_basic.clustered_wilson`, the league report's interval; ``None``
  with one deal); void games (ended without a result) are excluded from every win rate and
  counted apart;
* per player: seat-games, decisions, fallbacks by reason and per decision, invalid model answers
  per model call, tokens (cached input tokens too), cost per seat-game and per decision, latency
  per decision (a model player's over the decisions it answered itself); for model players (given the run folder) the counts per *model decision* — one
  with more than one option — and per call, call latency median / p95 and the history policy
  (:mod:`harness.league.model_calls`);
* per table (seats × mode): games and wins of each side;
* the run's flags (:mod:`harness.runs.flags`): a flagged player's win rates are not valid.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from harness.play.players import SEATED_KINDS
from harness.records import GameRecord, RunStore
from harness.records.deals import deal_of
from harness.runs import (
    DEFAULT_HISTORY,
    ModelCounts,
    RunFlags,
    clustered_wilson,
    count_model_calls,
    game_void,
    history_policies,
    run_config,
    run_flags,
    wilson,
)

__all__ = [
    "ROLE_ORDER",
    "PlayerRates",
    "RoleRate",
    "Summary",
    "TableSides",
    "summarize",
    "wilson",
]

ROLE_ORDER: tuple[str, ...] = ("marshal", "deputy", "raider", "loner", "double_agent")
FALLBACK_REASONS: tuple[str, ...] = (
    "timeout", "error", "invalid_answer", "truncated", "context_overflow",
)  # fmt: skip


Interval = tuple[float, float] | None  # a 95 % interval; None: none (one deal)


def _interval(results: Sequence[tuple[bool, str]]) -> Interval:
    """The deal-clustered 95 % Wilson interval of ``(won, deal)`` results."""
    if not results:
        return None
    return clustered_wilson([float(w) for w, _ in results], [d for _, d in results])


@dataclass(frozen=True)
class RoleRate:
    player: str
    role: str
    games: int  # seat-games
    wins: int
    interval: Interval = None  # clustered by deal; None with one deal

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass
class PlayerRates:
    player: str
    kind: str
    model: str | None
    games: int = 0  # seat-games, void games included
    wins: int = 0
    void_games: int = 0  # seat-games in void games: no result
    decisions: int = 0
    fallbacks: Counter[str] = field(default_factory=Counter)
    invalid_answers: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    cached_input_tokens: int | None = None  # over the seats that reported them; None: none did
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float = 0.0
    latency_s: float = 0.0
    history: str | None = None  # a model player's history policy
    counts: ModelCounts | None = None  # model decisions and calls, from the game files
    flag: str | None = None  # why this player's win rates are not valid
    interval: Interval = None  # of the win rate, clustered by deal; None with one deal

    @property
    def valid(self) -> bool:
        return self.flag is None

    @property
    def rated_games(self) -> int:
        """Seat-games with a result (void games excluded)."""
        return self.games - self.void_games

    @property
    def win_rate(self) -> float:
        return self.wins / self.rated_games if self.rated_games else 0.0

    @property
    def fallback_total(self) -> int:
        return sum(self.fallbacks.values())

    @property
    def model_decisions(self) -> int | None:
        """A model player's decisions with more than one option (what its fallback rate is over);
        ``None`` for other players or when the game files were not read."""
        c = self.counts
        return c.decisions if c is not None and c.games_read else None

    @property
    def single_option(self) -> int:
        """A model player's decisions with a single option, taken without a model call."""
        c = self.counts
        return c.single_option if c is not None and c.games_read else 0

    @property
    def fallback_rate(self) -> float:
        """Fallbacks per model decision for model players, else per decision."""
        c = self.counts
        if c is not None and c.games_read:
            return c.fallback_per_decision or 0.0
        return self.fallback_total / self.decisions if self.decisions else 0.0

    @property
    def invalid_rate(self) -> float:
        """Invalid answers per model call."""
        return self.invalid_answers / self.model_calls if self.model_calls else 0.0

    @property
    def truncated_rate(self) -> float | None:
        """Answers cut by the token limit per model call (never counted as invalid)."""
        c = self.counts
        return c.truncated_per_call if c is not None and c.games_read else None

    @property
    def cached_tokens(self) -> int | None:
        """Cached input tokens of the calls that reported them; ``None``: not reported."""
        c = self.counts
        if c is not None and c.games_read:
            return c.cached_tokens
        return self.cached_input_tokens

    @property
    def cost_per_game(self) -> float:
        return self.cost_usd / self.games if self.games else 0.0

    @property
    def cost_per_decision(self) -> float:
        return self.cost_usd / self.decisions if self.decisions else 0.0

    @property
    def latency_per_decision(self) -> float:
        """Seconds per decision; a model player's over the model decisions it answered itself
        (a fallback after an instant connection error is no answer)."""
        c = self.counts
        if c is not None and c.games_read:
            return c.mean_decision_latency or 0.0
        return self.latency_s / self.decisions if self.decisions else 0.0


@dataclass
class TableSides:
    seats: int
    mode: str
    games: int = 0
    sides: Counter[str] = field(default_factory=Counter)
    rounds: int = 0
    decisions: int = 0
    void: int = 0  # void games (in ``games``, not in ``sides``)


@dataclass
class Summary:
    run: str
    games: int
    decisions: int
    fallbacks: int
    cost_usd: float
    input_tokens: int
    output_tokens: int
    duration_s: float
    players: list[PlayerRates]
    role_rates: list[RoleRate]
    tables: list[TableSides]
    roles: list[str]
    config: dict[str, Any] | None = None
    void_games: int = 0
    flags: RunFlags = field(default_factory=RunFlags)

    @property
    def has_models(self) -> bool:
        return any(p.kind in SEATED_KINDS for p in self.players)


def _role_key(role: str) -> tuple[int, str]:
    return (ROLE_ORDER.index(role) if role in ROLE_ORDER else len(ROLE_ORDER), role)


def _config_players(config: dict[str, Any] | None) -> list[str]:
    if not config:
        return []
    return [str(p.get("name")) for p in config.get("players", []) if isinstance(p, dict)]


def load_config(run_dir: Path) -> dict[str, Any] | None:
    """The run's resolved ``config.json``, or ``None`` when missing or unreadable."""
    return run_config(run_dir)


def summarize(
    run: str,
    games: Sequence[GameRecord] | Iterable[GameRecord],
    config: dict[str, Any] | None,
    run_dir: str | Path | None = None,
) -> Summary:
    """Every figure of the report's summary, computed from the game records (and, given
    ``run_dir``, the model decisions and calls of its game files)."""
    games = list(games)
    counts = count_model_calls(run_dir, games) if run_dir is not None else {}
    copies = RunStore(Path(run_dir)).copies() if run_dir is not None else []
    flags = run_flags(games, counts, config, copies)  # copies: left out of ``games``, one note
    history = history_policies(config, counts)
    players: dict[str, PlayerRates] = {}
    for name in _config_players(config):
        spec = next(p for p in config["players"] if p.get("name") == name)  # type: ignore[index]
        model = spec.get("model")
        label = f"{model.get('provider')}/{model.get('model')}" if isinstance(model, dict) else None
        players[name] = PlayerRates(name, str(spec.get("kind", "?")), label)
    cells: dict[tuple[str, str], list[tuple[bool, str]]] = defaultdict(list)
    results: dict[str, list[tuple[bool, str]]] = defaultdict(list)  # per player
    tables: dict[tuple[int, str], TableSides] = {}
    for g in games:
        void = game_void(g) is not None
        t = tables.setdefault((g.seats, g.mode), TableSides(g.seats, g.mode))
        t.games += 1
        if void:
            t.void += 1
        else:
            t.sides[g.winning_side] += 1
        t.rounds += g.rounds
        t.decisions += g.decisions
        for o in g.seat_outcomes:
            p = players.get(o.player)
            if p is None:
                p = players[o.player] = PlayerRates(o.player, o.kind, o.model)
            if p.model is None and o.model:
                p.model = o.model
            p.games += 1
            if void:  # no result: counted, never rated
                p.void_games += 1
            else:
                p.wins += int(o.won)
            p.decisions += o.decisions
            p.fallbacks.update(o.fallbacks)
            p.invalid_answers += o.invalid_answers
            p.model_calls += o.model_calls
            p.input_tokens += o.input_tokens
            if o.cached_input_tokens is not None:
                p.cached_input_tokens = (p.cached_input_tokens or 0) + o.cached_input_tokens
            p.output_tokens += o.output_tokens
            p.reasoning_tokens += o.reasoning_tokens
            p.cost_usd += o.cost_usd
            p.latency_s += o.latency_s
            if void:
                continue
            cells[(o.player, o.role)].append((bool(o.won), deal_of(g)))
            results[o.player].append((bool(o.won), deal_of(g)))
    for p in players.values():
        if p.kind == "model":
            p.history = history.get(p.player, DEFAULT_HISTORY)
        if p.kind in SEATED_KINDS:
            p.counts = counts.get(p.player)
        flag = flags.player_flag(p.player)
        p.flag = flag.message if flag is not None else None
        p.interval = _interval(results[p.player])
    roles = sorted({role for _, role in cells}, key=_role_key)
    order = {name: i for i, name in enumerate(players)}
    role_rates = [
        RoleRate(player, role, len(cell), sum(w for w, _ in cell), _interval(cell))
        for (player, role), cell in sorted(
            cells.items(), key=lambda kv: (_role_key(kv[0][1]), order[kv[0][0]])
        )
    ]
    return Summary(
        run=run,
        games=len(games),
        decisions=sum(g.decisions for g in games),
        fallbacks=sum(g.fallbacks for g in games),
        cost_usd=sum(g.cost_usd for g in games),
        input_tokens=sum(g.input_tokens for g in games),
        output_tokens=sum(g.output_tokens for g in games),
        duration_s=sum(g.duration_s for g in games),
        players=[p for p in players.values() if p.games],
        role_rates=role_rates,
        tables=sorted(tables.values(), key=lambda t: (t.seats, t.mode)),
        roles=roles,
        config=config,
        void_games=flags.void_games,
        flags=flags,
    )
