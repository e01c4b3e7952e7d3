"""Positions (docs/positions.md): lossless load/write, clear errors naming the field."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from harness.engine import Game, PositionError, dump_position, load_position
from harness.engine.cards import CARD_FACE, CARD_TYPE
from harness.engine.roles import MODES

EXAMPLE = Path(__file__).resolve().parents[1] / "positions" / "duel_example.json"


@pytest.mark.parametrize("mode", MODES)
def test_load_then_write_is_lossless_at_every_decision(mode: str) -> None:
    for seed in range(6):
        game = Game.new(4 + seed % 5, mode, seed)
        rng = random.Random(seed)
        while game.pending is not None:
            pos = dump_position(game)
            twin = load_position(json.loads(json.dumps(pos)))
            assert dump_position(twin) == pos
            assert twin.pending == game.pending
            action = rng.choice(game.pending.options)
            game.apply(action)
            twin.apply(action)
            assert dump_position(twin) == dump_position(game)


def test_example_position_loads_and_documents_the_format() -> None:
    game = load_position(EXAMPLE.read_text())
    assert game.pending is not None and game.pending.seat == 0 and game.pending.kind == "play"
    assert CARD_FACE[game.deck[-1]] == "jail.4H"  # deck is given top first
    assert CARD_FACE[game.discard[-1]] == "wagon.9S"
    assert [CARD_TYPE[c] for c in game.seats[0].hand] == ["duel", "shot", "ricochet"]
    assert game.seats[3].upgrades == ["marksmanship"]
    assert list(game.coins) == [False, True]


def test_unnamed_cards_fill_the_deck() -> None:
    game = load_position(EXAMPLE.read_text())
    total = (
        len(game.deck) + len(game.discard) + sum(len(s.hand) + len(s.in_play) for s in game.seats)
    )
    total += sum(1 for s in game.seats if s.weapon >= 0)
    assert total == 80


def _example() -> dict:
    return json.loads(EXAMPLE.read_text())


@pytest.mark.parametrize(
    ("patch", "field"),
    [
        (lambda d: d["seats"][1].update(hp=-1), "seats.1.hp"),
        (lambda d: d["seats"][1].update(character="batman"), "seats.1.character"),
        (lambda d: d["seats"][2].update(role="sheriff"), "seats.2.role"),
        (lambda d: d["seats"][0]["hand"].append("shot.2C"), "seats.0.hand.3"),
        (lambda d: d["seats"][0]["hand"].append("bfg"), "seats.0.hand.3"),
        (lambda d: d["seats"][0].update(weapon="horse"), "seats.0.weapon"),
        (lambda d: d["seats"][0].update(in_play=["carbine"]), "seats.0.in_play"),
        (lambda d: d.update(turn=9), "turn"),
        (lambda d: d.update(mode="chaos"), "mode"),
        (lambda d: d.update(seats=d["seats"][:3]), "seats"),
        (lambda d: d.update(unknown_field=1), "unknown_field"),
        (lambda d: d["seats"][1].update(hp=5), "seats.1.hp"),
        (lambda d: d.update(deck=["dynamite", "dynamite"]), "deck.1"),
        (lambda d: d.update(stack=[["warp", 1]]), "stack.0"),
    ],
)
def test_malformed_positions_name_the_offending_field(patch, field: str) -> None:
    d = _example()
    patch(d)
    with pytest.raises(PositionError) as err:
        load_position(d)
    message = str(err.value)
    assert field in message
    assert "\n" not in message


def test_position_mid_resolution_round_trips() -> None:
    game = load_position(EXAMPLE.read_text())
    game.apply("play:duel@1")  # seat 1 must answer the Duel
    pos = dump_position(game)
    assert "stack" in pos
    twin = load_position(pos)
    assert twin.pending == game.pending and twin.pending.kind == "respond_duel"
