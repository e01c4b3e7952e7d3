"""The bot-only playout path makes the same decisions as the table runner; the chance helpers
copy a game exactly and re-draw only its unknown future."""

from __future__ import annotations

import asyncio
import gc
import random

import pytest

from harness.agents.rulebot import RuleBot
from harness.agents.table import play_game
from harness.analysis.ladder import EpsilonBot
from harness.analysis.playout import fed_suspicions, new_bots, play_out
from harness.analysis.rollout_value import RolloutValue
from harness.engine import EngineError, Game
from harness.engine.chance import clone, resample_future, unseen_positions
from harness.engine.roles import MODES

# every table size with every mode, three seeds each
CASES = [(n, mode, 100 + 7 * n + k) for n in range(4, 9) for mode in MODES for k in range(3)]


def _agents(n: int, seed: int) -> list[RuleBot]:
    """Rule bots with one or two ε-bots seated (they move at random part of the time)."""
    out: list[RuleBot] = [RuleBot(f"bot{i}") for i in range(n)]
    out[seed % n] = EpsilonBot("eps", 0.3)
    if seed % 2:
        out[(seed + 2) % n] = EpsilonBot("eps2", 0.1, seed=seed)
    return out


@pytest.mark.parametrize(("n", "mode", "seed"), CASES)
def test_playout_decides_as_the_table_runner(n: int, mode: str, seed: int) -> None:
    table = Game.new(n, mode, seed)
    asyncio.run(play_game(table, _agents(n, seed), game_id="g"))
    fast = Game.new(n, mode, seed)
    bots = _agents(n, seed)
    for i, b in enumerate(bots):
        b.new_game("g", i, seed)
    made = play_out(fast, bots)
    assert fast.history == table.history
    assert made == len(table.history)
    assert (fast.winning_side, fast.winners) == (table.winning_side, table.winners)
    assert fast.events == table.events


@pytest.mark.parametrize(("n", "mode", "seed"), CASES[::2])
def test_rollouts_from_mid_game_decide_as_the_table_runner(n: int, mode: str, seed: int) -> None:
    """From positions along a game, with the unknown future re-drawn: fresh rule bots started
    from the position's fed suspicion models and played by ``play_out`` make the same choices as
    fresh bots reading the whole feed through the table runner."""
    game = Game.new(n, mode, seed)
    positions: list[Game] = []

    def keep(g: Game, k: int) -> None:
        if k % 23 == 3:
            positions.append(clone(g))

    play_out(game, new_bots(game, seed), visit=keep)
    assert positions
    for k, pos in enumerate(positions):
        fed = fed_suspicions(pos)
        for r in range(2):
            table, fast = clone(pos), clone(pos)
            resample_future(table, random.Random(f"{seed}:{k}:{r}"))
            resample_future(fast, random.Random(f"{seed}:{k}:{r}"))
            asyncio.run(play_game(table, [RuleBot(f"bot{i}") for i in range(n)], game_id="r"))
            bots = new_bots(fast, fast.seed, game_id="r", fed=fed)
            made = play_out(fast, bots, seen=[len(pos.events)] * n)
            assert fast.history == table.history
            assert made == len(table.history) - len(pos.history)
            assert (fast.winning_side, fast.winners) == (table.winning_side, table.winners)
            assert fast.events == table.events


def test_clone_plays_on_exactly_like_the_original() -> None:
    game = Game.new(6, "classic", 7)
    play_to = 40
    rng = random.Random(1)
    for _ in range(play_to):
        game.apply(rng.choice(game.pending.options))
    copy = clone(game)
    for g in (game, copy):
        play_out(g, new_bots(g, 3))
    assert copy.history == game.history and copy.events == game.events
    assert copy.winners == game.winners


def test_resample_redraws_only_the_unknown_deck_order() -> None:
    game = Game.new(5, "classic", 11)
    top = game.deck[-1]
    game.seats[0].known_top.append(top)  # a put-back card: its place is known
    before = list(game.deck)
    changed = 0
    for k in range(20):
        g = clone(game)
        resample_future(g, random.Random(k))
        assert sorted(g.deck) == sorted(before)
        assert g.deck[-1] == top
        changed += g.deck != before
        assert game.deck == before  # the original is untouched
    assert changed == 20
    assert len(unseen_positions(game)) == len(before) - 1


def test_deal_with_fixed_roles() -> None:
    game = Game.new(7, "double_agent", 3)
    roles = [s.role for s in game.seats]
    other = Game.new(7, "double_agent", 4, roles=roles)
    assert [s.role for s in other.seats] == roles
    assert Game.new(7, "double_agent", 3).history == game.history
    with pytest.raises(EngineError, match="composition"):
        Game.new(5, "classic", 1, roles=["marshal"] * 5)


def test_clone_copies_every_field_of_the_game_and_its_seats() -> None:
    """A field added to the game or a seat must be copied by ``clone`` too."""
    from harness.engine.state import Seat

    game = Game.new(6, "classic", 7)
    rng = random.Random(2)
    for _ in range(40):
        game.apply(rng.choice(game.pending.options))
    copy = clone(game)
    assert set(vars(copy)) == set(vars(game))
    for k, v in vars(game).items():
        if k not in ("rng", "seats"):
            assert vars(copy)[k] == v, k
    assert copy.rng.getstate() == game.rng.getstate()
    for a, b in zip(game.seats, copy.seats, strict=True):
        for name in Seat.__slots__:
            assert getattr(b, name) == getattr(a, name), name


class _Wrong(RuleBot):
    def decide(self, view, options):  # type: ignore[no-untyped-def]
        return "play:nothing@9"


def test_a_choice_that_is_no_option_is_refused_by_the_engine() -> None:
    game = Game.new(5, "classic", 3)
    with pytest.raises(EngineError):
        play_out(game, [_Wrong(f"w{i}") for i in range(5)])
    assert game.pending is not None and len(game.pending.options) > 1  # left undecided


@pytest.mark.parametrize(("n", "mode", "seed"), CASES[::5])
def test_a_playout_makes_no_reference_cycles(n: int, mode: str, seed: int) -> None:
    """The cycle collector is paused during a playout: every object it makes goes by reference
    counting (nothing is left for the collector), and the collector runs again afterwards."""
    game = Game.new(n, mode, seed)
    bots = new_bots(game, seed)
    gc.collect()
    assert gc.isenabled()
    play_out(game, bots)
    assert gc.isenabled()
    assert game.is_over
    assert gc.collect() == 0


def test_rollouts_make_no_reference_cycles() -> None:
    """Copying, re-drawing, starting the bots and playing out (the collector paused throughout)
    leave nothing for the cycle collector."""
    rv = RolloutValue(4, seed=3)
    for n, mode, seed in CASES[::7]:
        game = Game.new(n, mode, seed)
        play_out(game, new_bots(game, seed), until=lambda g: len(g.history) >= 40)
        gc.collect()
        rv.values(game)
        assert gc.isenabled()
        assert gc.collect() == 0
    assert rv.decisions > 0
