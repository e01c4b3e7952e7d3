"""A Python agent (``kind: agent``) for tests: it answers an option that does not exist at every
other decision, so its seat falls back (to its autopilot when the run's fallback is
``autopilot``), and the last option otherwise."""

from __future__ import annotations

from harness.agents.wire_protocol import DecisionMessage


def factory() -> object:
    async def decide(message: DecisionMessage) -> str:
        if message.decision_index % 2 == 0:
            return "no-such-option"
        return message.options[-1].id

    return decide
