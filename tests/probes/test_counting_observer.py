"""The counting observer (harness.engine.role_counting): exact marginals on known positions, and
computed from the seat's information only — a re-dealt game that the seat cannot tell apart gives
the same beliefs (RULES.md §9)."""

from __future__ import annotations

import copy
import random

import pytest

from harness.engine import Game, build_view
from harness.engine.role_counting import consistent_assignments, counting_observer, probe_targets
from tests.noleak.twin import make_twin, play_random, replay


def _at_first_decision_of(game: Game, role: str) -> int:
    return next(s.index for s in game.seats if s.role == role)


def test_the_marshal_at_the_deal_of_classic_4_sees_two_raiders_and_a_loner() -> None:
    game = Game.new(4, "classic", 1)
    seat = _at_first_decision_of(game, "marshal")
    view = build_view(game, seat)
    targets, roles = probe_targets(view)
    assert targets == [s for s in range(4) if s != seat] and roles == ["raider", "loner"]
    beliefs = counting_observer(view)
    for t in targets:  # RULES.md §1: 4 seats = 1 marshal, 2 raiders, 1 loner; 3 equally likely
        assert beliefs[t] == pytest.approx({"raider": 2 / 3, "loner": 1 / 3})


def test_a_raider_in_double_agent_mode_knows_its_team() -> None:
    game = Game.new(6, "double_agent", 3)  # RULES.md §2, Ruling R-3
    seat = _at_first_decision_of(game, "raider")
    view = build_view(game, seat)
    targets, roles = probe_targets(view)
    team = {s.index for s in game.seats if s.role in ("raider", "double_agent")}
    assert not team & set(targets) and len(targets) == 6 - 1 - len(team)
    assert roles == ["deputy", "raider", "loner", "double_agent"]
    for row in counting_observer(view).values():  # left: one deputy, one loner
        assert row == pytest.approx({"deputy": 0.5, "raider": 0.0, "loner": 0.5, "double_agent": 0})


def test_the_marshals_pair_holds_one_deputy_and_the_double_agent() -> None:
    game = Game.new(5, "double_agent", 2)  # 1 marshal, 1 deputy, 1 raider, 1 loner, 1 DA
    seat = _at_first_decision_of(game, "marshal")
    view = build_view(game, seat)
    assert view.marshal_pair is not None
    beliefs = counting_observer(view)
    a, b = view.marshal_pair
    for s in (a, b):
        assert beliefs[s] == pytest.approx(
            {"deputy": 0.5, "raider": 0.0, "loner": 0.0, "double_agent": 0.5}
        )
    for s in set(beliefs) - {a, b}:
        assert beliefs[s] == pytest.approx(
            {"deputy": 0, "raider": 0.5, "loner": 0.5, "double_agent": 0}
        )


def test_an_assignment_where_the_law_has_already_won_is_excluded() -> None:
    """RULES.md §8: while the game goes on, a living raider, double agent or loner remains."""
    game = Game.new(7, "classic", 5)  # 1 marshal, 2 deputies, 3 raiders, 1 loner
    deputy = _at_first_decision_of(game, "deputy")
    others = [s for s in game.seats if s.index != deputy and s.role != "marshal"]
    gone = [s for s in others if s.role == "raider"] + [
        next(s for s in others if s.role == "deputy")
    ]
    left = [s for s in others if s not in gone]  # the loner, alive
    for s in gone:
        s.alive, s.hp = False, 0
    view = build_view(game, deputy)
    targets, _ = probe_targets(view)
    assert targets == [s.index for s in left]
    # Without RULES.md §8 the last one could be the second deputy as well as the loner.
    assert counting_observer(view)[left[0].index]["loner"] == 1.0


CASES = [("classic", 5, 3, "deputy"), ("double_agent", 7, 13, "marshal"),
         ("double_agent", 8, 4, "raider"), ("classic", 8, 9, "loner")]  # fmt: skip


@pytest.mark.parametrize(("mode", "n", "seed", "role"), CASES)
def test_a_redealt_game_gives_the_seat_the_same_counting_observer(
    mode: str, n: int, seed: int, role: str
) -> None:
    playout = play_random(n, mode, seed)
    start = playout.start
    seat = _at_first_decision_of(start, role)
    k = min(len(playout.actions) - 1, max(20, len(playout.actions) // 2))
    horizon = playout.events_before[k]
    twins = (make_twin(start, playout.final, seat, horizon, random.Random(r)) for r in range(20))
    twin = next((t for t in twins if t.roles), None)
    assert twin is not None, "no twin re-dealt a role"
    compared = truth_differs = 0
    for step in replay(copy.deepcopy(start), twin, playout.actions, seat):
        if step.original.pending is None:
            break
        a, b = build_view(step.original, seat), build_view(step.twin, seat)
        targets, _ = probe_targets(a)
        assert probe_targets(b) == probe_targets(a)
        assert counting_observer(b) == counting_observer(a)
        assert consistent_assignments(b) == consistent_assignments(a)
        # what the seat may not see does differ (a leak of it would change the result)
        truth_differs += any(
            step.original.seats[t].role != step.twin.seats[t].role for t in targets
        )
        compared += 1
    assert compared >= 20 and truth_differs > 0
