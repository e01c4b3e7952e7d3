"""Python agents for the tests: well-behaved ones, and ones that misbehave in each way the
seat must survive (raise, hang, garbage, oversized answers, unknown ids)."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

from harness.agents.wire_protocol import AgentAnswer, DecisionMessage, GameStartMessage, Usage


class Seeded:
    """Deterministic: a random option from a generator seeded by the game and seat; reports a
    usage with tokens and dollars on every answer."""

    def __init__(self, salt: str = "", cost_usd: float = 0.001) -> None:
        self.salt = salt
        self.cost_usd = cost_usd
        self.rng: random.Random | None = None
        self.role: str | None = None

    def start(self, message: GameStartMessage) -> None:
        self.role = message.role
        self.rng = random.Random(f"{self.salt}:{message.game_id}:{message.seat}")

    def decide(self, message: DecisionMessage) -> AgentAnswer:
        assert self.rng is not None, "start was not called"
        option = self.rng.choice([o.id for o in message.options])
        usage = Usage(input_tokens=100, output_tokens=10, cost_usd=self.cost_usd, model="seeded-1")
        return AgentAnswer(option=option, reasoning=f"as the {self.role}", usage=usage)


def seeded(**options: Any) -> Seeded:
    return Seeded(**options)


def first_option(message: DecisionMessage) -> str:
    """A plain function as the agent: the first option id."""
    return message.options[0].id


def first_factory() -> Any:
    return first_option


class AsyncFirst:
    async def decide(self, message: DecisionMessage) -> dict[str, Any]:
        await asyncio.sleep(0)
        return {"option": message.options[-1].id}


class Misbehaving:
    """``mode`` says how every ``every``-th decision goes wrong (the others pick the first
    option): raise, hang (async), hang_sync, garbage, huge (10 MB), unknown, long_reasoning."""

    def __init__(self, mode: str, every: int = 3) -> None:
        self.mode = mode
        self.every = every

    async def decide(self, message: DecisionMessage) -> Any:
        if message.decision_index % self.every != 1 % self.every:
            return message.options[0].id
        if self.mode == "raise":
            raise RuntimeError("the agent broke")
        if self.mode == "hang":
            await asyncio.sleep(3600)
        if self.mode == "garbage":
            return 12345
        if self.mode == "huge":
            return {"option": message.options[0].id, "reasoning": "x" * (10 * 1024 * 1024)}
        if self.mode == "unknown":
            return "no-such-option"
        if self.mode == "long_reasoning":
            return {"option": message.options[0].id, "reasoning": "y" * 20_000}
        raise AssertionError(self.mode)


class SyncHang:
    """A plain (thread) agent whose every decision sleeps ``seconds``."""

    def __init__(self, seconds: float = 0.5) -> None:
        self.seconds = seconds

    def decide(self, message: DecisionMessage) -> str:
        time.sleep(self.seconds)
        return message.options[0].id


def broken_factory() -> Any:
    raise ValueError("cannot build")


NOT_CALLABLE = 3
