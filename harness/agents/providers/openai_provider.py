"""OpenAI Chat Completions adapter (also vLLM, Ollama, llama.cpp server, LM Studio via ``base_url``).

The static system prompt is the first message (OpenAI caches identical prompt prefixes
automatically). Answer modes: ``json_schema`` (strict structured output), ``tool`` (one forced
``choose`` function), ``json_object`` (``response_format={"type": "json_object", "schema": ...}``,
what llama.cpp's server accepts), ``grammar`` (GBNF in ``extra_body``) and ``text``.

The helpers :func:`chat_completions_kwargs`, :func:`parse_chat_completion` and
:func:`map_openai_error` are shared with the LiteLLM adapter, whose requests, responses and
exceptions follow the OpenAI shapes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .base import (
    ANSWER_MODES,
    TOOL_DESCRIPTION,
    TOOL_NAME,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
    answer_grammar,
    answer_schema,
    resolve_api_key,
)
from .errors import (
    ConnectionFailed,
    ProviderError,
    ProviderTimeout,
    ServerError,
    error_from_status,
)

__all__ = [
    "OpenAIProvider",
    "chat_completions_kwargs",
    "map_openai_error",
    "parse_chat_completion",
]

# Placeholder key for local OpenAI-compatible servers that need none (the SDK insists on one).
LOCAL_PLACEHOLDER_KEY = "sk-no-key-required"


def chat_completions_kwargs(req: ProviderRequest) -> dict[str, Any]:
    """Keyword arguments of one Chat Completions call for ``req`` (without timeout/client opts)."""
    params = dict(req.params)
    extra_body: dict[str, Any] = dict(params.pop("extra_body", None) or {})
    kwargs: dict[str, Any] = {
        "model": req.model,
        "messages": [{"role": "system", "content": req.system}, *req.messages],
    }
    mode = req.answer_mode
    if mode != "text":
        schema = answer_schema(req.option_ids)
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "choice", "strict": True, "schema": schema},
            }
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        elif mode == "grammar":
            extra_body["grammar"] = answer_grammar(req.option_ids)
        elif mode == "tool":
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": TOOL_NAME,
                        "description": TOOL_DESCRIPTION,
                        "parameters": schema,
                        "strict": True,
                    },
                }
            ]
            kwargs["tool_choice"] = {"type": "function", "function": {"name": TOOL_NAME}}
        else:  # pragma: no cover - guarded by the Literal type and LLMAgent
            raise ValueError(f"unknown answer mode {mode!r}")
    kwargs.update(params)
    if extra_body:
        kwargs["extra_body"] = extra_body
    return kwargs


def _get(obj: Mapping[str, Any] | None, *keys: str) -> Any:
    cur: Any = obj
    for key in keys:
        if not isinstance(cur, Mapping):
            return None
        cur = cur.get(key)
    return cur


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_chat_completion(body: dict[str, Any]) -> ProviderReply:
    """Turn a Chat Completions response body into a :class:`ProviderReply`.

    Raises ``ServerError`` when the body has no choice/message (a broken server answer).
    """
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], Mapping):
        raise ServerError("response has no choices")
    message = choices[0].get("message")
    if not isinstance(message, Mapping):
        raise ServerError("response choice has no message")
    tool_arguments = None
    for call in message.get("tool_calls") or []:
        function = _get(call, "function")
        if isinstance(function, Mapping) and (
            function.get("name") == TOOL_NAME or tool_arguments is None
        ):
            args = function.get("arguments")
            tool_arguments = args if isinstance(args, str) else None
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    usage = body.get("usage") or {}
    content = message.get("content")
    return ProviderReply(
        text=content if isinstance(content, str) else None,
        tool_arguments=tool_arguments,
        reasoning=reasoning if isinstance(reasoning, str) else None,
        input_tokens=_int(_get(usage, "prompt_tokens")),
        cached_input_tokens=_int(_get(usage, "prompt_tokens_details", "cached_tokens")),
        output_tokens=_int(_get(usage, "completion_tokens")),
        reasoning_tokens=_int(_get(usage, "completion_tokens_details", "reasoning_tokens")),
        model=str(body.get("model") or ""),
        raw=body,
    )


def _headers_of(exc: BaseException) -> Mapping[str, Any] | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers:
        return dict(headers.items())
    extra = getattr(exc, "litellm_response_headers", None) or getattr(exc, "headers", None)
    return dict(extra.items()) if isinstance(extra, Mapping) else None


def _transport_error_types() -> tuple[
    tuple[type[BaseException], ...], tuple[type[BaseException], ...]
]:
    """(timeout types, connection-failure types) of the SDKs and HTTP clients present."""
    import openai

    timeouts: list[type[BaseException]] = [openai.APITimeoutError, TimeoutError]
    connection: list[type[BaseException]] = [openai.APIConnectionError, ConnectionError]
    try:
        import httpx
    except ImportError:  # pragma: no cover - httpx ships with litellm
        pass
    else:
        timeouts.append(httpx.TimeoutException)
        connection.append(httpx.TransportError)
    return tuple(timeouts), tuple(connection)


def _chain(exc: BaseException, limit: int = 8) -> list[BaseException]:
    """``exc`` and the exceptions it was raised from (``__cause__`` / ``__context__``)."""
    links: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and len(links) < limit:
        links.append(current)
        current = current.__cause__ or current.__context__
    return links


def map_openai_error(exc: Exception) -> ProviderError:
    """Translate an ``openai`` SDK exception (or a LiteLLM one, which subclass them)."""

    message = str(getattr(exc, "message", None) or exc)
    # LiteLLM re-raises transport failures as HTTP 500s; the original error is in the chain.
    timeouts, connection_errors = _transport_error_types()
    for link in _chain(exc):
        if isinstance(link, timeouts):
            return ProviderTimeout(message)
        if isinstance(link, connection_errors):
            return ConnectionFailed(message)
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return error_from_status(status, message, _headers_of(exc))
    return ServerError(message)


class OpenAIProvider(Provider):
    """Chat Completions through ``openai.AsyncOpenAI`` with the SDK's retries disabled.

    Settings: ``base_url`` (OpenAI-compatible server), ``api_key_env`` (environment variable
    holding the key; without ``base_url`` it must be set), ``default_answer_mode``,
    ``default_headers``.
    """

    name: ClassVar[str] = "openai"
    default_answer_mode: AnswerMode = "json_schema"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        default_answer_mode: AnswerMode | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        import openai

        key = resolve_api_key(api_key_env, required=base_url is None, provider=self.name)
        self.base_url = base_url
        if default_answer_mode is not None:
            self.default_answer_mode = default_answer_mode
        self._client = openai.AsyncOpenAI(
            api_key=key or LOCAL_PLACEHOLDER_KEY,
            base_url=base_url,
            max_retries=0,
            default_headers=dict(default_headers) if default_headers else None,
        )

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        import openai

        try:
            response = await self._client.chat.completions.create(
                **chat_completions_kwargs(req), timeout=req.timeout
            )
        except openai.OpenAIError as exc:
            raise map_openai_error(exc) from exc
        return parse_chat_completion(response.model_dump(mode="json", exclude_unset=True))

    async def aclose(self) -> None:
        await self._client.close()
