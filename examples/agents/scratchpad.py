"""A scratchpad agent: before each decision it reads the notes it wrote at its earlier decisions
of the game, and with its answer writes one more (the model's ``reason``).  The model is any the
harness's provider layer speaks to::

    - name: scratchpad
      kind: agent
      agent: "examples.agents.scratchpad:ScratchpadAgent"
      options: {model: {provider: openai, model: gpt-4o-mini}, max_notes: 20}
"""

from __future__ import annotations

from typing import Any

from harness.agents.wire_protocol import AgentAnswer, DecisionMessage, GameStartMessage

from .llm import Model

HINT = "a short note to yourself for later decisions: suspicions, plans"


class ScratchpadAgent:
    def __init__(self, model: dict[str, Any], max_notes: int = 20) -> None:
        self.model = Model(model)
        self.max_notes = max_notes
        self.game: GameStartMessage | None = None
        self.notes: list[str] = []

    def start(self, message: GameStartMessage) -> None:
        self.game, self.notes = message, []

    async def decide(self, message: DecisionMessage) -> AgentAnswer:
        prompt = self.model.prompt(self.game, message, self.notes, HINT)
        sample = await self.model.ask(prompt, message)
        if sample.reason:
            self.notes = [*self.notes, sample.reason][-self.max_notes :]
        # an answer that is not an option is passed on: the seat records it and falls back
        option = sample.choice if sample.choice is not None else "(invalid answer)"
        return AgentAnswer(option=option, reasoning=sample.reason, usage=sample.usage)
