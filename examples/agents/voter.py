"""A self-consistency voter: ``k`` samples of the same prompt, asked concurrently, and the option
most of them chose (ties: the option listed first).  Samples that are not a valid option do not
vote; when none is valid the answer is invalid and the seat falls back::

    - name: voter
      kind: agent
      agent: "examples.agents.voter:VoterAgent"
      options: {model: {provider: openai, model: gpt-4o-mini}, k: 5, temperature: 0.8}
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from harness.agents.wire_protocol import AgentAnswer, DecisionMessage, GameStartMessage

from .llm import Model, total

HINT = "one sentence: why"


class VoterAgent:
    def __init__(self, model: dict[str, Any], k: int = 5, temperature: float = 0.8) -> None:
        if not 1 <= k <= 32:
            raise ValueError("k must be 1..32")
        self.model = Model(model, {"temperature": temperature})
        self.k = k
        self.game: GameStartMessage | None = None

    def start(self, message: GameStartMessage) -> None:
        self.game = message

    async def decide(self, message: DecisionMessage) -> AgentAnswer:
        prompt = self.model.prompt(self.game, message, [], HINT)
        samples = await asyncio.gather(*(self.model.ask(prompt, message) for _ in range(self.k)))
        votes = Counter(s.choice for s in samples if s.choice is not None)
        usage = total([s.usage for s in samples], samples[0].usage.model)
        if not votes:
            return AgentAnswer(option="(no valid sample)", usage=usage)
        order = [o.id for o in message.options]
        best = max(votes, key=lambda o: (votes[o], -order.index(o)))
        tally = ", ".join(f"{o} {n}" for o, n in votes.most_common())
        return AgentAnswer(option=best, reasoning=f"{votes[best]} of {self.k} votes ({tally})",
                           usage=usage)  # fmt: skip
