"""RULES.md §9 for move analysis: a seat's analysis is computed from its information only.

The counterfactual twin (``twin.py``) re-deals, at the start, the cards the seat has not seen and
the roles it has not learned, and both games replay the same actions; at every decision of the
seat before the first divergence it may see, the analysis of the true game and of the twin —
every option's value, from the same generator — must be identical.  The hidden deal really
differs (another seat's hand), and an analysis that reads the true game is caught.
"""

from __future__ import annotations

import copy
import random

import pytest

import harness.engine.redeal as redeal_module
from harness.analysis.moves import FittedLookahead, RolloutToEnd, analyse
from harness.engine.chance import clone

from .twin import make_twin, play_random, replay

CASES = [
    ("classic", 6, 11, "raider"),
    ("partners", 8, 18, "loner"),
    ("double_agent", 7, 13, "deputy"),
    ("double_agent", 6, 14, "marshal"),
    ("old_classic", 5, 15, "deputy"),
]
MAX_COMPARED = 6


def _compare(
    mode: str, n: int, seed: int, role: str, valuer: object, most: int | None = None
) -> tuple[int, list[str]]:
    playout = play_random(n, mode, seed)
    start = playout.start
    seat = next(s.index for s in start.seats if s.role == role)
    k = min(len(playout.actions) - 1, max(40, len(playout.actions) // 2))
    twin = make_twin(start, playout.final, seat, playout.events_before[k], random.Random(seed))
    assert any(twin.game.seats[j].hand != start.seats[j].hand for j in range(n) if j != seat)
    compared, differences = 0, []
    for step in replay(copy.deepcopy(start), twin, playout.actions[:k], seat):
        d = step.original.pending
        if d is None or d.seat != seat or len(d.options) < 2 or step.index >= k:
            continue
        chosen = playout.actions[step.index]
        a = analyse(step.original, chosen, valuer, 3, random.Random(step.index), most)  # type: ignore[arg-type]
        b = analyse(step.twin, chosen, valuer, 3, random.Random(step.index), most)  # type: ignore[arg-type]
        if a != b:
            differences.append(f"step {step.index}: {a.values} vs {b.values}")
        compared += 1
        if compared >= MAX_COMPARED:
            break
    return compared, differences


@pytest.mark.parametrize(("mode", "n", "seed", "role"), CASES)
def test_analysis_is_unchanged_when_what_the_seat_cannot_see_is_redealt(
    mode: str, n: int, seed: int, role: str
) -> None:
    compared, differences = _compare(mode, n, seed, role, FittedLookahead())
    assert compared >= 3, compared
    assert not differences, "\n".join(differences)


def test_rollout_analysis_is_unchanged_too() -> None:
    compared, differences = _compare("double_agent", 7, 13, "deputy", RolloutToEnd())
    assert compared >= 3 and not differences, differences


@pytest.mark.parametrize(("mode", "n", "seed", "role"), CASES[:3])
def test_the_default_play_out_analysis_with_adaptive_worlds_is_unchanged_too(
    mode: str, n: int, seed: int, role: str
) -> None:
    # the default (harness.analysis.moves): play-outs to the end, more worlds where the best two
    # options are not separated — the worlds drawn, the values and their standard errors alike
    compared, differences = _compare(mode, n, seed, role, RolloutToEnd(), most=6)
    assert compared >= 3 and not differences, differences


def test_an_analysis_reading_the_true_game_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def peek(self: redeal_module.Redeal, rng: random.Random) -> object:
        g = clone(self.game, events=False)
        g.rng = random.Random(rng.getrandbits(64))
        return g

    monkeypatch.setattr(redeal_module.Redeal, "world", peek)
    _, differences = _compare("classic", 6, 11, "raider", FittedLookahead())
    assert differences, "an analysis of the true hidden deal gave identical values"
    _, differences = _compare("classic", 6, 11, "raider", RolloutToEnd(), most=6)
    assert differences, "a play-out analysis of the true hidden deal gave identical values"
