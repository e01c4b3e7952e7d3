"""The luck-adjusted score is unbiased for any value model (docs/analysis.md): over bot games its
mean equals the mean win indicator within its interval, per role, with the fitted model, a
constant and random noise; a correction that does not subtract its baseline is caught."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator

import numpy as np
import pytest

from harness.agents.seat_protocol import RandomAgent
from harness.analysis import luck
from harness.analysis.fitted import FittedValue
from harness.analysis.luck import LuckResult, luck_adjust
from harness.analysis.playout import new_bots, play_out
from harness.analysis.value_model import ConstantValue, NoiseValue, ValueModel
from harness.engine import Game, parse_action
from harness.engine.chance import clone, resample_future

GAMES = 36
Z = 3.5  # a wide interval: many means are checked, a biased correction is far outside it


class _RandomSeat:
    """A random seat inside the fast playout (uniform over its options)."""

    def __init__(self, seed: int) -> None:
        self.agent = RandomAgent("random", seed)
        self.agent.new_game("g", 0, seed)

    def decide(self, view: object, options: list[str]) -> str:
        return options[self.agent._rng.randrange(len(options))]


def _games() -> Iterator[tuple[Game, list[str]]]:
    for k in range(GAMES):
        n, seed = 4 + k % 5, 500 + k
        game = Game.new(n, "classic", seed)
        bots: list = new_bots(game, seed)
        policies = ["unknown"] * n
        if k % 2:  # every other game has a random seat, whose choices are corrected
            bots[k % n] = _RandomSeat(seed)
            policies[k % n] = "uniform"
        play_out(game, bots)
        yield game, policies


_PLAYED = list(_games())


def _scores(model: ValueModel) -> list[tuple[Game, LuckResult]]:
    return [
        (g, luck_adjust(g.n, g.mode, g.seed, g.history, pol, model, samples=2, rng_seed=1))
        for g, pol in _PLAYED
    ]


def _within(values: list[float]) -> bool:
    x = np.array(values)
    se = x.std(ddof=1) / math.sqrt(len(x))
    return abs(float(x.mean())) <= Z * se + 1e-12


def _unbiased(scored: list[tuple[Game, LuckResult]]) -> bool:
    """Mean correction 0 within its interval, over all seats and per role."""
    per_role: dict[str, list[float]] = {}
    for g, r in scored:
        for s in g.seats:
            per_role.setdefault(s.role, []).append(float(r.correction[s.index]))
    every = [v for vals in per_role.values() for v in vals]
    return _within(every) and all(_within(v) for v in per_role.values() if len(v) > 10)


@pytest.fixture(scope="module")
def fitted() -> list[tuple[Game, LuckResult]]:
    return _scores(FittedValue())


def test_raw_scores_are_the_results(fitted: list[tuple[Game, LuckResult]]) -> None:
    for g, r in fitted:
        assert [i for i in range(g.n) if r.raw[i] == 1.0] == list(g.winners)


def test_adjusted_mean_equals_win_rate_with_the_fitted_model(
    fitted: list[tuple[Game, LuckResult]],
) -> None:
    assert _unbiased(fitted)
    assert any(abs(r.correction).sum() > 0 for _, r in fitted)  # it did adjust


def test_unbiased_with_useless_models() -> None:
    assert _unbiased(_scores(ConstantValue()))
    assert _unbiased(_scores(NoiseValue(3)))


def test_a_correction_without_its_baseline_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(luck, "_sample", lambda before, action, rng, model: np.zeros(before.n))
    assert not _unbiased(_scores(FittedValue()))


def test_a_and_a_rule_bots_score_alike(fitted: list[tuple[Game, LuckResult]]) -> None:
    """Two identical rule bots at different seats of the same games: adjusted difference 0."""
    diff = []
    for g, r in fitted:
        a, b = g.seed % g.n, (g.seed + 1) % g.n
        diff.append(float(r.adjusted[a] - r.adjusted[b]))
    assert _within(diff)


def test_bad_actions_are_refused() -> None:
    g, pol = _PLAYED[0]
    with pytest.raises(ValueError, match="not over"):
        luck_adjust(g.n, g.mode, g.seed, g.history[:-1], pol, ConstantValue())
    with pytest.raises(ValueError, match="malformed"):
        luck_adjust(g.n, g.mode, g.seed, ["nonsense-id"], pol, ConstantValue())
    with pytest.raises(ValueError, match="not an option"):
        luck_adjust(g.n, g.mode, g.seed, ["play:shot@7"], pol, ConstantValue())


# rule bots as a known policy: each choice is uniform over its exact ties (docs/analysis.md)
def _known(pol: list[str]) -> list[str]:
    return ["rulebot" if p == "unknown" else p for p in pol]


def _known_scores(model: ValueModel) -> list[tuple[Game, LuckResult]]:
    return [
        (g, luck_adjust(g.n, g.mode, g.seed, g.history, _known(pol), model, 2, rng_seed=1))
        for g, pol in _PLAYED
    ]


def test_known_rule_bots_stay_unbiased() -> None:
    scored = _known_scores(FittedValue())
    assert _unbiased(scored)
    assert _unbiased(_known_scores(NoiseValue(5)))
    # their ties are corrected: more transitions than with the bots as unknown policy
    unknown = _scores(FittedValue())
    assert sum(r.transitions for _, r in scored) > sum(r.transitions for _, r in unknown)


def test_a_choice_the_rule_bot_would_not_make_is_refused() -> None:
    g, pol = next((g, p) for g, p in _PLAYED if "uniform" not in p)
    replay = Game.new(g.n, g.mode, g.seed)
    for i, text in enumerate(g.history):
        d = replay.pending
        assert d is not None
        for other in (o for o in d.option_ids if o != text):
            try:  # the game stops early: "not over", unless the bot would not choose ``other``
                luck_adjust(
                    g.n, g.mode, g.seed, [*g.history[:i], other], _known(pol), ConstantValue()
                )
            except ValueError as e:
                if "not the rule bot's choice" in str(e):
                    assert str(e).startswith(f"decision {i + 1}:")
                    return
        replay.apply(parse_action(text))
    pytest.fail("no decision with a choice the bot would not make")


def _visible(g: Game) -> tuple:
    """What a transition leaves on the table (not the deck order, which a re-draw changes)."""
    seats = tuple((s.hp, s.alive, tuple(s.hand), tuple(s.in_play), s.weapon) for s in g.seats)
    return seats, tuple(g.discard), len(g.deck), g.pending, g.winners


def test_every_transition_that_used_chance_is_corrected() -> None:
    """A transition the adjustment skips (no card left the deck, the generator untouched) reaches
    the same table from every re-drawn copy: nothing random happened in it."""
    rng = random.Random(3)
    skipped = 0
    for g, _ in _PLAYED[:8]:
        replay = Game.new(g.n, g.mode, g.seed)
        for text in g.history:
            before = clone(replay, events=False)
            if luck.apply_and_check_chance(replay, parse_action(text)):
                continue
            skipped += 1
            for _ in range(3):
                c = clone(before, events=False)
                resample_future(c, rng)
                c.apply(parse_action(text))
                assert _visible(c) == _visible(replay)
    assert skipped > 100
