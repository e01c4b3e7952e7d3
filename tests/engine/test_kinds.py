"""Decision kinds and event types are closed sets: every kind the engine can ask (RULES.md §3, §5,
§7) is in :data:`~harness.engine.state.DecisionKind` and has its answer handler, and every event
the engine emits has a ``"t"`` in :data:`~harness.engine.state.EventType` — read from the engine's
source and seen in played games of every mode and table size."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.engine import DECISION_KINDS, EVENT_TYPES, Game, random_playout
from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES

ENGINE = Path(__file__).resolve().parents[2] / "harness" / "engine"


def _calls_and_events() -> tuple[list[ast.expr], list[ast.expr]]:
    """The kind argument of every ``self.ask(...)`` and the value of every ``{"t": ...}``."""
    kinds: list[ast.expr] = []
    types: list[ast.expr] = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "ask"
            ):
                kinds.append(node.args[1] if len(node.args) > 1 else node.keywords[0].value)
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "t":
                        types.append(value)
    return kinds, types


def _literals(nodes: list[ast.expr]) -> set[str]:
    out = set()
    for node in nodes:
        assert isinstance(node, ast.Constant) and isinstance(node.value, str), (
            f"not a string literal: {ast.unparse(node)} — name the kind or type literally"
        )
        out.add(node.value)
    return out


def test_every_kind_the_engine_asks_is_a_decision_kind() -> None:
    kinds, _ = _calls_and_events()
    asked = _literals(kinds)
    assert asked == set(DECISION_KINDS)
    assert set(Game._DECIDE) == set(DECISION_KINDS)  # each kind has its d_<kind> answer
    assert len(DECISION_KINDS) == len(set(DECISION_KINDS))


def test_every_event_the_engine_emits_has_an_event_type() -> None:
    _, types = _calls_and_events()
    emitted = _literals([v for v in types if isinstance(v, ast.Constant)])  # view.py copies one
    assert emitted == set(EVENT_TYPES)
    assert len(EVENT_TYPES) == len(set(EVENT_TYPES))


@pytest.mark.parametrize("mode", MODES)
def test_played_games_stay_inside_the_sets(mode: str) -> None:
    seen_kinds: set[str] = set()
    seen_types: set[str] = set()
    for seats in range(MIN_SEATS, MAX_SEATS + 1):
        for seed in range(3):
            game = Game.new(seats, mode, seed)
            while game.pending is not None:
                seen_kinds.add(game.pending.kind)
                game.apply(game.pending.options[seed % len(game.pending.options)])
            seen_types.update(e["t"] for e in game.events)
        seen_types.update(e["t"] for e in random_playout(seats, mode, 7, check=False).events)
    assert seen_kinds <= set(DECISION_KINDS)
    assert seen_types <= set(EVENT_TYPES)
