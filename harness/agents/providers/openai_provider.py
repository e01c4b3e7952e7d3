"""OpenAI Chat Completions adapter (also vLLM, Ollama, llama.cpp server, LM Studio via ``base_url``).

The static system prompt is the first message (OpenAI caches identical prompt prefixes
automatically). Answer modes: ``json_schema`` (strict structured output), ``tool`` (one forced
``choose`` function), ``json_object`` (``response_format={"type": "json_object", "schema": ...}``,
what llama.cpp's server accepts), ``grammar`` (GBNF in ``extra_body``) and ``text``.

The helpers :func:`chat_completions_kwargs`, :func:`parse_chat_completion` and
:func:`map_openai_error` are shared with the LiteLLM adapter, whose requests, responses and
exceptions follow the OpenAI shapes.

The response body is read by the adapter itself (the SDK's raw response), so a success status
whose body is not a Chat Completion (HTML, truncated JSON, an unrequested event stream, missing or
mistyped fields) becomes a :class:`~.provider_errors.BadResponse` instead of an SDK parsing accident.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from ..key_redaction import redact
from .provider_contract import (
    ANSWER_MODES,
    TOOL_NAME,
    AnswerMode,
    ProviderReply,
    ProviderRequest,
    finish_reason,
    request_grammar,
    request_schema,
    tool_description,
)
from .provider_errors import (
    BadResponse,
    ConnectionFailed,
    ContextOverflow,
    ProviderError,
    ProviderTimeout,
    ServerError,
    error_from_status,
    exception_chain,
    is_context_overflow,
    transport_failure,
)
from .response_body import (
    json_body,
    json_type,
    mapping_field,
    optional_token_count,
    string_field,
    token_count,
)
from .sdk_client import SdkClientProvider

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
        schema = request_schema(req)
        if mode == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": "choice", "strict": True, "schema": schema},
            }
        elif mode == "json_object":
            kwargs["response_format"] = {"type": "json_object", "schema": schema}
        elif mode == "grammar":
            extra_body["grammar"] = request_grammar(req)
        elif mode == "tool":
            kwargs["tools"] = [
                {
                    "type": "function",
                    "function": {
                        "name": TOOL_NAME,
                        "description": tool_description(req.answer_shape),
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


def _error_object_message(body: Mapping[str, Any]) -> str | None:
    """The message of an error object sent with a success status (some proxies do)."""
    error = body.get("error")
    if isinstance(error, Mapping) and isinstance(error.get("message"), str):
        return str(error["message"])
    return str(error) if isinstance(error, str) else None


def parse_chat_completion(body: Mapping[str, Any]) -> ProviderReply:
    """Turn a Chat Completions response body into a :class:`ProviderReply`.

    Raises :class:`BadResponse` when a field the answer needs is missing or of the wrong type:
    ``choices`` (a non-empty array), its first ``message`` (an object), ``content`` (string or
    null), ``tool_calls`` (array or null) with string ``arguments``, and integer token counts.
    ``usage.prompt_tokens_details.cached_tokens`` absent is ``None`` (not reported), not 0.
    """
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        error = _error_object_message(body)
        if error is not None:
            raise BadResponse(f"the response is an error object: {error}")
        what = "no choices" if choices is None else f"choices as a JSON {json_type(choices)}"
        raise BadResponse(f"the response has {what}, not a non-empty array")
    first = mapping_field(choices[0], "choices[0]")
    assert first is not None
    message = mapping_field(first.get("message"), "choices[0].message")
    assert message is not None
    content = string_field(message.get("content"), "choices[0].message.content")
    calls = message.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        raise BadResponse(
            f"choices[0].message.tool_calls is a JSON {json_type(calls)}, not an array"
        )
    tool_arguments = None
    for i, call in enumerate(calls or []):
        where = f"choices[0].message.tool_calls[{i}]"
        call_obj = mapping_field(call, where)
        assert call_obj is not None
        function = mapping_field(call_obj.get("function"), f"{where}.function")
        assert function is not None
        if function.get("name") == TOOL_NAME or tool_arguments is None:
            tool_arguments = string_field(
                function.get("arguments"), f"{where}.function.arguments", optional=False
            )
    reasoning = message.get("reasoning_content") or message.get("reasoning")
    usage = mapping_field(body.get("usage"), "usage", optional=True)
    finish = first.get("finish_reason")
    finish_raw = str(finish) if isinstance(finish, str) and finish else None
    return ProviderReply(
        text=content,
        tool_arguments=tool_arguments,
        reasoning=reasoning if isinstance(reasoning, str) else None,
        input_tokens=token_count(usage, "prompt_tokens"),
        cached_input_tokens=optional_token_count(usage, "prompt_tokens_details", "cached_tokens"),
        output_tokens=token_count(usage, "completion_tokens"),
        reasoning_tokens=token_count(usage, "completion_tokens_details", "reasoning_tokens"),
        model=str(body.get("model") or ""),
        raw=dict(body),
        finish_reason=finish_reason(finish_raw),
        finish_reason_raw=finish_raw,
    )


def _headers_of(exc: BaseException) -> Mapping[str, Any] | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers:
        return dict(headers.items())
    extra = getattr(exc, "litellm_response_headers", None) or getattr(exc, "headers", None)
    return dict(extra.items()) if isinstance(extra, Mapping) else None


# LiteLLM's wording when a success response could not be read as a completion.
_BAD_BODY_MARKERS = (
    "Empty or invalid response",
    "Invalid response object",
    "Unable to get json response",
    "provider returned",
)


def _bad_body_types() -> tuple[type[BaseException], ...]:
    """Exceptions that, in an SDK error's chain, mean the body arrived but could not be read."""
    import pydantic

    return (ValueError, KeyError, TypeError, AttributeError, pydantic.ValidationError)


def _first_line(text: str, limit: int = 200) -> str:
    line = redact((text.strip().splitlines() or [""])[0].strip())  # before it is cut
    return line if len(line) <= limit else line[: limit - 1] + "…"


def map_openai_error(exc: Exception) -> ProviderError:
    """Translate an ``openai`` SDK exception (or a LiteLLM one, which subclass them).

    A request longer than the model's context (LiteLLM's ``ContextWindowExceededError``, or an
    error status whose message or ``code`` says so) is :class:`ContextOverflow`.
    LiteLLM re-raises transport failures and unreadable success bodies as HTTP 500s or
    connection errors; the original error in the chain decides: a transport failure first, then
    an unreadable body (``BadResponse``), then the SDK's own timeout / connection classes.
    """
    import openai

    message = str(getattr(exc, "message", None) or exc)
    chain = exception_chain(exc)
    status = getattr(exc, "status_code", None)
    if any(type(link).__name__ == "ContextWindowExceededError" for link in chain) or (
        isinstance(status, int)
        and status >= 400
        and is_context_overflow(message, getattr(exc, "code", None))
        and status not in (401, 403, 404, 429)
    ):
        return ContextOverflow(message, status=status if isinstance(status, int) else None)
    failed = transport_failure(exc, message)
    if failed is not None:
        return failed
    if (
        not isinstance(exc, openai.APIStatusError)
        or exc.status_code < 400
        or exc.status_code == 500
    ):
        bad_types = _bad_body_types()
        if any(isinstance(link, bad_types) for link in chain[1:]) or any(
            marker in message for marker in _BAD_BODY_MARKERS
        ):
            return BadResponse(f"the response could not be read: {_first_line(message)}")
    for link in chain:
        if isinstance(link, openai.APITimeoutError):
            return ProviderTimeout(message)
        if isinstance(link, openai.APIConnectionError):
            return ConnectionFailed(message)
    if isinstance(status, int):
        return error_from_status(status, message, _headers_of(exc))
    return ServerError(message)


class OpenAIProvider(SdkClientProvider):
    """Chat Completions through ``openai.AsyncOpenAI`` with the SDK's retries disabled.

    Settings: ``base_url`` (OpenAI-compatible server), ``api_key_env`` (environment variable
    holding the key; without ``base_url`` it must be set), ``default_answer_mode``,
    ``default_headers``.
    """

    name: ClassVar[str] = "openai"
    default_answer_mode: AnswerMode = "json_schema"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    default_api_key_env: ClassVar[str] = "OPENAI_API_KEY"
    placeholder_key: ClassVar[str] = LOCAL_PLACEHOLDER_KEY

    def make_client(self, **options: Any) -> Any:
        import openai

        return openai.AsyncOpenAI(**options)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        import openai

        try:
            response = await self._client.chat.completions.with_raw_response.create(
                **chat_completions_kwargs(req), timeout=req.timeout
            )
        except openai.OpenAIError as exc:
            raise map_openai_error(exc) from exc
        body = json_body(response.content, response.headers.get("content-type"))
        return parse_chat_completion(body)

    async def aclose(self) -> None:
        await self._client.close()
