"""A seat played by a language model: the seat protocol around the shared :class:`LLMAgent`.

The seat's own deadline is the table's decision timer minus a safety margin that grows with the
timer and the event loop's measured lag (:func:`harness.agents.deadline.seat_margin`), so the
model agent can fall back (and record why) before the table's timer would cut it off.

A seat with a :class:`~harness.agents.prober.Prober` is asked its belief probes in
:meth:`ModelSeat.before_choose`, which the table awaits before the decision's timer starts.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from harness.engine import SeatView

from .deadline import seat_margin
from .llm_agent import LLMAgent
from .seat_protocol import Agent, Choice

if TYPE_CHECKING:
    from .prober import Prober

DEFAULT_DECISION_SECONDS = 60.0


class ModelSeat(Agent):
    kind = "model"
    self_timed = True

    def __init__(
        self,
        name: str,
        llm: LLMAgent,
        *,
        decision_seconds: float | None = None,
        view_json: Any = None,
    ) -> None:
        """``view_json(view) -> dict`` renders the view stored in each decision record."""
        super().__init__(name)
        self.llm = llm
        self.decision_seconds = decision_seconds or DEFAULT_DECISION_SECONDS
        self.view_json = view_json
        self.game_id = ""
        self.seat = -1
        self.index = 0
        self.prober: Prober | None = None

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self.game_id, self.seat, self.index = game_id, seat, 0
        if self.prober is not None:
            self.prober.new_game(game_id, seat, self.name)

    async def before_choose(self, view: SeatView, options: Sequence[str]) -> None:
        """Ask the belief probe due at this decision, if any (outside the decision timer)."""
        if self.prober is None:
            return
        due = self.prober.note(view, options)
        if due:
            await self.prober.probe(view, due, self.index + 1)

    async def choose(self, view: SeatView, options: Sequence[str]) -> Choice:
        margin = seat_margin(self.decision_seconds)  # grows with the timer and the loop's lag
        deadline = time.monotonic() + self.decision_seconds - margin
        self.index += 1
        context = {
            "game_id": self.game_id,
            "decision_index": self.index,
            "seat": view.viewer,
            "role": view.role,
            "player": self.name,
            "decision_kind": view.pending.kind if view.pending else None,
            "view_json": self.view_json(view) if self.view_json else None,
        }
        option, record = await self.llm.decide(view, options, deadline, context)
        error = None
        if record.fallback is not None and record.attempts:
            last = record.attempts[-1]
            error = f"{last.error_kind}: {last.error_message}" if last.error_kind else None
        return Choice(option, record.fallback, error, record)

    def hear(self, signals: Sequence[dict[str, Any]]) -> None:
        self.llm.hear(signals)

    def restore(self, view: SeatView, options: Sequence[str], record: Any) -> None:
        """Replay a recorded decision of this seat (a resumed game): the seat's conversation
        and decision count advance as if it had made it, without calling the model.
        ``record`` is the decision's model record (dict), or ``None`` for a decision the model
        was not asked (one option)."""
        self.index += 1
        if self.prober is not None:
            self.prober.note(view, options)  # a resumed game asks the same probes after it
        self.llm.restore(view, options, record or {})

    async def aclose(self) -> None:
        await self.llm.aclose()


def record_json(record: Any) -> str:
    return json.dumps(record.model_dump(mode="json"), ensure_ascii=False)
