"""Play one game with one agent per seat: views in, options out, deadlines and fallbacks applied.

Each seat's view carries the events since that seat's previous view (the first carries the whole
feed), so agents read the feed incrementally.

**The walk goes one way.**  :meth:`Table.steps` plays the game and *yields* each decision as a
:class:`Step` (the game before the choice is applied, the seat's view, what was decided); whoever
iterates consumes them (a recorder writes a decision line, :mod:`harness.play.recorder`) and the
table calls nothing of theirs.  :meth:`Table.play` walks the same steps to the end; for simple
observers (narration, progress, tests) it hands each step to an ``on_decision`` hook.

:class:`Table` is the runner itself.  Besides playing (:meth:`Table.play`) it can **replay** a
recorded decision (:meth:`Table.replay`): the seat sees the same view and keeps the same state
(bots and random seats decide again and must choose what the record says; a model seat restores
its conversation from the record without calling the model), so a game stopped mid-way continues
exactly as if it had never stopped.

A game in which model seats fall back ``max_model_fallbacks`` times in a row (a model that never
answers validly: the R-5 move never attacks, so the game would not end) or that passes
``max_decisions`` is ended early and marked **void** with its reason (:attr:`TableResult.void`).

With ``signals`` (a :class:`~harness.agents.table_signals.TableSignals`) the table carries table
talk: after each decision the deciding seat's signal (in its model decision record) is offered to
the log, and before each view every seat is handed the signals it has not heard
(:meth:`Agent.hear`; rule bots ignore them).  A replayed decision offers its recorded signal again.
"""

from __future__ import annotations

import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

from harness.engine import Game, SeatView, build_view

from .seat import Decided, FallbackPolicy, FallbackReason, decide
from .seat_protocol import Agent, Choice
from .table_signals import TableSignals, public_seats

DEFAULT_MAX_DECISIONS = 20_000


@dataclass
class SeatStats:
    decisions: int = 0
    fallbacks: Counter[str] = field(default_factory=Counter)
    latency_s: float = 0.0


@dataclass
class TableResult:
    game: Game
    stats: list[SeatStats]
    void: str | None = None  # why the game was ended before its result

    @property
    def winning_side(self) -> str | None:
        return self.game.winning_side

    @property
    def winners(self) -> tuple[int, ...]:
        return self.game.winners


class GameDidNotEnd(RuntimeError):
    """A game passed its decision limit: typically every seat is falling back to the R-5 move
    (which never attacks), e.g. when a provider keeps failing."""


class ReplayMismatch(RuntimeError):
    """A recorded decision that the replayed seat does not reproduce (one-line message)."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """One recorded decision to replay.

    ``table_fallback`` says the table (not the seat itself) made the fallback move: the seat's
    answer was late, raised or was not an option.  ``record`` is a model seat's decision record.
    """

    option: str
    fallback: FallbackReason | None = None
    error: str | None = None
    latency_s: float = 0.0
    record: Mapping[str, Any] | None = None
    table_fallback: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """One decision the table made: ``game`` before the choice is applied (its pending decision
    is the one decided), the ``view`` the seat was shown, and what was ``decided``."""

    game: Game
    view: SeatView
    decided: Decided


DecisionHook = Callable[[Game, SeatView, Decided], Awaitable[None] | None]


class Table:
    """One game in play; see the module docstring."""

    def __init__(
        self,
        game: Game,
        agents: Sequence[Agent],
        *,
        game_id: str = "game",
        timeout: float | None = None,
        policy: FallbackPolicy = "simplest",
        autopilots: Sequence[Agent] | None = None,
        on_decision: DecisionHook | None = None,
        max_decisions: int = DEFAULT_MAX_DECISIONS,
        max_model_fallbacks: int | None = None,
        signals: TableSignals | None = None,
    ) -> None:
        """``autopilots[i]`` (a rule bot) decides for seat i on fallback when ``policy`` is
        ``autopilot``; ``signals`` carries table talk (see the module docstring)."""
        if len(agents) != game.n:
            raise ValueError(f"{len(agents)} agents for {game.n} seats")
        self.game = game
        self.agents = list(agents)
        self.game_id = game_id
        self.timeout = timeout
        self.policy: FallbackPolicy = policy
        self.autopilots = list(autopilots) if autopilots else None
        self.on_decision = on_decision
        self.max_decisions = max_decisions
        self.max_model_fallbacks = max_model_fallbacks
        self.signals = signals
        for i, agent in enumerate(self.agents):
            agent.new_game(game_id, i, game.seed)
        if self.autopilots:
            for i, bot in enumerate(self.autopilots):
                bot.new_game(game_id, i, game.seed)
        self.seen = [0] * game.n
        self.stats = [SeatStats() for _ in range(game.n)]
        self.decisions = 0
        self.model_fallback_streak = 0  # model-seat decisions falling back in a row
        self._last_fallback = ""
        self.void: str | None = None  # why the walk ended the game early (see void_reason)

    # ----------------------------------------------------------------- one decision

    def _next_view(self) -> tuple[int, list[str], SeatView]:
        d = self.game.pending
        if d is None:
            raise ValueError("the game is over")
        view = build_view(self.game, d.seat, since=self.seen[d.seat])
        self.seen[d.seat] = view.event_count
        if self.signals is not None:
            self.signals.tell(d.seat, self.agents[d.seat])
        if self.autopilots:
            self.autopilots[d.seat].observe(view)
        return d.seat, d.option_ids, view

    def _count(self, seat: int, options: Sequence[str], decided: Decided) -> None:
        st = self.stats[seat]
        st.decisions += 1
        st.latency_s += decided.latency_s
        if decided.fallback:
            st.fallbacks[decided.fallback] += 1
        self.decisions += 1
        if self.agents[seat].self_timed and len(options) > 1:
            if decided.fallback:
                self.model_fallback_streak += 1
                self._last_fallback = decided.fallback + (
                    f": {decided.error}" if decided.error else ""
                )
            else:
                self.model_fallback_streak = 0

    async def step(self) -> Decided:
        """Ask the pending seat and apply its answer (or the fallback); ``on_decision`` hears it
        first."""
        view, decided = await self._ask()
        await self._notify(view, decided)
        self.game.apply(decided.option)
        return decided

    async def _notify(self, view: SeatView, decided: Decided) -> None:
        if self.on_decision is not None:
            r = self.on_decision(self.game, view, decided)
            if r is not None:
                await r

    async def _ask(self) -> tuple[SeatView, Decided]:
        """Ask the pending seat (the view it is shown, its answer or the fallback), counted and
        its signal offered; the choice is not applied yet."""
        seat, options, view = self._next_view()
        before = getattr(self.agents[seat], "before_choose", None)
        if before is not None:  # e.g. a model seat's belief probe: before the timer starts
            await before(view, options)
        decided = await decide(
            self.agents[seat],
            self.game,
            view,
            self.timeout,
            self.policy,
            self.autopilots[seat] if self.autopilots else None,
        )
        self._count(seat, options, decided)
        self._offer(seat, decided.record)
        return view, decided

    async def replay(self, rec: Recorded) -> Decided:
        """Apply a recorded decision, showing the seat the view it saw (see the module
        docstring); ``on_decision`` is not called.  Raises :class:`ReplayMismatch` when the
        record's choice is not an option or a bot would now choose differently."""
        seat, options, view = self._next_view()
        if rec.option not in options:
            raise ReplayMismatch(f"recorded choice {rec.option!r} is not one of {options}")
        agent = self.agents[seat]
        restore = getattr(agent, "restore", None) if agent.self_timed else None
        if restore is not None:
            record = dict(rec.record) if rec.record is not None else None
            try:
                restore(view, options, record)
            except ValueError as e:
                # A decision the table's timer cut off has no record: the live seat had built
                # its turn and dropped it, which is where a refused restore leaves it too.
                if record is not None or len(options) < 2:
                    raise ReplayMismatch(str(e)) from None
        elif agent.self_timed and len(options) > 1:
            pass  # a model seat without a conversation to restore: nothing to redo
        else:
            answer = await agent.choose(view, options)
            got = answer.option if isinstance(answer, Choice) else answer
            if rec.fallback is None and got != rec.option:
                raise ReplayMismatch(
                    f"seat {seat} ({agent.name}) chooses {got!r} on replay, the record says "
                    f"{rec.option!r}"
                )
        if rec.table_fallback and self.policy == "autopilot" and self.autopilots:
            with contextlib.suppress(Exception):  # as in the live fallback
                await self.autopilots[seat].choose(view, options)
        decided = Decided(rec.option, rec.fallback, rec.error, rec.latency_s, rec.record)
        self._count(seat, options, decided)
        self._offer(seat, rec.record)
        self.game.apply(rec.option)
        return decided

    def _offer(self, seat: int, record: Any) -> None:
        """Offer the signal of ``seat``'s decision record to the table's signals."""
        if self.signals is not None and record is not None:
            alive = [s.alive for s in self.game.seats]
            public = public_seats(self.game)
            self.signals.offer(seat, alive, len(self.game.events), record, public)

    # ----------------------------------------------------------------- the game

    def void_reason(self) -> str | None:
        """Why the game must be ended now without a result, or ``None``."""
        limit = self.max_model_fallbacks
        if limit is not None and self.model_fallback_streak >= limit:
            return (
                f"model seats fell back {self.model_fallback_streak} times in a row "
                f"(last: {self._last_fallback})"
            )
        if self.decisions >= self.max_decisions:
            fallbacks = sum(sum(st.fallbacks.values()) for st in self.stats)
            return (
                f"game {self.game_id} did not end within {self.max_decisions} decisions "
                f"({fallbacks} of them fallbacks)"
            )
        return None

    async def steps(self) -> AsyncIterator[Step]:
        """Play to the end, or until the game is void (:attr:`void`), yielding each decision
        before its choice is applied (see the module docstring); :meth:`result` after."""
        self.void = None
        while self.game.pending is not None:
            self.void = self.void_reason()
            if self.void is not None:
                break
            view, decided = await self._ask()
            yield Step(self.game, view, decided)
            self.game.apply(decided.option)

    def result(self) -> TableResult:
        """The game as the walk left it, the seats' counts, and why it is void (if it is)."""
        return TableResult(self.game, self.stats, self.void)

    async def play(self) -> TableResult:
        """Play to the end, or until the game is void; ``on_decision`` hears each step."""
        async for step in self.steps():
            await self._notify(step.view, step.decided)
        return self.result()


class TableSettings(TypedDict, total=False):
    """Settings :func:`play_game` passes on to :class:`Table` (defaults there)."""

    game_id: str
    timeout: float | None
    policy: FallbackPolicy
    autopilots: Sequence[Agent] | None
    on_decision: DecisionHook | None
    max_decisions: int


async def play_game(
    game: Game, agents: Sequence[Agent], **settings: Unpack[TableSettings]
) -> TableResult:
    """Run ``game`` to the end; :class:`GameDidNotEnd` when it passes ``max_decisions``.
    ``autopilots[i]`` (a rule bot) decides for seat i on fallback when ``policy`` is
    ``autopilot``."""
    result = await Table(game, agents, **settings).play()
    if result.void is not None:
        raise GameDidNotEnd(result.void)
    return result
