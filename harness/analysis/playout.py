"""Bot-only playouts on the hot path: no records, no narration, no runner.

Contract: :func:`play_out` plays ``game`` to its end with ``bots[seat].decide`` and gives every
bot exactly the decisions and event feed the table runner (:class:`harness.agents.table.Table`)
would: a forced decision (one option) is applied without building a view, and the bot's next view
carries every event since its previous one, so its picture of the table is the same.  A real
decision's view is a :class:`~harness.engine.live_view.LiveView`: the fields of the
:class:`~harness.engine.SeatView` the runner would build, each read from the game only when the
bot reads it.  The same
game and bots therefore give the same choices and the same result as
:func:`harness.agents.table.play_game` (tests/analysis/test_playout.py holds that over many seeds).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from harness.agents.rulebot import RuleBot, Suspicion
from harness.agents.rulebot.suspicion import Evidence
from harness.engine import Game
from harness.engine.live_view import LiveSeat, LiveView, live_seats

MAX_DECISIONS = 20_000


class PlayoutTooLong(RuntimeError):
    """A playout passed its decision limit."""


def new_bots(
    game: Game, seed: int, game_id: str = "playout", fed: Sequence[Suspicion] | None = None
) -> list[RuleBot]:
    """One fresh rule bot per seat of ``game``, started for a game with ``seed``; the bots share
    one :class:`~harness.agents.rulebot.suspicion.Evidence` (the public attack matrix, the same
    for every seat), so each event is read once.  With ``fed`` (:func:`fed_suspicions` of a
    position this game continues), each bot starts from a copy of its seat's model instead of
    reading that feed again: the same picture of the table."""
    bots = [RuleBot(f"bot{i}") for i in range(game.n)]
    evidence = Evidence(game.n)
    shared: dict[int, Evidence] = {}
    for i, b in enumerate(bots):
        b.new_game(game_id, i, seed)
        b.resume(Suspicion(game.n, evidence) if fed is None else fed[i].copy(shared))
    return bots


def fed_suspicions(game: Game) -> list[Suspicion]:
    """Each seat's suspicion model after reading the whole event feed of ``game`` so far (what a
    fresh rule bot reads first), sharing one evidence; for :func:`new_bots` of copies of this
    position."""
    evidence = Evidence(game.n)
    out = []
    for seat in range(game.n):
        s = Suspicion(game.n, evidence)
        view = LiveView(game, seat, 0)
        s.feed(view)
        s.beliefs(view)  # kept until the table changes, as the bot would keep them
        out.append(s)
    return out


def play_out(
    game: Game,
    bots: Sequence[RuleBot],
    seen: list[int] | None = None,
    max_decisions: int = MAX_DECISIONS,
    visit: Callable[[Game, int], None] | None = None,
    until: Callable[[Game], bool] | None = None,
) -> int:
    """Play ``game`` to the end; returns the number of decisions made.  ``seen[s]`` is the event
    count of seat ``s``'s previous view (default: none seen, the first view carries the whole
    feed).  ``visit(game, k)`` is called before the ``k``-th decision (0-based) is made; the
    playout stops early, before a decision, when ``until(game)`` is true."""
    seen = [0] * game.n if seen is None else seen
    with cycle_collector_paused():
        return _play(game, bots, seen, max_decisions, visit, until)


@contextmanager
def cycle_collector_paused() -> Iterator[None]:
    """Pause the cycle collector (when it runs) for a block that makes no reference cycles: its
    garbage goes by reference counting, and the collector's passes over the young objects would
    be pure cost (playouts and rollouts; tests/analysis/test_playout.py checks they leave
    nothing for the collector)."""
    paused = gc.isenabled()
    if paused:
        gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def _play(
    game: Game,
    bots: Sequence[RuleBot],
    seen: list[int],
    max_decisions: int,
    visit: Callable[[Game, int], None] | None,
    until: Callable[[Game], bool] | None,
) -> int:
    made = 0
    apply = game.apply
    seats: list[tuple[LiveSeat, ...] | None] = [None] * game.n  # each viewer's, made once
    while (d := game.pending) is not None:
        if made >= max_decisions:
            raise PlayoutTooLong(f"playout passed {max_decisions} decisions")
        if until is not None and until(game):
            break
        if visit is not None:
            visit(game, made)
        made += 1
        options = d.options
        if len(options) == 1:
            apply(options[0])
            continue
        seat = d.seat
        mine = seats[seat]
        if mine is None:
            mine = seats[seat] = live_seats(game, seat)
        ids = d.option_ids
        view = LiveView(game, seat, seen[seat], mine, ids)
        seen[seat] = len(game.events)
        choice = bots[seat].decide(view, ids)
        try:
            k = ids.index(choice)
        except ValueError:  # not an option id: the engine says why
            apply(choice)
            continue
        apply(options[k])  # the option itself: the engine need not parse its id again
    return made
