"""When a model seat is probed: the ``probes:`` section of a model player (default: never).

``every: N`` probes at the seat's N-th, 2N-th, … model decision (a decision with more than one
option); ``at`` probes at the seat's first model decision after an event it saw: ``elimination``
(a player was eliminated since its previous model decision) or ``round_start`` (a new round began
since then; the first model decision of the game counts).  One decision gets at most one probe,
with every trigger that applies.  ``seconds`` bounds each probe (default: the league's decision
time); ``max_tokens`` is the answer's token limit (default: the player's own ``max_tokens``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ProbeEvent = Literal["elimination", "round_start"]


class ProbeSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    every: int | None = Field(default=None, ge=1)
    at: list[ProbeEvent] = Field(default_factory=list)
    seconds: float | None = Field(default=None, gt=0)
    max_tokens: int | None = Field(default=None, ge=16)

    @model_validator(mode="after")
    def _some_trigger(self) -> ProbeSettings:
        if self.every is None and not self.at:
            raise ValueError("probes need 'every: N' and/or 'at: [elimination, round_start]'")
        if len(set(self.at)) != len(self.at):
            raise ValueError("probes 'at' lists an event twice")
        return self
