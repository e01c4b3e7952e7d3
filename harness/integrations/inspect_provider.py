"""A :class:`~harness.agents.providers.provider_contract.Provider` that asks Inspect AI's model.

Inspect owns the model connection (its model string, API keys from the environment, its own
retries and rate limits, its usage log); the harness keeps everything else: the prompts, strict
parsing, corrective re-prompts and fallbacks of :class:`~harness.agents.llm_agent.LLMAgent`.

Every answer mode of a league player is offered: ``text`` (the answer in the reply text, which
every Inspect model supports), ``json_schema`` (Inspect's ``response_schema``), ``tool`` (a forced
``choose`` tool call), and ``json_object`` / ``grammar`` (the ``response_format`` / GBNF
``grammar`` body fields of OpenAI-compatible servers such as llama.cpp's, sent as ``extra_body``).

A request the model's context cannot hold comes back from Inspect as an output whose stop reason
is ``model_length`` (the provider's HTTP 400 turned into a reply, its text the server's error):
it is raised as :class:`~harness.agents.providers.provider_errors.ContextOverflow`, never returned as the
model's words.

Replies carry the accounting of the league's own adapters: ``finish_reason`` from Inspect's stop
reason (``max_tokens`` → ``length``, so an answer cut at the token limit is ``truncated``, not the
model's invalid answer; ``unknown`` → not said), ``input_tokens`` counting every prompt token
(Inspect's own count leaves out the cached ones), and ``cached_input_tokens`` ``None`` when the
server did not report it — not reported is not "nothing cached".
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from harness.agents.providers.provider_contract import (
    ANSWER_MODES,
    TOOL_NAME,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
    finish_reason,
    request_grammar,
    request_schema,
    tool_description,
)
from harness.agents.providers.provider_errors import (
    BadRequest,
    ContextOverflow,
    ProviderTimeout,
    ServerError,
    is_context_overflow,
)


class InspectProvider(Provider):
    name = "inspect"
    default_answer_mode: AnswerMode = "text"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    def __init__(self, model: Any) -> None:
        """``model`` is an ``inspect_ai.model.Model`` (usually ``get_model()`` in a solver)."""
        self.model = model

    def endpoint(self) -> str | None:
        """The URL Inspect's model calls (``base_url`` of its API; ``None`` when it has none),
        with the path of the API it uses (``/chat/completions`` or ``/responses``)."""
        api = getattr(self.model, "api", None)
        base = getattr(api, "base_url", None)
        if not base:
            return None
        responses = getattr(api, "responses_api", None)
        path = "/responses" if responses else "/chat/completions"
        return f"{str(base).rstrip('/')}{path}"

    def where(self) -> str:
        """`` 'name' at URL`` for an error message: the model and the endpoint it called."""
        url = self.endpoint()
        name = getattr(self.model, "name", None) or str(self.model)
        return f" {name!r}" + (f" at {url}" if url else "")

    def _hint(self, error: Exception) -> str:
        """What to do when a server has no Responses API (llama.cpp, vLLM, Ollama answer 404)."""
        url = self.endpoint() or ""
        status = getattr(error, "status_code", None)
        if url.endswith("/responses") and (status == 404 or "404" in str(error)):
            return (
                "; local OpenAI-compatible servers have no Responses API: use "
                "--model openai-api/<service>/<model> with <SERVICE>_BASE_URL (docs/models.md)"
            )
        return ""

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        from inspect_ai.model import (
            ChatMessageAssistant,
            ChatMessageSystem,
            ChatMessageUser,
            GenerateConfig,
        )

        messages: list[Any] = [ChatMessageSystem(content=req.system)]
        for m in req.messages:
            kind = ChatMessageAssistant if m["role"] == "assistant" else ChatMessageUser
            messages.append(kind(content=m["content"]))
        params = _config_params(req.params)
        mode_config, tools = _answer_mode(req)
        extra = {**(params.pop("extra_body", None) or {}), **mode_config.pop("extra_body", {})}
        if extra:
            mode_config["extra_body"] = extra
        config = GenerateConfig(timeout=max(1, int(req.timeout)), **params, **mode_config)
        try:
            out = await self.model.generate(messages, config=config, **tools)
        except TimeoutError as e:
            raise ProviderTimeout(f"inspect model{self.where()} timed out: {e}") from e
        except Exception as e:  # Inspect has retried what can be retried: the model is unusable
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            if is_context_overflow(first):
                raise ContextOverflow(f"inspect model{self.where()}: {first}") from e
            raise BadRequest(
                f"inspect model{self.where()} failed: {type(e).__name__}: {first}{self._hint(e)}"
            ) from e
        if out.stop_reason == "model_length" or (out.error and is_context_overflow(str(out.error))):
            text = str(out.error or out.completion or "the request does not fit the context")
            first = (text.strip().splitlines() or ["model_length"])[0]
            raise ContextOverflow(f"inspect model{self.where()}: {first[:300]}")
        if out.error:
            raise ServerError(f"inspect model{self.where()} error: {out.error}")
        usage = out.usage
        stop = str(out.stop_reason) if out.stop_reason not in (None, "unknown") else None
        return ProviderReply(
            text=out.completion,
            tool_arguments=_tool_arguments(out) if req.answer_mode == "tool" else None,
            input_tokens=_input_tokens(usage),
            cached_input_tokens=usage.input_tokens_cache_read if usage else None,
            output_tokens=(usage.output_tokens if usage else 0) or 0,
            reasoning_tokens=(usage.reasoning_tokens if usage else 0) or 0,
            model=out.model or str(self.model),
            finish_reason=finish_reason(stop),
            finish_reason_raw=stop,
        )


def _input_tokens(usage: Any) -> int:
    """Every prompt token of the request, as the league's adapters count them: Inspect's
    ``input_tokens`` leaves out the tokens read from or written to a prompt cache."""
    if usage is None:
        return 0
    return int(
        (usage.input_tokens or 0)
        + (usage.input_tokens_cache_read or 0)
        + (usage.input_tokens_cache_write or 0)
    )


def _answer_mode(req: ProviderRequest) -> tuple[dict[str, Any], dict[str, Any]]:
    """``GenerateConfig`` fields and ``generate`` keyword arguments of the request's mode."""
    mode = req.answer_mode
    if mode == "text":
        return {}, {}
    schema = request_schema(req)
    if mode == "json_schema":
        from inspect_ai.model import ResponseSchema
        from inspect_ai.util import JSONSchema

        return {
            "response_schema": ResponseSchema(
                name="choice", json_schema=JSONSchema.model_validate(schema), strict=True
            )
        }, {}
    if mode == "json_object":
        return {"extra_body": {"response_format": {"type": "json_object", "schema": schema}}}, {}
    if mode == "grammar":
        return {"extra_body": {"grammar": request_grammar(req)}}, {}
    from inspect_ai.tool import ToolFunction, ToolInfo, ToolParams

    params = ToolParams.model_validate(schema)
    info = ToolInfo(
        name=TOOL_NAME, description=tool_description(req.answer_shape), parameters=params
    )
    return {}, {"tools": [info], "tool_choice": ToolFunction(name=TOOL_NAME)}


def _tool_arguments(out: Any) -> str | None:
    """The ``choose`` call's arguments as JSON text (``None`` without such a call)."""
    calls = out.message.tool_calls or [] if out.choices else []
    for call in calls:
        if call.function == TOOL_NAME:
            return json.dumps(call.arguments, ensure_ascii=False)
    return None


def _config_params(params: dict[str, Any]) -> dict[str, Any]:
    """The call parameters Inspect's ``GenerateConfig`` knows (temperature, max_tokens, …)."""
    from inspect_ai.model import GenerateConfig

    known = GenerateConfig.model_fields
    return {k: v for k, v in params.items() if k in known}
