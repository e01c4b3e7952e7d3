"""A seat driven by an MCP client (``kind: mcp``): the table posts the seat's protocol messages to
an :class:`McpChannel`, the MCP tools (:mod:`harness.integrations.mcp_tools`) read them and hand
the client's choice back.  The seat itself is an :class:`~harness.agents.external_seat.ExternalSeat`
with an :class:`McpBackend`, so its timer, fallbacks and records are those of every external agent.

* A decision waits in the channel until the client chooses, or until the seat's deadline: then the
  seat falls back (``timeout``) as for any agent that does not answer in time.
* A choice that is not one of the options (or not a valid answer: reasoning too long...) is refused
  with a message the client can act on, and recorded as an attempt of the decision; the client may
  choose again before the deadline.  The :data:`MAX_REFUSED`-th refused choice ends the decision
  with that answer: an ``invalid_answer`` fallback, as a remote agent's unknown id is.
* The channel holds one pending decision at a time: a player of kind ``mcp`` sits at most once in
  a game, and its games are played one after the other (``bangarena mcp`` checks both).
* A choice may carry the client's usage (tokens, dollars, model): it is validated as the
  protocol's :class:`~harness.agents.wire_protocol.Usage` and flows into the run's spend ledger
  and caps like a Python agent's.
* :meth:`McpChannel.close` ends the client's part in the current game (an Inspect solver that
  returned): the pending decision and every later one of that game fall back at once, as errors.

Everything the client can read is the seat's protocol messages (game start, decisions) and, at a
game's end, the seat's own outcome and the winning side: nothing RULES.md §9 hides from the seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from .decision_record import Attempt
from .external_seat import AgentBackend, AgentFault, _attempt, _fault_of
from .wire_protocol import MAX_ANSWER_BYTES, AgentAnswer, DecisionMessage, GameStartMessage

__all__ = ["MAX_REFUSED", "MAX_WAIT_S", "ChoiceRefused", "McpBackend", "McpChannel"]

MAX_REFUSED = 3  # refused choices per decision; the last one ends the decision as invalid
MAX_WAIT_S = 60.0  # the longest a wait_for_decision call blocks


class ChoiceRefused(ValueError):
    """A choice the seat does not take (one line, for the client to read)."""


@dataclass
class _Pending:
    message: DecisionMessage
    deadline: float  # time.monotonic()
    answer: asyncio.Future[Any]
    attempts: list[Attempt]
    posted: float = field(default_factory=time.monotonic)
    refused: int = 0


@dataclass
class _Game:
    game_id: str
    seat: int
    start: GameStartMessage | None = None
    start_shown: bool = False
    result: dict[str, Any] | None = None
    result_shown: bool = False
    timeouts: list[int] = field(default_factory=list)


class McpChannel:
    """The state one MCP player's client reads and acts on (see the module docstring).  All
    methods run in the event loop of the run."""

    def __init__(self, player: str, games_total: int = 0) -> None:
        self.player = player
        self.games_total = games_total
        self.games_played = 0
        self.game: _Game | None = None
        self.pending: _Pending | None = None
        self.finished: dict[str, Any] | None = None  # set when the run is over
        self._unshown_result: dict[str, Any] | None = None  # a game before the current one
        self.client_seen = asyncio.Event()  # the first tool call: the run starts then
        self.closed: str | None = None  # why the current game's decisions fall back at once
        self._changed = asyncio.Event()

    # ---------------------------------------------------------------- the table's side

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    def new_game(self, game_id: str, seat: int) -> None:
        previous = self.game
        self.game = _Game(game_id, seat)
        self.closed = None
        if previous is not None and previous.result is not None and not previous.result_shown:
            self._unshown_result = previous.result
        self._notify()

    def post_start(self, message: GameStartMessage) -> None:
        if self.game is None or self.game.game_id != message.game_id:
            self.new_game(message.game_id, message.seat)
        assert self.game is not None
        self.game.start = message
        self.game.start_shown = False
        self._notify()

    async def decide(
        self, message: DecisionMessage, deadline: float, attempts: list[Attempt]
    ) -> Any:
        """Wait for the client's answer to ``message`` (the caller's timeout ends the wait)."""
        if self.closed is not None:
            raise AgentFault("agent_error", self.closed)
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.pending = pending = _Pending(message, deadline, answer, attempts)
        self._notify()
        try:
            return await answer
        finally:
            if self.pending is pending:
                self.pending = None
                unanswered = answer.cancelled() or not answer.done()  # the deadline passed
                if unanswered and self.game is not None:
                    self.game.timeouts.append(message.decision_index)
                self._notify()

    def game_over(self, game_id: str, result: dict[str, Any]) -> None:
        self.games_played += 1
        if self.game is not None and self.game.game_id == game_id:
            self.game.result = result
            self.game.result_shown = False
        self._notify()

    def close(self, reason: str) -> None:
        """The client plays no more of the current game: its pending decision and the later
        ones fall back at once (an ``error`` fallback with ``reason``)."""
        self.closed = reason
        p = self.pending
        if p is not None and not p.answer.done():
            p.answer.set_exception(AgentFault("agent_error", reason))
        self._notify()

    def finish(self, summary: dict[str, Any]) -> None:
        self.finished = summary
        self._notify()

    # ---------------------------------------------------------------- the client's side

    def _counts(self) -> dict[str, Any]:
        return {"player": self.player, "games_played": self.games_played, "games": self.games_total}

    def _take_result(self) -> dict[str, Any] | None:
        """The last finished game's outcome if the client has not seen it yet (marks it seen)."""
        if self._unshown_result is not None:
            result, self._unshown_result = self._unshown_result, None
            return result
        g = self.game
        if g is not None and g.result is not None and not g.result_shown:
            g.result_shown = True
            return g.result
        return None

    def game_start(self) -> dict[str, Any]:
        """The current game's start message (the seat's role, goal, intel and players)."""
        self.client_seen.set()
        g = self.game
        if g is None or g.start is None:
            return {"status": self._idle_status(), **self._counts()}
        g.start_shown = True
        return {"status": "game", "game": g.start.model_dump(mode="json"), **self._counts()}

    def _idle_status(self) -> str:
        if self.finished is not None:
            return "finished"
        if self.game is None:
            return "starting"
        return "waiting"

    def status(self) -> dict[str, Any]:
        """What the client should do now: ``decision`` (choose), ``game_over`` (a game of the
        seat ended; its outcome is attached once), ``waiting`` (other seats are playing; call
        wait again), ``starting`` or ``finished`` (the run is over)."""
        self.client_seen.set()
        out: dict[str, Any] = {}
        p = self.pending
        if p is not None and not p.answer.done():
            g = self.game
            left = max(0.0, p.deadline - time.monotonic())
            out["status"] = "decision"
            out["decision"] = p.message.model_copy(
                update={"deadline_s": round(left, 3)}
            ).model_dump(mode="json")
            if g is not None and g.start is not None and not g.start_shown:
                g.start_shown = True
                out["game"] = g.start.model_dump(mode="json")
        result = self._take_result()
        if "status" not in out:
            out["status"] = "game_over" if result is not None else self._idle_status()
        if result is not None:
            out["game_over"] = result
        if self.finished is not None and out["status"] == "finished":
            out["summary"] = self.finished
        out.update(self._counts())
        return out

    async def wait(self, timeout_s: float) -> dict[str, Any]:
        """:meth:`status` as soon as it is not ``waiting``/``starting``, or after ``timeout_s``
        (at most :data:`MAX_WAIT_S`)."""
        self.client_seen.set()
        until = time.monotonic() + min(max(0.0, timeout_s), MAX_WAIT_S)
        while True:
            changed = self._changed
            if self._ready():
                return self.status()
            left = until - time.monotonic()
            if left <= 0:
                return self.status()
            try:
                await asyncio.wait_for(changed.wait(), left)
            except TimeoutError:
                return self.status()

    async def changed(self, timeout_s: float) -> None:
        """Return at the channel's next change (a decision posted or answered, a game's start
        or end, the run's end), or after ``timeout_s``."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), max(0.0, timeout_s))

    def _ready(self) -> bool:
        p = self.pending
        if p is not None and not p.answer.done():
            return True
        if self.finished is not None or self._unshown_result is not None:
            return True
        g = self.game
        return g is not None and g.result is not None and not g.result_shown

    def choose(
        self,
        option_id: str,
        reasoning: str | None = None,
        decision_index: int | None = None,
        usage: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Answer the pending decision; :class:`ChoiceRefused` when there is none, when
        ``decision_index`` names another one, or when the answer is not valid (``usage``
        included: a :class:`~harness.agents.wire_protocol.Usage`)."""
        self.client_seen.set()
        p = self.pending
        if p is None or p.answer.done():
            late = self.game.timeouts[-1:] if self.game is not None else []
            note = f" (decision {late[0]} timed out and fell back)" if late else ""
            state = self._idle_status() if self.finished is None else "finished"
            raise ChoiceRefused(
                f"no decision is pending{note}; the seat is {state}: call wait_for_decision"
            )
        index = p.message.decision_index
        if decision_index is not None and decision_index != index:
            raise ChoiceRefused(
                f"decision {decision_index} is not pending; the pending decision is {index}"
            )
        data: dict[str, Any] = {"option": option_id}
        if reasoning is not None:
            data["reasoning"] = reasoning
        if usage:
            data["usage"] = usage
        problem = _problem(data, [o.id for o in p.message.options])
        if problem is None:
            p.answer.set_result(data)
            self._notify()
            return {"status": "accepted", "decision_index": index, "option": option_id}
        p.refused += 1
        left = p.deadline - time.monotonic()
        if p.refused >= MAX_REFUSED or left <= 0:
            p.answer.set_result(data)  # the seat records it as invalid and falls back
            self._notify()
            raise ChoiceRefused(
                f"{problem[1]}; after {p.refused} refused choices decision {index} falls back"
            )
        text = json.dumps(data, ensure_ascii=False)
        p.attempts.append(_attempt(p.posted, problem[0], problem[1], text))
        ids = ", ".join(o.id for o in p.message.options)
        raise ChoiceRefused(
            f"{problem[1]}; choose one of: {ids} ({left:.1f} s left, "
            f"{MAX_REFUSED - p.refused} more refused choices end the decision)"
        )


def _problem(data: dict[str, Any], options: list[str]) -> tuple[Any, str] | None:
    """``(error kind, message)`` when ``data`` is not a valid answer among ``options``."""
    if any(isinstance(v, str) and len(v) > MAX_ANSWER_BYTES for v in data.values()):
        return "oversized", f"answer larger than {MAX_ANSWER_BYTES} bytes"
    try:
        answer = AgentAnswer.model_validate(data)
    except ValidationError as e:
        fault = _fault_of(e, "")
        return fault.kind, fault.message
    if answer.option not in options:
        return "illegal_option", f"{answer.option[:80]!r} is not one of the options"
    return None


class McpBackend(AgentBackend):
    """A seat's messages to its :class:`McpChannel`."""

    def __init__(self, channel: McpChannel) -> None:
        self.channel = channel

    def new_game(self, game_id: str, seat: int) -> None:
        self.channel.new_game(game_id, seat)

    async def start(self, message: GameStartMessage, deadline: float) -> None:
        self.channel.post_start(message)

    async def decide(
        self, message: DecisionMessage, deadline: float, attempts: list[Attempt]
    ) -> Any:
        return await self.channel.decide(message, deadline, attempts)
