"""What the example agents share: a model asked through the harness's own provider layer (any
provider a league's ``model:`` section names: openai, anthropic, litellm, a local server), the
prompt (``prompt.j2``), and the strict answer parser the model seats use."""

from __future__ import annotations

import asyncio
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from harness.agents.llm_agent import parse_answer
from harness.agents.model_spec import ModelSpec, build_provider
from harness.agents.providers import ProviderRequest
from harness.agents.wire_protocol import DecisionMessage, GameStartMessage, Usage

_TEMPLATES = Environment(
    loader=FileSystemLoader(Path(__file__).parent), undefined=StrictUndefined, autoescape=False
)
# one provider per model spec and event loop (agents are made per seat and game; their HTTP
# clients belong to the loop that runs the games)
_PROVIDERS: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def provider_for(spec: ModelSpec) -> Any:
    by_spec = _PROVIDERS.setdefault(asyncio.get_running_loop(), {})
    key = spec.model_dump_json()
    if key not in by_spec:
        by_spec[key] = build_provider(spec)
    return by_spec[key]


@dataclass
class Sample:
    choice: str | None  # None: the model's answer was not a valid option
    reason: str | None
    usage: Usage


class Model:
    """One model behind the provider layer, asked for ``{"choice", "reason"}`` answers."""

    def __init__(self, model: dict[str, Any], params: dict[str, Any] | None = None) -> None:
        self.spec = ModelSpec.model_validate(model)
        self.params = {**self.spec.params, **(params or {})}
        self.prices = self.spec.price_book()

    def prompt(
        self, game: GameStartMessage | None, message: DecisionMessage, notes: list[str], hint: str
    ) -> str:
        return _TEMPLATES.get_template("prompt.j2").render(
            game=game.markdown if game else "", notes=notes, view=message.view_markdown,
            reason_hint=hint,
        )  # fmt: skip

    async def ask(self, prompt: str, message: DecisionMessage) -> Sample:
        ids = tuple(o.id for o in message.options)
        provider = provider_for(self.spec)
        request = ProviderRequest(
            model=self.spec.model,
            system="You are a careful player. Answer only with the JSON object asked for.",
            messages=[{"role": "user", "content": prompt}],
            answer_mode=self.spec.answer_mode or provider.default_answer_mode,
            option_ids=ids,
            params=self.params,
            timeout=max(0.1, message.deadline_s),
        )
        reply = await provider.complete(request)
        parsed = parse_answer(reply.tool_arguments or reply.text, ids)
        cost = self.prices.cost(
            self.spec.model,
            input_tokens=reply.input_tokens,
            cached_input_tokens=reply.cached_input_tokens,
            output_tokens=reply.output_tokens,
            provider=self.spec.provider,
        )
        usage = Usage(
            input_tokens=reply.input_tokens,
            output_tokens=reply.output_tokens,
            cost_usd=cost,
            model=f"{self.spec.provider}/{self.spec.model}",
        )
        return Sample(parsed.choice if parsed.error_kind is None else None, parsed.reason, usage)


def total(usages: list[Usage], model: str | None) -> Usage:
    costs = [u.cost_usd for u in usages]
    return Usage(
        input_tokens=sum(u.input_tokens for u in usages),
        output_tokens=sum(u.output_tokens for u in usages),
        cost_usd=None if any(c is None for c in costs) else sum(c or 0.0 for c in costs),
        model=model,
    )
