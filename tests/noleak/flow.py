"""Play a game through the table runner and check everything each seat is given.

:func:`play_checked` runs one game with :func:`harness.agents.table.play_game` (rule bots or random
agents, every one behind an :class:`InspectedAgent` that checks the views it receives — the rule
bot's only inputs), keeps a model-seat :class:`~harness.agents.transcript.Transcript` per seat for a
history policy, and every ``every`` decisions checks every seat's view, JSON, Markdown and prompts
against the seat's account with :func:`tests.noleak.check.check_seat_outputs`.  Views are looked
up through :mod:`harness.engine.view` at call time, so a test that replaces ``build_view`` or
``filter_event`` there (the mutation test) changes what is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import harness.engine.view as engine_view
from harness.agents.rulebot import RuleBot
from harness.agents.seat import Decided
from harness.agents.seat_protocol import Agent, RandomAgent
from harness.agents.table import play_game
from harness.agents.transcript import Transcript
from harness.engine import Game, SeatView
from harness.views.names import default_names

from .account import Account
from .check import check_seat_outputs, seat_outputs


@dataclass
class FlowReport:
    """What one checked game found and covered."""

    game: Game
    leaks: list[str] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)  # output label -> times checked
    event_types: Counter[str] = field(default_factory=Counter)  # event types in checked views
    decisions: int = 0
    compactions: int = 0  # history restarts of the conversation policy (context budget)


class InspectedAgent(Agent):
    """Passes everything to ``inner`` and has every view it receives checked first."""

    def __init__(self, inner: Agent, flow: _Flow) -> None:
        super().__init__(inner.name)
        self.kind = inner.kind  # type: ignore[misc]
        self.inner = inner
        self.flow = flow
        self.seat = -1

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self.seat = seat
        self.inner.new_game(game_id, seat, seed)

    def observe(self, view: SeatView) -> None:
        self.flow.inspect_input(self.seat, view, f"{self.inner.kind}.observe")
        self.inner.observe(view)

    async def choose(self, view: SeatView, options: Sequence[str]) -> Any:
        self.flow.inspect_input(self.seat, view, f"{self.inner.kind}.choose")
        return await self.inner.choose(view, options)


class _Flow:
    def __init__(
        self,
        game: Game,
        names: Sequence[str],
        locale: str,
        every: int,
        policy: str | None,
        context_tokens: int | None,
        transcript_seats: Sequence[int],
        history_every: int,
        stop_when: Callable[[FlowReport], bool] | None,
    ) -> None:
        self.history_every = history_every
        self.stop_when = stop_when
        self.game = game
        self.names = list(names)
        self.locale = locale
        self.every = every
        self.report = FlowReport(game)
        self.account = Account.from_game(game)
        self.since = [0] * game.n  # event_count of each seat's previous checked render
        self.policy = policy
        self.transcripts = {
            seat: Transcript(self.names, locale, policy=policy, context_tokens=context_tokens)
            for seat in transcript_seats
            if policy
        }
        self.clean: set[tuple[int, str]] = set()  # (seat, message) already found clean
        self.requests: dict[int, int] = {}  # seat -> transcript requests so far

    def check(self, seat: int, outputs: dict[str, Any]) -> None:
        r = self.report
        r.leaks += check_seat_outputs(
            self.game, seat, outputs, account=self.account, names=self.names
        )
        r.checked.update(outputs.keys())

    def inspect_input(self, seat: int, view: SeatView, label: str) -> None:
        self.report.event_types.update(e["t"] for e in view.events)
        self.check(seat, {label: view})

    def checkpoint(self) -> None:
        """Every seat: its view with the events since its previous checkpoint (the first one
        from the deal), and every render of it.  Between them the checkpoints cover the whole
        event history of every seat: the events before ``since`` were checked already, and a
        seat's filtered event never changes."""
        g = self.game
        for seat in range(g.n):
            view = engine_view.build_view(g, seat, since=self.since[seat])
            self.since[seat] = view.event_count
            self.report.event_types.update(e["t"] for e in view.events)
            self.check(seat, seat_outputs(view, self.names, self.locale))

    def transcript(self, view: SeatView, decided: Decided) -> None:
        seat = view.viewer
        t = self.transcripts.get(seat)
        if t is None:
            return
        pending = view.pending
        messages = t.request(view, pending.options if pending else None)
        self.requests[seat] = self.requests.get(seat, 0) + 1
        if (self.requests[seat] - 1) % self.history_every == 0:
            fresh = [m for m in messages if (seat, m["content"]) not in self.clean]
            before = len(self.report.leaks)
            self.check(seat, {f"history[{self.policy}]": fresh})
            if len(self.report.leaks) == before:
                self.clean.update((seat, m["content"]) for m in fresh)
        t.answered(json.dumps({"choice": decided.option, "reason": "checked"}))

    async def on_decision(self, game: Game, view: SeatView, decided: Decided) -> None:
        self.transcript(view, decided)
        self.report.decisions += 1
        if self.report.decisions % self.every == 0:
            self.checkpoint()
        if self.stop_when is not None and self.stop_when(self.report):
            raise _Stopped


class _Stopped(Exception):
    """Ends a checked game early (``stop_when``)."""


def seed_with(n_seats: int, mode: str, characters: str | Sequence[str], start: int = 0) -> int:
    """The first seed from ``start`` whose deal seats every one of ``characters``."""
    wanted = {characters} if isinstance(characters, str) else set(characters)
    return next(
        seed
        for seed in range(start, start + 5000)
        if wanted <= {s.character for s in Game.new(n_seats, mode, seed).seats}
    )


def play_checked(
    n_seats: int,
    mode: str,
    seed: int,
    *,
    bots: bool = True,
    every: int = 10,
    locale: str = "en",
    policy: str | None = "conversation",
    context_tokens: int | None = None,
    transcript_seats: Sequence[int] | None = None,
    history_every: int = 3,
    names: Sequence[str] | None = None,
    stop_when: Callable[[FlowReport], bool] | None = None,
) -> FlowReport:
    """Play one game (rule bots, or random agents with ``bots=False``) and check every seat; see
    the module docstring.  ``stop_when(report)``, asked after each decision, may end the game
    early (a test that has seen what it needed)."""
    game = Game.new(n_seats, mode, seed)
    names = list(names) if names is not None else default_names(n_seats)
    seats = range(n_seats) if transcript_seats is None else transcript_seats
    flow = _Flow(
        game, names, locale, every, policy, context_tokens, seats, history_every, stop_when
    )
    agents: list[Agent] = [
        InspectedAgent(RuleBot(seed=seed) if bots else RandomAgent(seed=seed), flow)
        for _ in range(n_seats)
    ]
    with contextlib.suppress(_Stopped):
        asyncio.run(play_game(game, agents, game_id=f"noleak-{mode}-{n_seats}-{seed}",
                              on_decision=flow.on_decision))  # fmt: skip
    flow.checkpoint()
    flow.report.compactions = sum(t.compactions for t in flow.transcripts.values())
    return flow.report


__all__ = ["FlowReport", "InspectedAgent", "play_checked", "seed_with"]
