"""Move analysis of every finished game of a run, stored beside the run.

``<run>/analysis/moves.jsonl`` holds one :class:`MovesLine` per game (appended and flushed, so a
stopped analysis resumes); a stored line counts only for the same :class:`MoveSettings` (value
model and its data, worlds and most worlds, which seat kinds) — a rerun with other settings
computes again.  Schema 3 stores, per analysed decision, each value's standard error, the loss's
standard error, the worlds drawn (adaptive precision, :func:`.moves.analyse`) and, in newer
lines, the standard error of the paired difference best − option for every option; schema 2 lines
(no standard errors) are still read and reported, but a rerun computes them again.

Which decisions: every decision with more than one option that a seat whose kind is in ``kinds``
(default: models, people, external agents and random seats; add ``bot`` for rule bots) made
itself.  Only a player's own choices are scored as its own: a fallback (the R-5 move after a
timeout, an error or an invalid answer, of any kind), an autopilot's move
(:func:`.known_policies.known_policies`) and a forced decision (one option) are not analysed but
counted per seat in :attr:`MovesLine.left_out`, so reports list them apart.  Each decision's
analysis has its own generator fixed by (game id, decision index), so the results do not depend
on the number of workers or on the executor.  Lines of an earlier schema (which analysed
fallbacks as the player's choices) are computed again and never reported.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from harness.engine import EngineError, Game
from harness.records.notices import notice
from harness.records.record_models import DecisionLine
from harness.records.run_folder import finished_games, open_run_folder
from harness.records.store import DamagedGame, latest_by_game, open_for_appending

from .known_policies import known_policies, table_fallback
from .moves import (
    DEFAULT_MAX_WORLDS,
    DEFAULT_VALUE,
    DEFAULT_WORLDS,
    Label,
    accuracy,
    analyse,
    classify,
    decision_rng,
    make_valuer,
)

MOVES_DIR = "analysis"
MOVES_FILE = "moves.jsonl"
SCHEMA = 3  # 3: standard errors and worlds drawn per decision (adaptive precision)
READABLE = (2, 3)  # 2: fallbacks, autopilot and forced decisions left out and counted per seat
SEAT_KINDS = ("model", "human", "agent", "remote", "mcp", "random", "bot")
DEFAULT_KINDS = ("model", "human", "agent", "remote", "mcp", "random")
Executor = Literal["local", "ray"]


class MoveSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    value: str  # rollout | fitted
    model: str  # the value model's data hash (fitted) or its name
    worlds: int  # worlds drawn for every decision
    max_worlds: int | None = None  # most worlds, where the best two are not separated (schema 3)
    stream: str = ""  # the seed stream of the decisions' generators ("": the default's)
    kinds: list[str]  # seat kinds analysed, sorted


class MoveLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    index: int  # the decision's index in the game record (1-based)
    seat: int
    player: str
    role: str
    kind: str  # the decision kind
    options: list[str]
    values: list[float]  # P(the seat's side wins) after each option, from its information
    chosen: str
    best: str
    loss: float  # best value − chosen value
    label: Label | None  # inaccuracy | mistake | blunder
    accuracy: float  # 0–100
    ses: list[float] | None = None  # standard error of each value (schema 3)
    loss_se: float | None = None  # standard error of the paired difference best − chosen
    worlds: int | None = None  # worlds drawn for this decision
    gap_ses: list[float] | None = None  # standard error of the paired difference best − each option


class LeftOut(BaseModel):
    """The decisions of one analysed seat that were not its own choice: not analysed, counted."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    player: str
    role: str
    fallback: int = 0  # fallback moves (R-5 after a timeout, an error or an invalid answer)
    autopilot: int = 0  # moves of the seat's autopilot rule bot
    forced: int = 0  # decisions with one option


class MovesLine(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = SCHEMA
    game_id: str
    settings: MoveSettings
    decisions: list[MoveLine]
    left_out: list[LeftOut] = []  # per analysed seat with a decision that was not its own


def left_out_kind(index: int, decision: DecisionLine, autopilot: set[int]) -> str | None:
    """Why the ``index``-th (0-based) decision is not its seat's own choice: ``forced`` (one
    option), ``autopilot`` (a rule bot decided for the seat: ``autopilot`` holds those
    indices), ``fallback`` (any other fallback move); ``None`` for the seat's own choice."""
    if len(decision.options) < 2:
        return "forced"
    own_fallback = (decision.model or {}).get("fallback")
    if decision.fallback is None and own_fallback is None:
        return None
    return "autopilot" if index in autopilot else "fallback"


def settings_for(
    value: str = DEFAULT_VALUE,
    worlds: int = DEFAULT_WORLDS,
    kinds: Iterable[str] = DEFAULT_KINDS,
    max_worlds: int | None = DEFAULT_MAX_WORLDS,
    stream: str = "",
) -> MoveSettings:
    """The settings of an analysis (``max_worlds`` below ``worlds``, or None: ``worlds``, no
    adaptation); raises ``ValueError`` on an unknown value model or kind."""
    kinds = sorted(set(kinds))
    bad = [k for k in kinds if k not in SEAT_KINDS]
    if bad:
        raise ValueError(f"unknown seat kind {bad[0]!r} (one of {', '.join(SEAT_KINDS)})")
    if not kinds:
        raise ValueError("no seat kind to analyse")
    if worlds < 1:
        raise ValueError("worlds must be at least 1")
    valuer = make_valuer(value)
    most = worlds if max_worlds is None else max(worlds, max_worlds)
    return MoveSettings(
        value=value, model=valuer.digest, worlds=worlds, max_worlds=most, kinds=kinds,
        stream=stream,
    )  # fmt: skip


def analyse_game(run_dir: str, game_id: str, settings: MoveSettings) -> MovesLine:
    """The analysis of one finished game of ``run_dir`` (replayed through the engine)."""
    store = open_run_folder(run_dir)
    start, decisions, _end = store.read_game(game_id)
    kinds = {p.seat: p.kind for p in start.seating}
    valuer = make_valuer(settings.value)
    game = Game.new(start.seats, start.mode, start.seed)
    autopilot = set(known_policies(start, decisions, table_fallback(run_dir)).autopilot)
    out: list[MoveLine] = []
    left: dict[int, LeftOut] = {}
    for i, d in enumerate(decisions):
        pending = game.pending
        if pending is None or d.chosen not in pending.option_ids:
            raise ValueError(f"{game_id}: decision {d.index} does not replay")
        analysed = kinds.get(pending.seat) in settings.kinds
        why = left_out_kind(i, d, autopilot) if analysed else None
        if why is not None:
            seat = left.setdefault(d.seat, LeftOut(seat=d.seat, player=d.player, role=d.role))
            setattr(seat, why, getattr(seat, why) + 1)
        elif analysed:
            rng = decision_rng(game_id, d.index, settings.stream)
            try:
                r = analyse(game, d.chosen, valuer, settings.worlds, rng, settings.max_worlds)
            except (EngineError, RuntimeError) as e:
                raise ValueError(f"{game_id}: decision {d.index}: {e}") from None
            values = [round(v, 6) for v in r.values]
            loss = round(max(values) - values[r.options.index(d.chosen)], 6)
            loss_se = round(r.loss_se, 6)
            out.append(
                MoveLine(
                    index=d.index, seat=d.seat, player=d.player, role=d.role,
                    kind=d.decision_kind, options=list(r.options),
                    values=values, chosen=d.chosen, best=r.best,
                    loss=loss, label=classify(loss, loss_se), accuracy=round(accuracy(loss), 3),
                    ses=[round(e, 6) for e in r.ses], loss_se=loss_se, worlds=r.worlds,
                    gap_ses=[round(e, 6) for e in r.gap_ses],
                )
            )  # fmt: skip
        game.apply(d.chosen)
    return MovesLine(
        game_id=game_id, settings=settings, decisions=out,
        left_out=[left[s] for s in sorted(left)],
    )  # fmt: skip


def _task(args: tuple[str, str, str]) -> tuple[str | None, str | None]:
    """A game's analysis as JSON text, or (None, why) for a game whose file is damaged."""
    run_dir, game_id, settings = args
    try:
        line = analyse_game(run_dir, game_id, MoveSettings.model_validate_json(settings))
    except DamagedGame as e:
        return None, f"{e}; game {game_id} not analysed"
    return line.model_dump_json(), None


def read_moves(run_dir: str | Path) -> dict[str, MovesLine]:
    """Every stored game analysis of ``run_dir`` (the last line of a game wins; torn lines are
    skipped)."""
    return latest_by_game(Path(run_dir) / MOVES_DIR / MOVES_FILE, MovesLine)


def _results(
    run_dir: str, todo: Sequence[str], settings: MoveSettings, workers: int, executor: Executor
) -> Iterator[tuple[str | None, str | None]]:
    args = [(run_dir, gid, settings.model_dump_json()) for gid in todo]
    if executor == "ray":
        yield from _ray_results(args, workers)
    elif workers <= 1 or len(args) <= 1:
        yield from map(_task, args)
    else:
        pool = ProcessPoolExecutor(max_workers=workers)
        try:
            yield from pool.map(_task, args)
        finally:  # a failed or stopped analysis does not wait for the games not started
            pool.shutdown(wait=True, cancel_futures=True)


def _ray_results(
    args: list[tuple[str, str, str]], workers: int
) -> Iterator[tuple[str | None, str | None]]:
    try:
        import ray
    except ImportError:
        raise ValueError(
            "the Ray executor needs the ray extra: pip install 'bangarena[ray]'"
        ) from None
    started = not ray.is_initialized()
    if started:
        # a Ray instance of its own: never a cluster already running on the machine (which
        # refuses num_cpus)
        ray.init(address="local", num_cpus=max(1, workers), include_dashboard=False,
                 log_to_driver=False,
                 _node_ip_address="127.0.0.1")  # fmt: skip
    try:
        task = ray.remote(_task)
        refs = [task.remote(a) for a in args]
        for ref in refs:
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def run_moves(
    run_dir: str | Path,
    settings: MoveSettings | None = None,
    workers: int = 1,
    executor: Executor = "local",
    on_game: Callable[[MovesLine], None] | None = None,
) -> dict[str, MovesLine]:
    """Analyse every finished game with a result of ``run_dir`` not stored yet with ``settings``
    and return every game's analysis (stored or new)."""
    settings = settings if settings is not None else settings_for()
    store = open_run_folder(run_dir)
    games = [g.game_id for g in finished_games(store) if g.void is None]
    path = Path(run_dir) / MOVES_DIR / MOVES_FILE
    stored = {
        gid: r
        for gid, r in read_moves(run_dir).items()
        if r.settings == settings and r.schema_version == SCHEMA
    }
    todo = [gid for gid in games if gid not in stored]
    out = {gid: stored[gid] for gid in games if gid in stored}
    if not todo:
        return out
    with open_for_appending(path) as fh:
        for text, damage in _results(str(run_dir), todo, settings, workers, executor):
            if text is None:  # a damaged game: reported, the rest analysed
                notice(str(damage))
                continue
            rec = MovesLine.model_validate_json(text)
            fh.write(text + "\n")
            fh.flush()
            out[rec.game_id] = rec
            if on_game is not None:
                on_game(rec)
    return {gid: out[gid] for gid in games if gid in out}


def stored_moves(run_dir: str | Path) -> dict[str, MovesLine]:
    """The stored analyses of ``run_dir``'s finished games, newest settings per game (schema 2
    and 3; lines of schema 1, which scored fallbacks as the player's, are left out)."""
    store = open_run_folder(run_dir)
    games = {g.game_id for g in finished_games(store) if g.void is None}
    return {
        gid: r
        for gid, r in read_moves(run_dir).items()
        if gid in games and r.schema_version in READABLE
    }


__all__: list[Any] = [
    "MOVES_DIR", "MOVES_FILE", "LeftOut", "MoveLine", "MoveSettings", "MovesLine", "analyse_game",
    "read_moves", "run_moves", "settings_for", "stored_moves",
]  # fmt: skip
