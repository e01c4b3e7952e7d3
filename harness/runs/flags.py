"""Run checks: measurements that must not be read as results.

:func:`run_flags` computes a run's flags from its records alone:

* ``fallbacks`` — a model player whose share of model decisions (more than one option) that fell
  back exceeds the config's ``max_fallback_rate`` (default 5 %): its win rates are not valid;
  the flag names the fallback reasons and their causes (``error 35 (connection_error 35)``);
* ``void_games`` — void games (ended without a result, recorded with ``void: <reason>``) make up
  more than ``max_void_share`` of the finished games (default 5 %); void games are always excluded
  from win rates and counted in every report;
* ``unfinished_blocks`` — with paired play, a deal of which only some rotations finished (void
  rotations do not count): every player should have played every seat of the deal, so the role
  balance of the results is broken.

A flagged run makes ``league run`` and ``league report`` exit with code 3.  The messages are one
line each, rendered from ``prompts/report/flags.txt.j2``.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.league.league_config import SEATED_KINDS
from harness.league.model_calls import ModelCounts, count_model_calls
from harness.paths import PROMPTS_DIR
from harness.records import GameRecord, RunStore
from harness.records.copies import Copy, copies_note

__all__ = [
    "EXIT_FLAGGED",
    "Flag",
    "RunFlags",
    "check_run",
    "game_void",
    "run_config",
    "run_flags",
    "thresholds",
]

EXIT_FLAGGED = 3
DEFAULT_MAX_FALLBACK_RATE = 0.05
DEFAULT_MAX_VOID_SHARE = 0.05
EXAMPLES = 3  # unfinished deals named in the message

FlagKind = Literal["fallbacks", "void_games", "unfinished_blocks"]


@dataclass(frozen=True)
class Flag:
    """One reason not to read the run (or one player's figures) as results."""

    kind: FlagKind
    message: str  # one line
    player: str | None = None  # set for per-player flags: that player's win rates are not valid
    # the figures the message was rendered from (the HTML report words them in its language)
    values: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass
class RunFlags:
    """The flags of a run, with the thresholds used and the void-game count."""

    flags: list[Flag] = field(default_factory=list)
    max_fallback_rate: float = DEFAULT_MAX_FALLBACK_RATE
    max_void_share: float = DEFAULT_MAX_VOID_SHARE
    games: int = 0
    void_games: int = 0
    notes: list[str] = field(default_factory=list)  # worth saying, not a flag
    copies: int = 0  # games left out as copies of another game (harness.records.copies)

    def __bool__(self) -> bool:
        return bool(self.flags)

    @property
    def flagged_players(self) -> set[str]:
        return {f.player for f in self.flags if f.player is not None}

    def player_flag(self, player: str) -> Flag | None:
        return next((f for f in self.flags if f.player == player), None)

    @property
    def exit_code(self) -> int:
        return EXIT_FLAGGED if self.flags else 0


@lru_cache(maxsize=1)
def _messages() -> Any:
    env = Environment(
        loader=FileSystemLoader(PROMPTS_DIR / "report"),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain text; the HTML template escapes what it shows
    )
    return env.get_template("flags.txt.j2").module


def _line(text: Any) -> str:
    return " ".join(str(text).split())


def run_config(run_dir: str | Path) -> dict[str, Any] | None:
    """The run's resolved ``config.json``, or ``None`` when missing or unreadable (not an
    object, or its ``players`` not a list of objects)."""
    try:
        data = json.loads((Path(run_dir) / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    players = data.get("players", [])
    if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
        return None
    return data


def thresholds(config: Mapping[str, Any] | None) -> tuple[float, float]:
    """``(max_fallback_rate, max_void_share)`` from a run's config (defaults when absent)."""
    cfg = config or {}

    def value(key: str, default: float) -> float:
        v = cfg.get(key)
        return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else default

    return (
        value("max_fallback_rate", DEFAULT_MAX_FALLBACK_RATE),
        value("max_void_share", DEFAULT_MAX_VOID_SHARE),
    )


def game_void(game: Any) -> str | None:
    """The void reason of a game record (``None`` for a game with a result)."""
    reason = getattr(game, "void", None)
    return str(reason) if reason else None


# ---------------------------------------------------------------------------------- checks


def _seat_fallbacks(games: Sequence[GameRecord]) -> dict[str, tuple[str | None, int, Counter[str]]]:
    """Per model player from the seat outcomes alone: (model, decisions, fallbacks by reason)."""
    out: dict[str, tuple[str | None, int, Counter[str]]] = {}
    for g in games:
        for o in g.seat_outcomes:
            if o.kind not in SEATED_KINDS:
                continue
            model, n, reasons = out.get(o.player, (o.model, 0, Counter()))
            reasons.update(o.fallbacks)
            out[o.player] = (model, n + o.decisions, reasons)
    return out


def fallback_flags(
    games: Sequence[GameRecord], counts: Mapping[str, ModelCounts], limit: float
) -> list[Flag]:
    """Model players whose fallback share of model decisions exceeds ``limit``.

    Counts come from the game files (:mod:`harness.league.model_calls`); a player whose game files could not
    be read is judged on its seat outcomes (fallbacks over all its decisions)."""
    flags = []
    seat_level = _seat_fallbacks(games)
    for player in sorted(set(seat_level) | set(counts)):
        c = counts.get(player)
        if c is not None and c.games_read:
            model, decisions, fell, reasons = (
                c.model,
                c.decisions,
                c.fallback_total,
                c.reasons_text(),
            )
        else:
            model, decisions, by_reason = seat_level[player]
            fell = sum(by_reason.values())
            reasons = ", ".join(f"{r} {k}" for r, k in by_reason.most_common())
        if not decisions or fell / decisions <= limit:
            continue
        text = _messages().fallbacks(player, model, fell / decisions, decisions, limit, reasons)
        values = {"player": player, "model": model, "rate": fell / decisions}
        values |= {"decisions": decisions, "limit": limit, "reasons": reasons}
        flags.append(Flag("fallbacks", _line(text), player, values))
    return flags


def void_flag(games: Sequence[GameRecord], limit: float) -> tuple[Flag | None, str | None]:
    """The flag when void games pass ``limit`` of the games, else a note when there are any."""
    reasons = Counter(r for g in games if (r := game_void(g)) is not None)
    void = sum(reasons.values())
    if not void:
        return None, None
    if void / len(games) > limit:
        text = ", ".join(f"{r} ({k})" for r, k in reasons.most_common(3))
        msg = _messages().void_games(void, len(games), void / len(games), limit, text)
        values = {"void": void, "games": len(games), "share": void / len(games), "limit": limit}
        return Flag("void_games", _line(msg), values=values | {"reasons": text}), None
    return None, _line(_messages().void_note(void, len(games)))


def block_flags(games: Sequence[GameRecord], config: Mapping[str, Any] | None) -> list[Flag]:
    """Paired deals of which only some scheduled rotations finished with a result."""
    if not config or not config.get("paired", True):
        return []
    from harness.league.league_config import ConfigError, parse_config
    from harness.league.schedule import build_schedule

    try:
        schedule = build_schedule(parse_config(dict(config)))
    except (ConfigError, ValueError, TypeError):
        return []
    scheduled: dict[tuple[int, str, int], set[str]] = defaultdict(set)
    for spec in schedule:
        scheduled[(spec.seats, spec.mode, spec.deal)].add(spec.game_id)
    done = {g.game_id for g in games if game_void(g) is None}
    broken = []
    for (seats, mode, deal), ids in scheduled.items():
        k = len(ids & done)
        if 0 < k < len(ids):
            broken.append(f"{seats}p {mode} deal {deal}: {k} of {len(ids)} rotations")
    if not broken:
        return []
    more = len(broken) - EXAMPLES if len(broken) > EXAMPLES else 0
    msg = _messages().unfinished_blocks(len(broken), "; ".join(broken[:EXAMPLES]), more)
    return [Flag("unfinished_blocks", _line(msg), values={"deals": len(broken)})]


def run_flags(
    games: Iterable[GameRecord],
    counts: Mapping[str, ModelCounts],
    config: Mapping[str, Any] | None,
    copies: Sequence[Copy] = (),
) -> RunFlags:
    """Every flag of a run from its finished games (void ones included, each copy counted
    once), the model counts of :func:`~harness.league.model_calls.count_model_calls`, its
    ``config.json`` and the ``copies`` left out (their note last)."""
    games = list(games)
    max_fallback, max_void = thresholds(config)
    out = RunFlags(max_fallback_rate=max_fallback, max_void_share=max_void, games=len(games))
    out.void_games = sum(1 for g in games if game_void(g) is not None)
    out.flags += fallback_flags(games, counts, max_fallback)
    if games:
        flag, note = void_flag(games, max_void)
        if flag is not None:
            out.flags.append(flag)
        if note is not None:
            out.notes.append(note)
    out.flags += block_flags(games, config)
    out.copies = len(copies)
    if (note := copies_note(copies, len(games))) is not None:
        out.notes.append(note)
    return out


def check_run(run_dir: str | Path) -> RunFlags:
    """The flags of the run in ``run_dir`` from its files (no finished game: no flag)."""
    read = RunStore(Path(run_dir)).distinct()
    counts = count_model_calls(run_dir, read.games)
    return run_flags(read.games, counts, run_config(run_dir), read.copies)
