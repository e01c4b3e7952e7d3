"""Move analysis of one decision (harness.analysis.moves): option values from the deciding seat's
information, the loss of the chosen option and its label (docs/analysis.md, "Move analysis")."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from harness.analysis.moves import (
    BLUNDER,
    DEFAULT_WORLDS,
    INACCURACY,
    MISTAKE,
    FittedLookahead,
    RolloutToEnd,
    accuracy,
    analyse,
    classify,
)
from harness.engine import Game, build_view, dump_position, load_position
from harness.engine.redeal import Redeal

POSITIONS = Path(__file__).resolve().parents[1] / "positions"
VALUERS = [FittedLookahead(), RolloutToEnd()]


def _position(name: str) -> Game:
    return load_position((POSITIONS / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("valuer", VALUERS, ids=lambda v: v.name)
def test_shooting_the_one_heart_marshal_is_a_blunder(valuer: object) -> None:
    # RULES.md §8: the Marshal eliminated while a raider lives — the raiders win, so a Deputy's
    # Shot at a 1 ♥ Marshal with no card to answer loses at once.
    game = _position("deputy_blunder.json")
    before = dump_position(game)
    r = analyse(game, "play:shot@1", valuer, 8, random.Random(1))  # type: ignore[arg-type]
    assert dump_position(game) == before  # the analysed game is not changed
    values = dict(zip(r.options, r.values, strict=True))
    assert values["play:shot@1"] == 0.0
    assert r.best == "play:shot@4" and values["play:shot@4"] > 0.5
    assert r.loss >= BLUNDER and classify(r.loss) == "blunder"
    assert accuracy(r.loss) < 50


@pytest.mark.parametrize("valuer", VALUERS, ids=lambda v: v.name)
def test_discarding_the_only_ricochet_before_a_lethal_shot_is_a_blunder(valuer: object) -> None:
    # RULES.md §3.4: at the end of his turn the 1 ♥ Marshal holds 2 cards and must discard down to
    # 1, his only Ricochet or his Shot. His Three Eyes draw put a Shot back on top (§9: he knows
    # it), so the raider next to him (§4: distance 1) draws it; §5: with two players alive only a
    # Ricochet cancels that hit, and §8: the Marshal eliminated while a raider lives — raiders win.
    game = _position("ricochet_blunder.json")
    assert game.pending is not None and game.pending.seat == 1
    assert sorted(game.pending.option_ids) == ["discard:ricochet", "discard:shot"]
    blunder = analyse(game, "discard:ricochet", valuer, DEFAULT_WORLDS, random.Random(3))  # type: ignore[arg-type]
    assert blunder.best == "discard:shot"
    assert blunder.chosen_value < 0.1
    assert classify(blunder.loss) == "blunder"
    safe = analyse(game, "discard:shot", valuer, DEFAULT_WORLDS, random.Random(3))  # type: ignore[arg-type]
    assert safe.loss == 0.0 and classify(safe.loss) is None


@pytest.mark.parametrize("valuer", VALUERS, ids=lambda v: v.name)
def test_the_winning_option_of_a_forced_win_is_not_a_mistake(valuer: object) -> None:
    # RULES.md §8: the last raider eliminated with the Marshal alive — the law wins at once.
    game = _position("forced_win.json")
    r = analyse(game, "play:shot@4", valuer, 8, random.Random(2))  # type: ignore[arg-type]
    assert r.values[r.options.index("play:shot@4")] == 1.0
    assert r.loss == 0.0 and classify(r.loss) is None and accuracy(r.loss) == 100.0


def test_a_set_up_move_is_not_a_mistake() -> None:
    # RULES.md §3: a turn plays any number of cards in any order, so the Deputy's Horse (others
    # see him 1 farther) then his Shot at the raider loses nothing against shooting at once: the
    # play-out continues through the seat's own later decisions, so both lines are valued alike.
    # The fitted model, whose lookahead stops at the Deputy's next choice, calls the Horse a
    # blunder (docs/analysis.md).
    game = _position("deputy_blunder.json")
    r = analyse(game, "play:horse", RolloutToEnd(), DEFAULT_WORLDS, random.Random(1), 32)
    values = dict(zip(r.options, r.values, strict=True))
    assert r.best in ("play:shot@4", "play:horse")
    assert abs(values["play:horse"] - values["play:shot@4"]) <= 2 * r.loss_se + 1e-9
    assert classify(r.loss, r.loss_se) is None
    # each option's paired standard error against the best; the chosen one's is the loss's
    assert len(r.gap_ses) == len(r.options) and r.gap_ses[r.options.index(r.best)] == 0.0
    assert r.gap_ses[r.options.index("play:horse")] == r.loss_se
    fitted = analyse(game, "play:horse", FittedLookahead(), DEFAULT_WORLDS, random.Random(1), 32)
    assert classify(fitted.loss, fitted.loss_se) is not None  # the horizon's error, kept visible


def test_a_volcanic_before_two_shots_is_not_a_mistake() -> None:
    # RULES.md §3: with a Volcanic equipped a player may play any number of Shots. The raider's
    # Volcanic then two Shots at the 2 ♥ Marshal (§8: the Marshal eliminated while a raider
    # lives — the raiders win) wins for certain, as the Shot first does.
    game = _position("volcanic_setup.json")
    r = analyse(game, "play:volcanic", RolloutToEnd(), DEFAULT_WORLDS, random.Random(1), 32)
    values = dict(zip(r.options, r.values, strict=True))
    assert values["play:volcanic"] == values["play:shot@1"] == 1.0
    assert r.loss == 0.0 and classify(r.loss, r.loss_se) is None


def test_common_random_numbers_and_adaptive_worlds() -> None:
    # Every option meets the same world and the same play-out generator: two options that lead to
    # the same play (the Shot now, or the Horse first) differ in no world, so the best two are
    # separated (standard error 0) and 16 worlds suffice; a real gap with noise may go to 32.
    game = _position("deputy_blunder.json")
    r = analyse(game, "play:shot@4", RolloutToEnd(), 16, random.Random(1), 32)
    assert r.worlds == 16 and r.loss == 0.0 and r.loss_se == 0.0
    assert len(r.ses) == len(r.options) and all(se >= 0 for se in r.ses)
    # without adaptation the first 16 worlds are the same worlds
    fixed = analyse(game, "play:shot@4", RolloutToEnd(), 16, random.Random(1))
    assert fixed.values == r.values and fixed.worlds == 16
    played = _played(6, "classic", 2, 44)
    while played.pending is not None and len(played.pending.options) < 2:
        played.apply(played.pending.options[0])
    assert played.pending is not None
    chosen = played.pending.option_ids[0]
    grown = [analyse(played, chosen, RolloutToEnd(), 4, random.Random(k), 8).worlds
             for k in range(4)]  # fmt: skip
    assert set(grown) <= {4, 8} and 8 in grown


def test_a_loss_within_twice_its_standard_error_is_not_labelled() -> None:
    assert classify(0.30, 0.10) == "blunder"
    assert classify(0.30, 0.15) is None and classify(0.20, 0.11) is None
    assert classify(0.12, 0.05) == "mistake" and classify(0.06, 0.03) is None


def test_thresholds_and_accuracy() -> None:
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.05, 0.10, 0.15)
    assert classify(0.049) is None
    assert classify(0.05) == "inaccuracy" and classify(0.0999) == "inaccuracy"
    assert classify(0.10) == "mistake" and classify(0.15) == "blunder" and classify(1) == "blunder"
    assert accuracy(0) == 100.0 and accuracy(1.0) == 0.0
    losses = [0.0, 0.01, 0.05, 0.1, 0.2, 0.4]
    accs = [accuracy(x) for x in losses]
    assert accs == sorted(accs, reverse=True) and len(set(accs)) == len(accs)
    assert accuracy(0.10) == pytest.approx(103.1668 * 2.718281828 ** (-0.4354) - 3.1669, abs=1e-3)


def _played(seats: int, mode: str, seed: int, steps: int) -> Game:
    game = Game.new(seats, mode, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.pending is None:
            break
        game.apply(rng.choice(game.pending.options))
    return game


def _no_feed(view: object) -> object:
    return replace(view, events=(), event_count=0)  # type: ignore[type-var]


@pytest.mark.parametrize(("seats", "mode"), [(4, "classic"), (5, "double_agent"), (7, "classic"),
                                             (8, "double_agent"), (6, "old_classic")])  # fmt: skip
def test_a_world_looks_the_same_to_the_seat_and_differs_elsewhere(seats: int, mode: str) -> None:
    differs = 0
    for seed in range(6):
        game = _played(seats, mode, seed, 40 + 13 * seed)
        if game.pending is None:
            continue
        seat = game.pending.seat
        redeal = Redeal(game, seat)
        mine = _no_feed(build_view(game, seat))
        for k in range(4):
            world = redeal.world(random.Random(k))
            assert world.pending == game.pending
            assert _no_feed(build_view(world, seat)) == mine
            others = [sorted(s.hand) for s in world.seats if s.index != seat]
            truth = [sorted(s.hand) for s in game.seats if s.index != seat]
            differs += others != truth or world.deck != game.deck
            cards = sorted(world.deck + [c for s in world.seats for c in s.hand])
            assert cards == sorted(game.deck + [c for s in game.seats for c in s.hand])
    assert differs > 0


def test_the_same_generator_gives_the_same_values() -> None:
    game = _played(6, "classic", 3, 30)
    assert game.pending is not None
    chosen = game.pending.option_ids[0]
    a = analyse(game, chosen, FittedLookahead(), 4, random.Random(9))
    b = analyse(game, chosen, FittedLookahead(), 4, random.Random(9))
    c = analyse(game, chosen, FittedLookahead(), 4, random.Random(10))
    assert a == b and a.values != c.values


def test_bad_arguments_are_value_errors() -> None:
    game = _position("forced_win.json")
    with pytest.raises(ValueError, match="not an option"):
        analyse(game, "play:duel@1", FittedLookahead(), 2, random.Random(0))
    with pytest.raises(ValueError, match="at least 1"):
        analyse(game, "end", FittedLookahead(), 0, random.Random(0))


@pytest.mark.parametrize(("known", "pinned"), [(["jail.4H"], True), (["shot.QH"], False)])
def test_only_put_backs_still_on_top_stay_in_place(known: list[str], pinned: bool) -> None:
    # RULES.md §9: a seat knows the cards it put back while they are still on top; a put-back
    # card under a card it did not put there (here shot.QH under jail.4H) is hidden again.
    pos = json.loads((POSITIONS / "duel_example.json").read_text(encoding="utf-8"))
    pos["seats"][0]["known_top"] = known
    game = load_position(pos)
    seat = game.pending.seat if game.pending else 0
    assert seat == 0
    card = game.seats[0].known_top[0]
    where = game.deck.index(card)
    redeal = Redeal(game, 0)
    places = {redeal.world(random.Random(k)).deck.index(card) for k in range(12)}
    assert (places == {where}) is pinned
    mine = _no_feed(build_view(game, 0))
    for k in range(4):
        assert _no_feed(build_view(redeal.world(random.Random(k)), 0)) == mine
