"""A seat played by an external agent (a Python object or a remote HTTP endpoint) through the
agent protocol (:mod:`harness.agents.wire_protocol`), under the same timer, fallback and records
as a model seat.

The seat keeps its own deadline, the table's decision timer minus the margin of
:func:`harness.agents.deadline.seat_margin`, so that whatever the agent does (raises, hangs,
answers garbage or megabytes, names an option that does not exist) the seat returns a
:class:`~harness.agents.seat_protocol.Choice` with its fallback reason and a decision record before the
table's timer runs out.  The record is a :class:`~harness.agents.decision_record.ModelDecisionRecord`
(``provider`` is the kind, ``agent`` or ``remote``): one attempt per message sent, the view, the
options, the choice, the reasoning, the latency and the usage the agent reported.

A decision with a single option is taken without asking the agent; its events reach the agent
with the next decision message (the view's ``events`` then start where the agent's previous
message ended).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from harness.engine import SeatView, simplest_for_view
from harness.views.render import render_json

from .deadline import seat_margin
from .decision_record import (
    Attempt,
    AttemptErrorKind,
    FallbackReason,
    ModelDecisionRecord,
    TokenCounts,
    cap_text,
    sha256_text,
)
from .seat_protocol import Agent, Choice
from .wire_protocol import (
    MAX_ANSWER_BYTES,
    PROTOCOL_VERSION,
    AgentAnswer,
    DecisionMessage,
    GameStartMessage,
    decision_message,
    game_start_message,
)

__all__ = ["AgentBackend", "AgentFault", "ExternalSeat", "UsageSink", "parse_answer"]

ANSWER_MODE = f"agent-protocol/v{PROTOCOL_VERSION}"
ERROR_CHARS = 300  # an error message in a record is cut after this many characters

# usage_sink(player, provider_kind, model, answer usage or None, error kind, latency_s)
UsageSink = Callable[[str, str, str, Any, str | None, float], None]


class AgentFault(Exception):
    """What went wrong with one message to an agent: an attempt's ``error_kind`` and message."""

    def __init__(self, kind: AttemptErrorKind, message: str, raw: str | None = None) -> None:
        super().__init__(message)
        self.kind: AttemptErrorKind = kind
        self.message = message[:ERROR_CHARS]
        self.raw = raw


class AgentBackend(ABC):
    """How a seat's messages reach its agent.  ``deadline`` is a ``time.monotonic()`` time; a
    backend returns the agent's raw answer (an object or the bytes of a body) or raises
    :class:`AgentFault`; transport failures it retried are appended to ``attempts``."""

    def new_game(self, game_id: str, seat: int) -> None:
        """A new game starts for this seat."""

    @abstractmethod
    async def start(self, message: GameStartMessage, deadline: float) -> None: ...

    @abstractmethod
    async def decide(
        self, message: DecisionMessage, deadline: float, attempts: list[Attempt]
    ) -> Any: ...

    async def aclose(self) -> None:
        """Release what the backend holds for this seat."""


def _fault_of(e: ValidationError, raw: str) -> AgentFault:
    err = e.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ())) or "answer"
    kind: AttemptErrorKind = "oversized" if err.get("type") == "string_too_long" else "unparseable"
    return AgentFault(kind, f"{where}: {err.get('msg')}", raw)


def parse_answer(raw: Any) -> tuple[AgentAnswer, str]:
    """The validated answer and its text as received; :class:`AgentFault` when the answer is
    not an :class:`AgentAnswer` (a bare option id string is one), or is larger than
    :data:`MAX_ANSWER_BYTES`."""
    if isinstance(raw, bytes | bytearray):
        if len(raw) > MAX_ANSWER_BYTES:
            raise AgentFault("oversized", f"answer larger than {MAX_ANSWER_BYTES} bytes")
        try:
            text = raw.decode("utf-8")
            data = json.loads(text)
        except (UnicodeDecodeError, ValueError, RecursionError):  # RecursionError: deep nesting
            text = raw.decode("utf-8", "replace")
            raise AgentFault("unparseable", "the answer is not JSON", text) from None
    else:
        data = raw.model_dump(mode="json") if isinstance(raw, BaseModel) else raw
        if isinstance(data, str):
            data = {"option": data}
        if isinstance(data, dict) and any(  # megabytes of text: refused before any encoding
            isinstance(v, str) and len(v) > MAX_ANSWER_BYTES for v in data.values()
        ):
            raise AgentFault("oversized", f"answer larger than {MAX_ANSWER_BYTES} bytes")
        try:
            text = json.dumps(data, ensure_ascii=False)
        except (TypeError, ValueError):
            text = repr(data)[:MAX_ANSWER_BYTES]
            raise AgentFault("unparseable", f"the answer is a {type(raw).__name__}", text) from None
        if len(text.encode("utf-8")) > MAX_ANSWER_BYTES:
            raise AgentFault("oversized", f"answer larger than {MAX_ANSWER_BYTES} bytes", text)
    if not isinstance(data, dict):
        raise AgentFault("unparseable", f"the answer is a JSON {type(data).__name__}", text)
    try:
        return AgentAnswer.model_validate(data), text
    except ValidationError as e:
        raise _fault_of(e, text) from None


def _reason_of(kind: AttemptErrorKind) -> FallbackReason:
    if kind == "timeout":
        return "timeout"
    if kind in ("unparseable", "illegal_option", "oversized"):
        return "invalid_answer"
    return "error"


def _attempt(
    t0: float, kind: AttemptErrorKind | None, message: str | None, raw: str | None = None
) -> Attempt:
    return Attempt(
        raw_text=cap_text(raw),
        answer_chars=len(raw) if raw is not None else None,
        answer_sha256=sha256_text(raw) if raw is not None else None,
        error_kind=kind,
        error_message=message,
        latency_s=round(time.monotonic() - t0, 6),
    )


class ExternalSeat(Agent):
    """One seat of an external agent; see the module docstring.  ``kind`` is ``agent`` or
    ``remote``; ``label`` names the agent in records (the factory path or the URL).
    ``policy`` is the fallback policy (``simplest`` or ``autopilot``: a rule bot shown every
    view).  ``usage_sink`` hears every message's usage (the league's spend ledger);
    ``system_prompt_sink(sha256, text)`` stores the start message the records name."""

    self_timed = True

    def __init__(
        self,
        name: str,
        kind: str,
        label: str,
        backend: AgentBackend,
        names: Sequence[str],
        locale: str = "en",
        *,
        decision_seconds: float = 60.0,
        policy: str = "simplest",
        usage_sink: UsageSink | None = None,
        system_prompt_sink: Callable[[str, str], None] | None = None,
    ) -> None:
        super().__init__(name)
        self.kind = kind  # type: ignore[misc]  # the instance says which kind of seat it is
        self.label = label
        self.backend = backend
        self.names = list(names)
        self.locale = locale
        self.decision_seconds = decision_seconds
        self.policy = policy
        self.usage_sink = usage_sink
        self.system_prompt_sink = system_prompt_sink
        self.autopilot: Any = None
        if policy == "autopilot":
            from .rulebot import RuleBot  # imported on use: only autopilot seats need the bot

            self.autopilot = RuleBot(f"{name} (autopilot)")
        self.game_id = ""
        self.seat = -1
        self.index = 0
        self._start_sha: str | None = None  # set once the start message was delivered
        self._held: tuple[dict[str, Any], ...] = ()  # events of views not sent yet

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        self.game_id, self.seat, self.index = game_id, seat, 0
        self._start_sha, self._held = None, ()
        self.backend.new_game(game_id, seat)
        if self.autopilot is not None:
            self.autopilot.new_game(game_id, seat, seed)

    # ----------------------------------------------------------------- deciding

    def _fallback(self, view: SeatView, options: Sequence[str]) -> str:
        if self.autopilot is not None:
            return str(self.autopilot.decide(view, options))
        return simplest_for_view(view, options)

    def _with_held(self, view: SeatView) -> SeatView:
        """``view`` with the events of the views the agent was not sent before it."""
        if not self._held:
            return view
        events, self._held = self._held + view.events, ()
        return dataclasses.replace(view, events=events)

    async def _deliver_start(self, view: SeatView, deadline: float, attempts: list[Attempt]) -> str:
        message = game_start_message(
            view, self.names, self.locale, game_id=self.game_id, player=self.name
        )
        text = message.model_dump_json()
        sha = sha256_text(text)
        t0 = time.monotonic()
        try:
            async with asyncio.timeout_at(_loop_time(deadline)):
                await self.backend.start(message, deadline)
        except AgentFault as f:
            attempts.append(_attempt(t0, f.kind, f"game_start: {f.message}", f.raw))
            raise
        except TimeoutError:
            attempts.append(_attempt(t0, "timeout", "game_start: no answer before the deadline"))
            raise AgentFault("timeout", "game_start: no answer before the deadline") from None
        except Exception as e:
            message_text = f"game_start: {type(e).__name__}: {e}"
            attempts.append(_attempt(t0, "agent_error", message_text))
            raise AgentFault("agent_error", message_text) from None
        if self.system_prompt_sink is not None:
            self.system_prompt_sink(sha, text)
        self._start_sha = sha
        return sha

    async def _ask(
        self, view: SeatView, options: Sequence[str], deadline: float, attempts: list[Attempt]
    ) -> tuple[AgentAnswer, str]:
        message = decision_message(
            view,
            self.names,
            self.locale,
            game_id=self.game_id,
            player=self.name,
            index=self.index,
            deadline_s=deadline - time.monotonic(),
        )
        self._view_json = message.view
        t0 = time.monotonic()
        try:
            async with asyncio.timeout_at(_loop_time(deadline)):
                raw = await self.backend.decide(message, deadline, attempts)
            answer, text = parse_answer(raw)
        except AgentFault as f:
            attempts.append(_attempt(t0, f.kind, f.message, f.raw))
            raise
        except TimeoutError:
            attempts.append(_attempt(t0, "timeout", "no answer before the seat's deadline"))
            raise AgentFault("timeout", "no answer before the seat's deadline") from None
        except Exception as e:
            attempts.append(_attempt(t0, "agent_error", f"{type(e).__name__}: {e}"))
            raise AgentFault("agent_error", f"{type(e).__name__}: {e}") from None
        attempt = _attempt(t0, None, None, text)
        attempt.reasoning = cap_text(answer.reasoning)
        if answer.usage is not None:
            attempt.tokens = TokenCounts(
                input=answer.usage.input_tokens, output=answer.usage.output_tokens
            )
        if answer.option not in options:  # an answer all the same: its usage counts
            attempt.error_kind = "illegal_option"
            attempt.error_message = f"{answer.option[:80]!r} is not one of the options"
        attempts.append(attempt)
        return answer, text

    async def choose(self, view: SeatView, options: Sequence[str]) -> Choice | str:
        if self.autopilot is not None:
            self.autopilot.observe(view)
        if len(options) < 2:
            self._held += view.events
            return options[0]
        t0 = time.monotonic()
        deadline = t0 + self.decision_seconds - seat_margin(self.decision_seconds)
        self.index += 1
        view = self._with_held(view)
        attempts: list[Attempt] = []
        self._view_json: dict[str, Any] | None = None
        answer: AgentAnswer | None = None
        fault: AgentFault | None = None
        sha = self._start_sha
        try:
            if sha is None:
                sha = await self._deliver_start(view, deadline, attempts)
            answer, _ = await self._ask(view, options, deadline, attempts)
        except AgentFault as f:
            fault = f
        finally:
            self._report_usage(attempts, answer)
        if answer is not None and attempts[-1].error_kind is not None:
            fault = AgentFault(attempts[-1].error_kind, attempts[-1].error_message or "")
        valid = answer is not None and fault is None
        fallback = _reason_of(fault.kind) if fault is not None else None
        chosen = answer.option if valid and answer is not None else self._fallback(view, options)
        usage = answer.usage if answer is not None else None
        record = ModelDecisionRecord(
            game_id=self.game_id,
            decision_index=self.index,
            seat=view.viewer,
            role=view.role,
            player=self.name,
            provider=self.kind,
            model=(usage.model if usage is not None and usage.model else self.label),
            decision_kind=view.pending.kind if view.pending else None,
            answer_mode=ANSWER_MODE,
            options=list(options),
            view=self._view_json or render_json(view, self.names, self.locale),
            system_prompt_sha256=sha or "",
            attempts=attempts,
            parsed_choice=chosen if valid else None,
            reason=cap_text(answer.reasoning) if answer is not None else None,
            chosen=chosen,
            fallback=fallback,
            fallback_policy=self.policy if fallback is not None else None,
            latency_s=round(time.monotonic() - t0, 6),
            input_tokens=usage.input_tokens if usage is not None else 0,
            output_tokens=usage.output_tokens if usage is not None else 0,
            cost_usd=usage.cost_usd if usage is not None else None,
        )
        error = f"{fault.kind}: {fault.message}" if fault is not None else None
        return Choice(chosen, fallback, error, record)

    def restore(self, view: SeatView, options: Sequence[str], record: Any) -> None:
        """Replay a recorded decision (a resumed game) without asking the agent: its events
        reach the agent with the next decision, after a new start message."""
        if self.autopilot is not None:
            self.autopilot.observe(view)
            if record and record.get("fallback") and len(options) > 1:
                self.autopilot.decide(view, options)
        if len(options) > 1:
            self.index += 1
        self._start_sha = None
        self._held += view.events

    def _report_usage(self, attempts: list[Attempt], answer: AgentAnswer | None) -> None:
        if self.usage_sink is None:
            return
        for i, a in enumerate(attempts):
            answered = answer is not None and i == len(attempts) - 1
            usage = answer.usage if answered and answer is not None else None
            model = usage.model if usage is not None and usage.model else self.label
            self.usage_sink(self.name, self.kind, model, usage, a.error_kind, a.latency_s)

    async def aclose(self) -> None:
        await self.backend.aclose()


def _loop_time(deadline: float) -> float:
    """The event loop's clock at the ``time.monotonic()`` time ``deadline``."""
    loop = asyncio.get_running_loop()
    return loop.time() + (deadline - time.monotonic())
