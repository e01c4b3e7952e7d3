"""A stopping run's cancellation always reaches the game (issue 11): on Python 3.11,
``asyncio.wait_for`` returns the inner result when the cancellation arrives as the inner call
completes, so a game asked to stop went on calling the model.  The seat's decision and the model
call must let such a cancellation through, and the call is counted in the spend ledger as
cancelled when it is cut off."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from harness.agents.llm_agent import LLMAgent
from harness.agents.pricing import PriceBook
from harness.agents.providers.provider_contract import ProviderReply, ProviderRequest
from harness.agents.seat import decide
from harness.agents.seat_protocol import Agent
from harness.engine import Game, SeatView
from harness.play.provider_limits import LimitedProvider, RateLimiter
from tests.fakes.backends import StubPrompts


class _Waiting(Agent):
    """Answers when ``answer`` gets its result."""

    def __init__(self, answer: asyncio.Future[str]) -> None:
        super().__init__("waiting")
        self.answer = answer

    async def choose(self, view: SeatView, options: Sequence[str]) -> str:
        return await self.answer


class _Provider:
    """A provider whose reply is the result of ``reply``."""

    name = "fake"
    default_answer_mode = "json_object"
    supported_answer_modes = frozenset({"json_object"})

    def __init__(self, reply: asyncio.Future[ProviderReply]) -> None:
        self.reply = reply
        self.calls = 0

    async def complete(self, request: ProviderRequest) -> ProviderReply:
        self.calls += 1
        return await self.reply

    async def aclose(self) -> None:
        pass


async def _cancel_as_it_completes(task: asyncio.Task[Any], done: asyncio.Future[Any], value: Any):
    await asyncio.sleep(0.01)  # the task waits on ``done``
    done.set_result(value)  # the awaited call completes ...
    task.cancel()  # ... just as the run cancels the game
    with pytest.raises(asyncio.CancelledError):
        await task


def test_a_seat_decision_lets_the_cancellation_through() -> None:
    async def scenario() -> None:
        game = Game.new(4, "classic", 1)
        assert game.pending is not None
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        task = asyncio.create_task(decide(_Waiting(answer), game, timeout=30.0))
        await _cancel_as_it_completes(task, answer, game.pending.option_ids[0])

    asyncio.run(scenario())


def test_a_model_call_lets_the_cancellation_through() -> None:
    async def scenario() -> None:
        reply: asyncio.Future[ProviderReply] = asyncio.get_running_loop().create_future()
        provider = _Provider(reply)
        agent = LLMAgent(
            provider,  # type: ignore[arg-type]
            "fake-model",
            StubPrompts(),
            fallback=lambda view, options: options[-1],
            price_table=PriceBook({}, use_litellm=False),
        )
        task = asyncio.create_task(
            agent.decide({}, ["a", "b"], time.monotonic() + 30.0, {"game_id": "g"})
        )
        await _cancel_as_it_completes(task, reply, ProviderReply(text='{"choice": "a"}'))
        assert provider.calls == 1  # no call after the cancellation

    asyncio.run(scenario())


def test_a_cancelled_call_is_reported_and_no_call_is_sent_once_stopping(tmp_path: Path) -> None:
    seen: list[tuple[bool, bool]] = []

    async def scenario() -> None:
        reply: asyncio.Future[ProviderReply] = asyncio.get_running_loop().create_future()
        inner = _Provider(reply)
        stopping = False
        limited = LimitedProvider(
            inner,
            RateLimiter(1, None),
            on_call=lambda r, e, cancelled, s: seen.append((r is None, cancelled)),
            stopping=lambda: stopping,
        )
        request: Any = object()
        task = asyncio.create_task(limited.complete(request))
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        stopping = True
        with pytest.raises(asyncio.CancelledError):
            await limited.complete(request)
        assert inner.calls == 1
        # the slot of the cancelled call was given back
        stopping = False
        reply2: asyncio.Future[ProviderReply] = asyncio.get_running_loop().create_future()
        inner.reply = reply2
        reply2.set_result(ProviderReply(text="{}"))
        await asyncio.wait_for(limited.complete(request), 5)

    asyncio.run(scenario())
    assert seen == [(True, True), (False, False)]
