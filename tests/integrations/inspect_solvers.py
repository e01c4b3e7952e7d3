"""Inspect solvers and ``mockllm`` players for the solver-seat tests: a ``react()`` agent with the
``choose`` tool and a tool of its own, played by a mock model that calls ``choose`` with the first
listed option id (optionally an unknown id first), and a solver that never calls ``choose``."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from inspect_ai.agent import react
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.tool import Tool, tool

from harness.integrations.inspect_seat import choose

LISTED = re.compile(r"^\d+\. `([^`]+)`", re.MULTILINE)
USAGE = ModelUsage(input_tokens=100, output_tokens=10, total_tokens=110)
BAD_ID = "no-such-option"


def _out(out: ModelOutput) -> ModelOutput:
    out.usage = USAGE  # set, so mockllm does not count tokens with a downloaded tokenizer
    return out


class Chooser:
    """A mock model: ``choose`` with the first option id listed in the latest message that
    lists any; ``submit`` once the game is over; an unknown id first when ``bad_first``; a call
    of the player's own ``note`` tool every ``note_every`` calls; only unknown ids when
    ``always_bad``; a ``nap`` of ``nap_first`` seconds before the first decision."""

    def __init__(
        self,
        bad_first: bool = False,
        note_every: int = 0,
        always_bad: bool = False,
        nap_first: float = 0.0,
    ) -> None:
        self.nap_first = nap_first
        self.bad_first = bad_first
        self.always_bad = always_bad
        self.note_every = note_every
        self.calls = 0
        self.seen: list[str] = []  # every text the model was sent (for the leak check)

    def __call__(self, messages: list[Any], tools: list[Any], *_: Any) -> ModelOutput:
        self.calls += 1
        self.seen.extend(m.text for m in messages)
        last = messages[-1]
        if "The game is over" in last.text:
            if "submit" not in {t.name for t in tools}:  # a plain tool loop: just stop
                return _out(ModelOutput.from_content("mockllm/model", "good game"))
            return _out(ModelOutput.for_tool_call("mockllm/model", "submit", {"answer": "done"}))
        if self.nap_first and self.calls == 1:
            return _out(ModelOutput.for_tool_call("mockllm/model", "nap", {"s": self.nap_first}))
        if self.note_every and self.calls % self.note_every == 0 and last.text[:6] != "noted:":
            return _out(ModelOutput.for_tool_call("mockllm/model", "note", {"text": "hm"}))
        listed = next(found for m in reversed(messages) if (found := LISTED.findall(m.text)))
        if self.always_bad:
            option = BAD_ID
        elif self.bad_first and "not one of the options" not in last.text:
            option = BAD_ID if self.calls == 1 else listed[0]
        else:
            option = listed[0]
        args = {"option_id": option, "reasoning": "the first listed"}
        return _out(ModelOutput.for_tool_call("mockllm/model", "choose", args))


@tool
def nap() -> Tool:
    """A slow tool of the player's own."""

    async def execute(s: float) -> str:
        """Think for a while.

        Args:
            s: Seconds.
        """
        await asyncio.sleep(s)
        return "rested"

    return execute


@tool
def note() -> Tool:
    """A tool of the player's own (a scratchpad)."""

    async def execute(text: str) -> str:
        """Write a note to yourself.

        Args:
            text: The note.
        """
        return f"noted: {text}"

    return execute


def react_player(chooser: Chooser | None = None) -> Any:
    """``react()`` with the ``choose`` tool and its own ``note`` tool, on a mock model."""
    model = get_model("mockllm/model", custom_outputs=chooser or Chooser())
    return react(tools=[choose(), note(), nap()], model=model)


@solver
def mock_react() -> Solver:
    """The same player as a registered solver (for ``inspect eval --solver``)."""
    agent = react_player(Chooser())

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        from inspect_ai.agent import as_solver

        return await as_solver(agent)(state, generate)

    return solve


@solver
def idle() -> Solver:
    """A solver that never calls ``choose``."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return state

    return solve
