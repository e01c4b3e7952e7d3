"""Helpers for the run-integrity tests: a small league of model seats (fake OpenAI server on
127.0.0.1) and rule bots, run through the command line, and record comparisons."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from harness.agents.decision_record import ModelDecisionRecord
from harness.cli.main import main
from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine
from harness.records import DecisionLine, RunStore
from tests.fakes.backends import model_player as fake_model_player
from tests.fakes.server import FakeServer

ROOT = Path(__file__).resolve().parents[2]


def model_player(name: str, server: FakeServer, **model: Any) -> dict[str, Any]:
    defaults = {
        "price": {"input": 1.0, "output": 2.0},
        "params": {"max_tokens": 64},
        "backoff": 0.01,
    }
    return fake_model_player(name, server.base_url, **{**defaults, **model})


def write_league(
    path: Path,
    server: FakeServer,
    *,
    name: str = "hostile",
    model_players: int = 2,
    bots: int = 2,
    **over: Any,
) -> Path:
    """A league of ``model_players`` model players and ``bots`` rule bots at 4-seat tables."""
    data: dict[str, Any] = {
        "name": name,
        "players": [model_player(f"model-{i}", server) for i in range(model_players)]
        + [{"name": f"bot-{i}", "kind": "bot"} for i in range(bots)],
        "tables": [{"seats": [4]}],
        "games_per_table": 4,
        "decision_seconds": 5,
        "max_concurrent_games": 4,
        "providers": {"openai": {"concurrency": 8}},
        "output": str(path.parent / "out"),
    }
    data.update(over)
    path.write_text(yaml.safe_dump(data))
    return path


def league_args(cfg: Path, *extra: str) -> list[str]:
    return ["league", "run", str(cfg), "--no-progress", "--no-preflight", *extra]


def run_league(cfg: Path, *extra: str) -> int:
    """``bangarena league run CFG`` in this process; returns the exit code."""
    return main(league_args(cfg, *extra))


def run_dir(cfg: Path) -> Path:
    data = yaml.safe_load(cfg.read_text())
    return Path(data["output"]) / data["name"]


def spend(cfg: Path) -> list[SpendLine]:
    return SpendLedger(run_dir(cfg) / SPEND_FILE).lines()


def trip_index(lines: Iterable[SpendLine], max_tokens: int) -> int:
    """1-based position of the ledger line whose tokens first passed ``max_tokens``."""
    total = 0
    for i, line in enumerate(lines, 1):
        total += line.tokens
        if total > max_tokens:
            return i
    raise AssertionError(f"the ledger never passed {max_tokens} tokens")


def untimed(value: Any) -> Any:
    """``value`` without the fields that measure time (they differ between two runs)."""
    if isinstance(value, dict):
        return {
            k: untimed(v)
            for k, v in value.items()
            if k not in ("latency_s", "duration_s", "finished_at", "elapsed_s")
        }
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


def game_files(run: Path) -> dict[str, list[Any]]:
    """Every finished game's record, decisions and end, without timing fields."""
    store = RunStore(run)
    out: dict[str, list[Any]] = {}
    for g in store.games():
        start, decisions, end = store.read_game(g.game_id)
        out[g.game_id] = untimed(
            [
                g.model_dump(mode="json"),
                start.model_dump(mode="json"),
                [d.model_dump(mode="json") for d in decisions],
                end.model_dump(mode="json"),
            ]
        )
    return out


def model_decisions(run: Path) -> list[tuple[DecisionLine, ModelDecisionRecord]]:
    """Every decision with a model record in the run's finished games, with its record."""
    store = RunStore(run)
    out = []
    for g in store.games():
        for d in store.read_game(g.game_id)[1]:
            if d.model is not None:
                out.append((d, ModelDecisionRecord.model_validate(d.model)))
    return out


def request_bodies(server: FakeServer) -> list[str]:
    """The model requests the server received (a call cancelled while it was being sent
    arrives without its body and is left out)."""
    return [json.dumps(r.body, sort_keys=True) for r in server.script.model_requests if r.body]
