"""An in-process provider for probe tests: records every request, answers probes with the
probabilities a test chooses (uniform by default)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, ClassVar

from harness.agents.probe_settings import ProbeSettings
from harness.agents.prober import Prober
from harness.agents.providers.provider_contract import Provider, ProviderReply, ProviderRequest

Answer = Callable[[list[str], list[str]], str]


def uniform_text(names: list[str], roles: list[str]) -> str:
    return json.dumps({"beliefs": {n: {r: 1 / len(roles) for r in roles} for n in names}})


class StubProvider(Provider):
    name = "stub"
    default_answer_mode = "json_schema"
    supported_answer_modes: ClassVar = frozenset({"json_schema", "text", "grammar"})

    def __init__(self, answer: Answer = uniform_text) -> None:
        self.answer = answer
        self.requests: list[ProviderRequest] = []

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        self.requests.append(req)
        assert req.schema is not None
        beliefs = req.schema["properties"]["beliefs"]
        names = list(beliefs["required"])
        roles = list(beliefs["properties"][names[0]]["required"])
        return ProviderReply(text=self.answer(names, roles), input_tokens=10, output_tokens=5)


def stub_prober(
    provider: StubProvider, names: list[str], sink: Any, locale: str = "en", **settings: Any
) -> Prober:
    return Prober(
        ProbeSettings(**(settings or {"every": 1})),
        provider,
        "stub-model",
        names=names,
        locale=locale,
        system=lambda: "system",
        sink=sink,
        answer_mode="json_schema",
        seconds=5.0,
    )
