"""The game of one Inspect sample: the sample's seat (Inspect's model through the harness's model
seat, or a solver through the ``choose`` tool) against rule bots, recorded by the one game recorder
(:class:`~harness.play.recorder.GameRecorder`) as a league game of the run ``inspect`` when the task
has a ``run_dir`` (``games.jsonl``, ``games/<id>.jsonl``, a ``config.json`` that ``league report``
reads), and its seat's decisions counted as ``league report`` counts them."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Literal

from inspect_ai.solver import TaskState

from harness.agents.rulebot import RuleBot
from harness.agents.table import Table, TableResult
from harness.engine import Game
from harness.integrations.inspect_counts import counts_json
from harness.play.recorder import GameIdent, GameRecorder, LineSink
from harness.records import DecisionLine, RunStore
from harness.records.record_models import SeatPlayer
from harness.runs import ModelCounts
from harness.views.names import default_names

__all__ = [
    "BOT_PLAYER",
    "RUN_NAME",
    "counted",
    "outcome_line",
    "sample_result",
    "sample_table",
    "start_run_folder",
    "write_game",
]

BOT_PLAYER = "rulebot"  # the league player of the rule-bot seats in a written run folder
RUN_NAME = "inspect"


def sample_table(
    state: TaskState,
    agent: Any,
    player: str,
    history: str | None,
    decision_seconds: float,
    max_fallbacks: int,
    kind: Literal["model", "inspect"],
) -> tuple[GameRecorder, ModelCounts, Table]:
    """The sample's game: ``agent`` (``player``, of ``kind``: ``model``, the harness's model
    seat, or ``inspect``, a solver) at the sample's seat, rule bots elsewhere.  Returns its
    recorder (the game as a league game: run ``inspect``, its decisions as league decision
    lines), the seat's counts (as league report counts a game's file) and the table."""
    meta = state.metadata
    n, seat, game_seed = meta["seats"], meta["seat"], meta["seed"]
    names = default_names(n)
    agents = [agent if i == seat else RuleBot(names[i], seed=game_seed) for i in range(n)]
    game = Game.new(n, meta["mode"], game_seed)
    game_id = str(state.sample_id) + (f"-epoch-{state.epoch}" if state.epoch > 1 else "")
    seating = [
        SeatPlayer(seat=i, player=player, kind=kind, model=player, name=names[i], history=history)
        if i == seat
        else SeatPlayer(seat=i, player=BOT_PLAYER, kind="bot", model=None, name=names[i])
        for i in range(n)
    ]
    ident = GameIdent(RUN_NAME, game_id, game_seed, n, meta["mode"], meta["deal"])
    recorder = GameRecorder(ident, seating, game)
    table = Table(
        game, agents, game_id=game_id, timeout=decision_seconds, max_model_fallbacks=max_fallbacks
    )
    return recorder, ModelCounts(player, player, history), table


def counted(counts: ModelCounts, seat: int) -> LineSink:
    """Count the decision lines of ``seat`` in ``counts``."""

    def add(line: DecisionLine) -> None:
        if line.seat == seat:
            counts.add(line)

    return add


def sample_result(result: Any, seat: int, counts: ModelCounts) -> dict[str, Any]:
    """A played game as the sample's result (what the scorer reads)."""
    stats = result.stats[seat]
    return {
        "win": seat in result.winners,
        "void": result.void,
        "winning_side": result.winning_side,
        "decisions": stats.decisions,
        "model_decisions": counts.decisions,
        "single_option": counts.single_option,
        "fallbacks": sum(stats.fallbacks.values()),
        "fallback_reasons": dict(stats.fallbacks),
        "model_calls": counts.calls,
        "rounds": result.game.round,
        "counts": counts_json(counts),
    }


def outcome_line(meta: dict[str, Any], r: dict[str, Any]) -> str:
    outcome = "void" if r["void"] else ("won" if r["win"] else "lost")
    return f"{meta['role']} at seat {meta['seat']}: {outcome} ({r['winning_side']} won)"


def start_run_folder(root: Path, max_fallback_rate: float, locale: str) -> None:
    """The run folder's ``config.json``: what ``league report`` reads of a league config (the
    fallback limit, the locale); the games are added as they end.  A folder that already holds
    games is refused (its games would mix with this run's)."""
    if (root / "games.jsonl").exists() and RunStore(root).games():
        raise ValueError(f"run_dir {root} already holds games: give a new folder")
    root.mkdir(parents=True, exist_ok=True)
    RunStore(root).prepare()
    config = {
        "name": RUN_NAME,
        "source": "inspect",
        "paired": False,
        "locale": locale,
        "max_fallback_rate": max_fallback_rate,
    }
    (root / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")


def write_game(root: Path, recorder: GameRecorder, result: TableResult, t0: float) -> None:
    """One finished sample as a league game: its file and its ``games.jsonl`` line."""
    out = recorder.finish(result, time.monotonic() - t0)
    RunStore(root).write_game(out.start, out.decisions, out.end, out.record)
