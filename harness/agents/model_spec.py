"""How a model seat is configured (:class:`ModelSpec`) and built (:func:`build_model_seat`).

A spec names the provider and model, where the server is, *which environment variable* holds the
API key (never the key itself), the answer mode, call parameters, prices, the agent's correction /
retry budget, an opt-in response cache, the fallback policy and the per-decision time.

:func:`build_model_seat` wires the pieces: provider (through the registry), the standard
:class:`~harness.views.prompts.PromptBuilder`, the fallback callable, the shared
:class:`~harness.agents.llm_agent.LLMAgent` and the :class:`~harness.agents.model_seat.ModelSeat`.

Fallback policies:

* ``simplest`` — Ruling R-5's simplest move, computed from the seat view
  (:func:`harness.engine.simplest_for_view`);
* ``autopilot`` — the seat's own :class:`~harness.agents.rulebot.RuleBot`.  The bot watches every
  view the seat gets (so its reading of the table is current) and decides synchronously through
  ``RuleBot.decide`` (its ``choose`` coroutine only wraps that call and awaits nothing).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from harness.engine import SeatView, simplest_for_view
from harness.views.prompts import PromptBuilder as HarnessPromptBuilder
from harness.views.render import render_json
from harness.views.rules_doc import RulesVariant
from harness.views.tokens import (
    OFFLINE_ENCODINGS,
    TokenCounter,
    Tokenizer,
    TokenizerError,
    estimate_counter,
)

from .conversation import Conversation, PromptBuilder
from .llm_agent import FatalModelError, LLMAgent, RecordSink, SystemPromptSink
from .model_seat import ModelSeat
from .pricing import PriceBook, context_window
from .providers import FatalProviderError, Provider, get_provider
from .providers.anthropic_provider import AnthropicProvider
from .providers.litellm_provider import LiteLLMProvider
from .providers.openai_provider import OpenAIProvider
from .providers.provider_contract import AnswerMode
from .response_cache import ResponseCache
from .seat_protocol import Choice
from .tokenizers import (
    OPENAI_COMPATIBLE_PREFIXES,
    litellm_knows,
    litellm_tokenizer,
    server_tokenizer,
    tokenizer_named,
)
from .transcript import DEFAULT_CONTEXT_TOKENS, HistoryPolicy, Transcript

if TYPE_CHECKING:
    from .rulebot import RuleBot

__all__ = [
    "ModelPriceSpec",
    "ModelSpec",
    "ProviderName",
    "build_llm_agent",
    "build_model_seat",
    "build_provider",
]

ProviderName = Literal["openai", "anthropic", "litellm"]

_PROVIDER_CLASSES: dict[str, type[Provider]] = {
    "openai": OpenAIProvider,
    "anthropic": AnthropicProvider,
    "litellm": LiteLLMProvider,
}
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Request fields the harness sets itself (or that would carry credentials): not call parameters.
RESERVED_PARAMS = frozenset(
    {
        "model",
        "messages",
        "system",
        "tools",
        "tool_choice",
        "response_format",
        "timeout",
        "stream",
        "api_key",
        "api_base",
        "base_url",
        "num_retries",
        "max_retries",
    }
)


class ModelPriceSpec(BaseModel):
    """US dollars per million tokens; ``cached_input`` defaults to ``input``."""

    model_config = ConfigDict(extra="forbid")

    input: float = Field(ge=0)
    cached_input: float | None = Field(default=None, ge=0)
    output: float = Field(ge=0)

    def table_entry(self) -> dict[str, float]:
        """The entry of a :class:`~harness.agents.pricing.PriceBook` table."""
        entry = {"input": self.input, "output": self.output}
        if self.cached_input is not None:
            entry["cached_input"] = self.cached_input
        return entry


class ModelSpec(BaseModel):
    """One model seat's configuration (loaded from league configs or built by the CLI).

    ``api_key_env`` is the *name* of the environment variable holding the key; without it the
    provider's usual variable is read (``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, LiteLLM's own),
    and a local server given by ``base_url`` needs none.  ``answer_mode`` defaults to the
    provider's (openai/litellm ``json_schema``, anthropic ``tool``); for llama.cpp servers use
    ``json_object`` or ``grammar``.  Input values are kept out of validation errors so a key
    pasted into the wrong field is never echoed.
    """

    model_config = ConfigDict(extra="forbid", hide_input_in_errors=True, frozen=True)

    provider: ProviderName
    model: str = Field(min_length=1)
    base_url: str | None = None
    api_key_env: str | None = None
    answer_mode: AnswerMode | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    price: ModelPriceSpec | None = None
    max_corrections: int = Field(default=1, ge=0)
    retry_budget: int = Field(default=4, ge=0)
    backoff: float = Field(default=0.5, ge=0)
    cache_dir: Path | None = None
    fallback: Literal["simplest", "autopilot"] = "simplest"
    decision_seconds: float = Field(default=60.0, gt=0)
    history: HistoryPolicy = "conversation"
    context_tokens: int | None = Field(default=None, ge=1024)
    # how prompt tokens are counted (harness.agents.tokenizers): a tiktoken encoding, a Hugging Face
    # tokenizer.json path, or "server" (the server's tokenize endpoint); unset: detected
    tokenizer: str | None = None
    # the rules document of the system prompt: "full" (rules_md/rules.<locale>.md) or "brief"
    # (rules.<locale>.brief.md: every rule a seat plays by, about a quarter fewer tokens)
    rules: RulesVariant = "full"

    def context_budget(self) -> int:
        """``context_tokens``, else the model's context from LiteLLM's map, else 8192."""
        if self.context_tokens is not None:
            return self.context_tokens
        return context_window(self.model, self.provider) or DEFAULT_CONTEXT_TOKENS

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, value: str | None) -> str | None:
        if value is not None and not _ENV_NAME.fullmatch(value):
            raise ValueError(
                "must be the NAME of an environment variable holding the key "
                "(e.g. OPENAI_API_KEY), never the key itself"
            )
        return value

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("tokenizer")
    @classmethod
    def _tokenizer(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None or value in OFFLINE_ENCODINGS:
            return value
        if value == "server":
            if info.data.get("base_url") is None:
                raise ValueError("'server' needs the model's base_url (its tokenize endpoint)")
            return value
        if value.endswith(".json"):
            if not Path(value).expanduser().is_file():
                raise ValueError(f"no tokenizer.json file at {value!r}")
            return value
        raise ValueError(
            f"must be 'server', a tokenizer.json path or one of {', '.join(OFFLINE_ENCODINGS)}"
        )

    @field_validator("params")
    @classmethod
    def _params(cls, value: dict[str, Any]) -> dict[str, Any]:
        reserved = sorted(RESERVED_PARAMS.intersection(value))
        if reserved:
            raise ValueError(
                f"{', '.join(reserved)} cannot be set in params (the harness sets them; "
                "keys come only from api_key_env)"
            )
        return value

    @field_validator("answer_mode")
    @classmethod
    def _answer_mode_supported(
        cls, value: AnswerMode | None, info: ValidationInfo
    ) -> AnswerMode | None:
        provider = info.data.get("provider")
        if value is None or provider not in _PROVIDER_CLASSES:
            return value
        supported = _PROVIDER_CLASSES[provider].supported_answer_modes
        if value not in supported:
            raise ValueError(
                f"{value!r} is not supported by provider {provider!r} "
                f"(supported: {', '.join(sorted(supported))})"
            )
        return value

    @property
    def label(self) -> str:
        """``provider:model``, for messages and reports."""
        return f"{self.provider}:{self.model}"

    def effective_answer_mode(self) -> AnswerMode:
        """The answer mode the seat will use (the provider's default when unset)."""
        return self.answer_mode or _PROVIDER_CLASSES[self.provider].default_answer_mode

    def provider_settings(self) -> dict[str, Any]:
        """Keyword settings for :func:`~harness.agents.providers.get_provider`."""
        settings: dict[str, Any] = {}
        if self.base_url is not None:
            settings["api_base" if self.provider == "litellm" else "base_url"] = self.base_url
        if self.api_key_env is not None:
            settings["api_key_env"] = self.api_key_env
        return settings

    def price_book(self) -> PriceBook:
        """The spec's price when given, else LiteLLM's price map."""
        if self.price is None:
            return PriceBook()
        return PriceBook({self.model: self.price.table_entry()}, use_litellm=False)


def build_provider(spec: ModelSpec) -> Provider:
    """The provider of ``spec``.  A missing API key raises :class:`FatalModelError`."""
    try:
        return get_provider(spec.provider, **spec.provider_settings())
    except FatalProviderError as exc:
        raise FatalModelError(spec.provider, spec.model, exc) from exc


Fallback = Callable[[Any, Sequence[str]], str]


class _TokenizerMissing(FatalProviderError):
    """The tokenizer the spec names cannot be had (a run must not start counting wrongly)."""

    kind = "tokenizer_unavailable"


def build_llm_agent(
    spec: ModelSpec,
    prompt_builder: PromptBuilder | Conversation,
    *,
    fallback: Fallback,
    fallback_policy: str | None = None,
    provider: Provider | None = None,
    record_sink: RecordSink | None = None,
    system_prompt_sink: SystemPromptSink | None = None,
    signal_names: Sequence[str] | None = None,
) -> LLMAgent:
    """The :class:`LLMAgent` of ``spec`` (answer mode, params, corrections, retries, back-off,
    prices, cache) asking through ``prompt_builder``; ``fallback_policy`` names ``fallback`` in
    records (default: the spec's).  ``provider`` replaces the one the spec would build."""
    return LLMAgent(
        provider if provider is not None else build_provider(spec),
        spec.model,
        prompt_builder,
        fallback=fallback,
        fallback_policy=fallback_policy or spec.fallback,
        answer_mode=spec.answer_mode,
        params=spec.params,
        max_corrections=spec.max_corrections,
        retry_budget=spec.retry_budget,
        backoff=spec.backoff,
        price_table=spec.price_book(),
        cache=ResponseCache(spec.cache_dir) if spec.cache_dir is not None else None,
        record_sink=record_sink,
        system_prompt_sink=system_prompt_sink,
        signal_names=signal_names,
    )


def _simplest(view: SeatView, options: Sequence[str]) -> str:
    """Ruling R-5's move for this seat view."""
    return simplest_for_view(view, options)


class _AutopilotModelSeat(ModelSeat):
    """A model seat whose fallback is its own rule bot, shown every view the seat gets."""

    def __init__(self, name: str, llm: LLMAgent, autopilot: RuleBot, **kwargs: Any) -> None:
        super().__init__(name, llm, **kwargs)
        self.autopilot = autopilot

    def new_game(self, game_id: str, seat: int, seed: int) -> None:
        super().new_game(game_id, seat, seed)
        self.autopilot.new_game(game_id, seat, seed)

    async def choose(self, view: SeatView, options: Sequence[str]) -> Choice:
        self.autopilot.observe(view)
        return await super().choose(view, options)

    def restore(self, view: SeatView, options: Sequence[str], record: Any) -> None:
        """As :meth:`ModelSeat.restore`; the rule bot sees the view and, where the recorded
        decision fell back to it, decides again so its state matches an uninterrupted game."""
        self.autopilot.observe(view)
        super().restore(view, options, record)
        if record and record.get("fallback") and len(options) > 1:
            self.autopilot.decide(view, options)


def _openai_compatible(spec: ModelSpec) -> bool:
    """A server spoken to in OpenAI's wire format (its tokenize endpoint is worth a probe)."""
    return spec.provider == "openai" or (
        spec.provider == "litellm" and spec.model.split("/", 1)[0] in OPENAI_COMPATIBLE_PREFIXES
    )


def tokenizer_for(spec: ModelSpec) -> Tokenizer | None:
    """The model's own tokenizer, in the order of :mod:`harness.agents.tokenizers`; ``None``:
    the estimate."""
    if spec.tokenizer:
        return tokenizer_named(spec.tokenizer, base_url=spec.base_url)
    if spec.base_url is not None and _openai_compatible(spec):
        found = server_tokenizer(spec.base_url)
        if found is not None:
            return found
    if litellm_knows(spec.model):
        return litellm_tokenizer(spec.model)
    return None


def counter_for(spec: ModelSpec) -> TokenCounter:
    """A new :class:`~harness.views.tokens.TokenCounter` for one seat of the model ``spec``.
    Raises :class:`~harness.views.tokens.TokenizerError` when the spec names a tokenizer that
    cannot be had."""
    tokenizer = tokenizer_for(spec)
    return estimate_counter() if tokenizer is None else TokenCounter(tokenizer)


def build_model_seat(
    spec: ModelSpec,
    name: str,
    names: Sequence[str],
    locale: str,
    record_sink: RecordSink | None = None,
    system_prompt_sink: SystemPromptSink | None = None,
    *,
    provider: Provider | None = None,
    prompt_builder: PromptBuilder | Conversation | None = None,
    signals: bool = False,
) -> ModelSeat:
    """Build the :class:`ModelSeat` called ``name`` for ``spec``.

    ``names`` are the seat names shown to the model and ``locale`` the prompt language.
    ``record_sink`` receives every decision record, ``system_prompt_sink(sha256, text)`` each
    distinct system prompt once.  ``provider`` (an already-built provider, e.g. an in-process
    mock) and ``prompt_builder`` replace the ones the spec would build.  ``signals`` lets the
    seat send table signals and hear them in its feed (:mod:`harness.agents.table_signals`).  Raises
    :class:`FatalModelError` when the provider cannot be set up (no API key).
    """
    llm_provider = provider if provider is not None else build_provider(spec)
    try:
        counter = counter_for(spec)
    except TokenizerError as exc:
        raise FatalModelError(spec.provider, spec.model, _TokenizerMissing(str(exc))) from exc
    autopilot: RuleBot | None = None
    fallback: Fallback = _simplest
    if spec.fallback == "autopilot":
        from .rulebot import RuleBot  # imported on use: only autopilot seats need the bot

        autopilot = RuleBot(f"{name} (autopilot)")
        fallback = autopilot.decide
    llm = build_llm_agent(
        spec,
        prompt_builder
        if prompt_builder is not None
        else Transcript(
            names,
            locale,
            spec.history,
            spec.context_budget(),
            count_tokens=counter,
            builder=HarnessPromptBuilder(names, locale, signals=signals, rules=spec.rules),
        ),
        fallback=fallback,
        provider=llm_provider,
        record_sink=record_sink,
        system_prompt_sink=system_prompt_sink,
        signal_names=names if signals else None,
    )
    names = list(names)

    def view_json(view: SeatView) -> dict[str, Any]:
        return render_json(view, names, locale)

    if autopilot is not None:
        return _AutopilotModelSeat(
            name, llm, autopilot, decision_seconds=spec.decision_seconds, view_json=view_json
        )
    return ModelSeat(name, llm, decision_seconds=spec.decision_seconds, view_json=view_json)
