"""An Inspect solver or agent plays a BangArena seat through one tool, ``choose``.

The seat is an :class:`~harness.agents.external_seat.ExternalSeat` fed by an
:class:`~harness.agents.mcp_seat.McpChannel` (the channel of MCP clients), so its timer, fallbacks
and records are those of every external agent.  What the solver sees:

* the first user message: the seat's game (role, goal, intel, players) and its first decision
  (the view as Markdown, the options and the seconds left), from ``prompts/inspect_seat.j2``;
* the ``choose(option_id, reasoning?)`` tool, whose result is the next decision's view, or the
  game's end.  An option id that is not one of the options is a tool error (the decision stays
  pending: the solver may choose again); the third refused choice, or no choice before the
  deadline, is a recorded fallback and the result shows the next decision.

The usage of each decision is Inspect's model usage of the sample since the previous accepted
choice (every model the solver called: input and output tokens, cost when Inspect knows it): it
is recorded with the decision and, in a league run, counted in the spend ledger and its caps.

A solver that returns before its game is over (or never calls ``choose``) leaves its remaining
decisions to the fallback move, at once, each recorded as an ``error`` fallback saying so.

Nothing reaches the solver that RULES.md §9 hides from the seat: the messages are the protocol
messages of every external agent and, at the end, the seat's own outcome and the winning side.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.tool import Tool, ToolError, tool
from inspect_ai.util import store

from harness.agents.mcp_seat import ChoiceRefused, McpChannel
from harness.views.render import environment

__all__ = ["SEAT_KEY", "SolverSeat", "choose", "current_seat", "instructions", "status_text"]

SEAT_KEY = "bangarena_seat"  # the sample store's key of the seat's session id
STOPPED = "the solver finished before the end of its game"
POLL_S = 5.0  # a wait for the next decision wakes at least this often (to see a failed game)

_SEATS: dict[str, SolverSeat] = {}  # session id -> the seat of a running sample


def instructions() -> str:
    """The system message of a solver's seat."""
    return environment().get_template("inspect_seat.j2").render(part="system", s={}).strip()


def status_text(status: dict[str, Any], note: str | None = None) -> str:
    """What the solver reads for ``status`` (a decision or the game's end)."""
    template = environment().get_template("inspect_seat.j2")
    return template.render(part="status", s=status, note=note).strip() + "\n"


@dataclass
class SolverSeat:
    """One sample's seat: the channel its decisions come through, the id of the game it plays
    and ``ended``, which completes with the sample's result once the game's record is written."""

    channel: McpChannel
    game_id: str
    ended: asyncio.Future[dict[str, Any]]
    on_finish: Callable[[], Awaitable[None]] | None = None  # after the game's result
    session: str = field(default_factory=lambda: uuid.uuid4().hex)
    _usage_mark: tuple[int, int, float] = (0, 0, 0.0)
    _game: Any = None  # the channel's record of this game, once it began
    _shown: int = 0  # the index of the last decision the solver was shown

    @property
    def game(self) -> Any:
        g = self.channel.game
        if g is not None and g.game_id == self.game_id:
            self._game = g
        return self._game

    def register(self) -> None:
        _SEATS[self.session] = self
        store().set(SEAT_KEY, self.session)

    def unregister(self) -> None:
        _SEATS.pop(self.session, None)

    # ------------------------------------------------------------------ reading

    def _pending(self) -> Any:
        p = self.channel.pending
        if p is None or p.answer.done():
            return None
        return p if p.message.game_id == self.game_id else None

    def over(self) -> bool:
        g = self.game
        return self.ended.done() or (g is not None and g.result is not None)

    def status(self) -> dict[str, Any]:
        """The seat's decision now (with the game's start the first time), else its end."""
        p = self._pending()
        if p is not None:
            left = max(0.0, p.deadline - time.monotonic())
            out: dict[str, Any] = {
                "status": "decision",
                "decision": p.message.model_copy(update={"deadline_s": round(left, 3)}).model_dump(
                    mode="json"
                ),
            }
            self._shown = p.message.decision_index
            g = self.game
            if g is not None and g.start is not None and not g.start_shown:
                g.start_shown = True
                out["game"] = g.start.model_dump(mode="json")
            return out
        if self.over() or self.channel.finished is not None:
            g = self.game
            return {"status": "game_over", "game_over": g.result if g is not None else None}
        return {"status": "waiting"}

    async def next_status(self) -> dict[str, Any]:
        """The next decision or the game's end (other seats may play first)."""
        while True:  # bounded by the game: every decision ends by its deadline
            status = self.status()
            if status["status"] != "waiting":
                return status
            await self.channel.changed(POLL_S)

    # ------------------------------------------------------------------ acting

    def _usage(self) -> tuple[dict[str, Any] | None, tuple[int, int, float]]:
        """The sample's model usage since the last accepted choice, and the new mark."""
        try:
            from inspect_ai.model._model import sample_model_usage

            usage = sample_model_usage()
        except (ImportError, LookupError):  # outside a sample: nothing to count
            return None, self._usage_mark
        tin = sum(u.input_tokens for u in usage.values())
        tout = sum(u.output_tokens for u in usage.values())
        cost = sum(u.total_cost or 0.0 for u in usage.values())
        known = all(u.total_cost is not None for u in usage.values()) and bool(usage)
        mark = (tin, tout, cost)
        d_in, d_out = tin - self._usage_mark[0], tout - self._usage_mark[1]
        if not usage or (d_in, d_out) == (0, 0):
            return None, mark
        out: dict[str, Any] = {"input_tokens": d_in, "output_tokens": d_out}
        if known:
            out["cost_usd"] = round(max(0.0, cost - self._usage_mark[2]), 8)
        out["model"] = ",".join(sorted(usage))[:200]
        return out, mark

    async def choose(self, option_id: str, reasoning: str | None) -> str:
        p = self._pending()
        if p is None or p.message.decision_index != self._shown:
            # the decision shown fell back at its deadline (the next may be pending already),
            # or the game is over: nothing is chosen
            status = await self.next_status()
            if status["status"] == "game_over" and p is None and self.over():
                raise ToolError("no decision is pending: " + status_text(status).strip())
            note = f"Decision {self._shown} fell back at its deadline; nothing was chosen."
            return status_text(status, note=note)
        index = p.message.decision_index
        usage, mark = self._usage()
        try:
            self.channel.choose(option_id, reasoning, index, usage)
        except ChoiceRefused as e:
            if self._pending() is p:  # still pending: the solver may choose again
                raise ToolError(str(e)) from None
            self._usage_mark = mark  # the last refused answer carried the usage
            return status_text(await self.next_status(), note=f"Refused: {e}.")
        self._usage_mark = mark
        return status_text(await self.next_status())

    def close(self) -> None:
        """The solver returned: the rest of its game falls back at once."""
        g = self.game
        if not self.over() and (g is None or self.channel.game is g):
            self.channel.close(STOPPED)

    async def finish(self) -> dict[str, Any]:
        """Close the seat and wait for the game's end: the sample's result."""
        self.close()
        try:
            return await self.ended
        finally:
            self.unregister()
            if self.on_finish is not None:
                await self.on_finish()


def current_seat() -> SolverSeat:
    """The seat of the running sample (:class:`ToolError` outside a BangArena sample)."""
    seat = seat_of_sample()
    if seat is None:
        raise ToolError("no BangArena seat in this sample: run the bangarena task")
    return seat


def seat_of_sample() -> SolverSeat | None:
    """The running sample's seat, if it has one."""
    session = store().get(SEAT_KEY)
    return _SEATS.get(session) if isinstance(session, str) else None


def first_messages(status: dict[str, Any]) -> list[Any]:
    """The solver's first messages: the instructions and the game with its first decision."""
    return [ChatMessageSystem(content=instructions()), ChatMessageUser(content=status_text(status))]


@tool(name="choose")
def choose() -> Tool:
    """The ``choose`` tool of a BangArena seat (add it to your agent's tools: ``react(tools=
    [choose(), ...])``; the task also puts it in the sample's tools)."""

    async def execute(option_id: str, reasoning: str | None = None) -> str:
        """Play one option of your pending BangArena decision; returns your next decision.

        Args:
            option_id: One of the option ids listed in the decision, exactly as written.
            reasoning: Optional short reasoning for the choice (kept in the records).
        """
        if len(option_id) > 256:
            raise ToolError("option_id is longer than 256 characters: give an id as listed")
        return await current_seat().choose(option_id, reasoning)

    return execute
