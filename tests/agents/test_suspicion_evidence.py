"""The attack matrix is the same for every seat (it reads only the public part of events), so
the seats of a playout may share one :class:`Evidence`: at every decision of games of every size
and mode, each seat's own evidence read from its own views equals the shared one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.agents.rulebot.suspicion import (
    _ONE_SIDE,
    Belief,
    Evidence,
    Suspicion,
    _fit,
    _fit_2,
    _fit_3,
    _fit_any,
    _key,
    _prepare,
)
from harness.analysis.playout import new_bots, play_out
from harness.engine import Game, build_view
from harness.engine.roles import MODES

CASES = [(n, mode, 70 + n) for n in range(4, 9) for mode in MODES]


@pytest.mark.parametrize(("n", "mode", "seed"), CASES)
def test_each_seats_evidence_equals_the_shared_one(n: int, mode: str, seed: int) -> None:
    game = Game.new(n, mode, seed)
    bots = new_bots(game, seed)
    shared = bots[0]._susp
    assert shared is not None
    own = [Evidence(n) for _ in range(n)]
    seen = [0] * n
    checked = 0

    def visit(g: Game, k: int) -> None:
        nonlocal checked
        seat = g.pending.seat
        view = build_view(g, seat, since=seen[seat])
        seen[seat] = view.event_count
        own[seat].feed(view)
        # the shared evidence, read so far from whichever seats' views came first, brought up
        # to this event by this view (reading an event twice is impossible: indices are kept)
        shared.feed(view)
        assert shared.evidence.seen == own[seat].seen
        assert own[seat].attacks == shared.evidence.attacks
        assert own[seat].acts == shared.evidence.acts
        checked += 1

    play_out(game, bots, visit=visit)
    assert checked > 20
    assert {id(b._susp.evidence) for b in bots if b._susp} == {id(shared.evidence)}


def test_copies_share_one_copy_of_a_shared_evidence() -> None:
    evidence = Evidence(5)
    a, b = Suspicion(5, evidence), Suspicion(5, evidence)
    evidence.attacks[1][2] = 1.0
    memo: dict[int, Evidence] = {}
    ca, cb = a.copy(memo), b.copy(memo)
    assert ca.evidence is cb.evidence and ca.evidence is not evidence
    ca.evidence.attacks[1][2] = 2.0
    assert evidence.attacks[1][2] == 1.0
    assert Suspicion(5, evidence).copy().evidence is not evidence


@pytest.mark.parametrize(("n", "mode", "seed"), CASES)
def test_kept_beliefs_equal_a_fresh_fit_at_every_decision(n: int, mode: str, seed: int) -> None:
    """Beliefs kept across changes between seats whose beliefs are fixed are exactly what a
    fresh fit of the whole matrix gives."""
    game = Game.new(n, mode, seed)
    bots = new_bots(game, seed)
    kept = 0

    def visit(g: Game, k: int) -> None:
        nonlocal kept
        seat = g.pending.seat
        susp = bots[seat]._susp
        assert susp is not None
        view = build_view(g, seat, since=0)
        susp.feed(view)
        before, old = susp._version, susp._beliefs
        got = susp.beliefs(view)
        kept += got is old and susp._version != before  # moved on without a fit
        assert got == Suspicion(n, susp.evidence)._compute(view)

    play_out(game, bots, visit=visit)
    assert kept > 0  # the beliefs were kept across such changes at least once


@settings(max_examples=300, deadline=None)
@given(
    side=st.integers(0, 2),
    count=st.integers(1, 6),
    scores=st.lists(st.floats(-50.0, 50.0), min_size=6, max_size=6),
)
def test_one_side_left_fits_exactly_that_side(side: int, count: int, scores: list[float]) -> None:
    """When every hidden seat must be on one side, the fit gives each exactly that side whatever
    the scores — which is why such seats are fixed by the setup and never fitted."""
    prior = _ONE_SIDE[side]
    col = tuple(float(count) * p for p in prior)
    hidden = list(range(count))
    beliefs: list[Belief] = [(0.0, 0.0, 0.0)] * count
    _fit(beliefs, hidden, scores, prior, col)  # type: ignore[arg-type]
    assert beliefs == [prior] * count


def test_seats_of_the_one_side_left_are_fixed() -> None:
    """A 4-seat table seen by its Marshal once the Loner is out: the two hidden seats are the
    raiders (RULES.md §1 composition, §9: eliminated roles are public), fixed as such, and no evidence moves them."""
    game = Game.new(4, "classic", 3)
    loner = next(s.index for s in game.seats if s.role == "loner")
    game.seats[loner].alive = False
    view = build_view(game, game.marshal, since=0)
    susp = Suspicion(4)
    susp.feed(view)
    raiders = [s.index for s in game.seats if s.role == "raider"]
    assert set(susp.beliefs(view)[r] for r in raiders) == {(0.0, 1.0, 0.0)}
    setup = _prepare(view, _key(view))
    assert setup.free == () and set(raiders) <= setup.fixed


_PRIORS = st.sampled_from(
    [(0.5, 0.5, 0.0), (0.0, 0.5, 0.5), (0.5, 0.0, 0.5), (0.25, 0.5, 0.25), (1 / 3, 1 / 3, 1 / 3)]
)


@settings(max_examples=400, deadline=None)
@given(
    size=st.sampled_from([2, 3]),
    scores=st.lists(st.floats(-9.0, 9.0), min_size=3, max_size=3),
    prior=_PRIORS,
    col=st.tuples(*[st.integers(0, 3).map(float)] * 3),
)
def test_small_fits_equal_the_general_fit(
    size: int, scores: list[float], prior: Belief, col: Belief
) -> None:
    """The fits of two and three hidden seats on plain variables give exactly (bit for bit) what
    the general fit gives, for any scores, priors and column counts."""
    hidden = [2, 0, 1][:size]
    general: list[Belief] = [(0.0, 0.0, 0.0)] * 3
    small: list[Belief] = [(0.0, 0.0, 0.0)] * 3
    _fit_any(general, hidden, scores, prior, col)
    (_fit_2 if size == 2 else _fit_3)(small, hidden, scores, prior, col)
    assert small == general
