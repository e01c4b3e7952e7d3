"""Anthropic Messages API adapter.

The system prompt (the rules, the same for every seat) is sent as one text block with
``cache_control: {"type": "ephemeral"}`` and the last message carries a second breakpoint, so a
seat's growing conversation is read from Anthropic's prompt cache up to its new tail
(``cache_read_input_tokens`` is recorded as cached input). Answer modes: ``tool`` (default; a forced ``choose`` tool),
``json_schema`` (structured output via ``output_config.format``) and ``text``.

The response body is read by the adapter itself (the SDK's raw response): a success status whose
body is not a Message (HTML, truncated JSON, an unrequested event stream, missing or mistyped
fields) becomes a :class:`~.provider_errors.BadResponse`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from .provider_contract import (
    TOOL_NAME,
    AnswerMode,
    ProviderReply,
    ProviderRequest,
    finish_reason,
    request_schema,
    tool_description,
)
from .provider_errors import (
    BadResponse,
    ConnectionFailed,
    ProviderError,
    ProviderTimeout,
    ServerError,
    error_from_status,
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

__all__ = ["AnthropicProvider", "map_anthropic_error", "messages_kwargs", "parse_message"]

DEFAULT_MAX_TOKENS = 1024
LOCAL_PLACEHOLDER_KEY = "sk-ant-no-key-required"


def cached_messages(messages: Sequence[Mapping[str, str]]) -> list[dict[str, Any]]:
    """The messages with a cache breakpoint on the last one: a seat's conversation only grows,
    so the next request reads everything up to here from Anthropic's prompt cache."""
    out: list[dict[str, Any]] = [dict(m) for m in messages]
    if out:
        last = out[-1]
        last["content"] = [
            {"type": "text", "text": last["content"], "cache_control": {"type": "ephemeral"}}
        ]
    return out


def messages_kwargs(req: ProviderRequest) -> dict[str, Any]:
    """Keyword arguments of one ``messages.create`` call for ``req`` (without timeout)."""
    params = dict(req.params)
    params.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    extra_body: dict[str, Any] = dict(params.pop("extra_body", None) or {})
    kwargs: dict[str, Any] = {
        "model": req.model,
        "system": [{"type": "text", "text": req.system, "cache_control": {"type": "ephemeral"}}],
        "messages": cached_messages(req.messages),
    }
    mode = req.answer_mode
    if mode == "tool":
        kwargs["tools"] = [
            {
                "name": TOOL_NAME,
                "description": tool_description(req.answer_shape),
                "input_schema": request_schema(req),
            }
        ]
        # Extended thinking forbids forcing a tool; "auto" is the strongest choice allowed then.
        thinking = params.get("thinking")
        thinking_on = isinstance(thinking, Mapping) and thinking.get("type") != "disabled"
        kwargs["tool_choice"] = (
            {"type": "auto"} if thinking_on else {"type": "tool", "name": TOOL_NAME}
        )
    elif mode == "json_schema":
        output_config = dict(extra_body.pop("output_config", None) or {})
        output_config["format"] = {
            "type": "json_schema",
            "schema": request_schema(req),
        }
        extra_body["output_config"] = output_config
    elif mode != "text":
        raise ValueError(f"answer mode {mode!r} is not supported by the anthropic provider")
    kwargs.update(params)
    if extra_body:
        kwargs["extra_body"] = extra_body
    return kwargs


def parse_message(body: Mapping[str, Any]) -> ProviderReply:
    """Turn a Messages API response body into a :class:`ProviderReply`.

    ``input_tokens`` = uncached input + cache reads + cache writes, ``cached_input_tokens`` =
    cache reads (``None`` when ``cache_read_input_tokens`` is absent: not reported).
    ``stop_reason`` is kept as ``finish_reason_raw`` and normalised (``end_turn`` → ``stop``,
    ``max_tokens`` → ``length``, ``tool_use`` → ``tool_calls``, ...).  Raises :class:`BadResponse` when ``content`` is not an array of blocks, a
    ``text`` / ``thinking`` block's text is not a string, a ``tool_use`` block has no ``input``,
    or a token count is not an integer.  Block types the harness does not use are skipped.
    """
    content = body.get("content")
    if not isinstance(content, list):
        error = body.get("error")
        if isinstance(error, Mapping) and isinstance(error.get("message"), str):
            raise BadResponse(f"the response is an error object: {error['message']}")
        what = "no content" if content is None else f"content as a JSON {json_type(content)}"
        raise BadResponse(f"the response has {what}, not an array of blocks")
    texts: list[str] = []
    thoughts: list[str] = []
    tool_arguments = None
    for i, item in enumerate(content):
        block = mapping_field(item, f"content[{i}]")
        assert block is not None
        kind = block.get("type")
        if kind == "text":
            texts.append(
                string_field(block.get("text"), f"content[{i}].text", optional=False) or ""
            )
        elif kind == "thinking":
            thoughts.append(
                string_field(block.get("thinking"), f"content[{i}].thinking", optional=False) or ""
            )
        elif kind == "tool_use" and (block.get("name") == TOOL_NAME or tool_arguments is None):
            if "input" not in block:
                raise BadResponse(f"the response has no content[{i}].input")
            tool_arguments = json.dumps(block["input"], ensure_ascii=False)
    usage = mapping_field(body.get("usage"), "usage", optional=True)
    cache_read = optional_token_count(usage, "cache_read_input_tokens")
    cache_write = token_count(usage, "cache_creation_input_tokens")
    stop = body.get("stop_reason")
    stop_raw = str(stop) if isinstance(stop, str) and stop else None
    return ProviderReply(
        text="".join(texts) if texts else None,
        tool_arguments=tool_arguments,
        reasoning="\n\n".join(thoughts) if thoughts else None,
        input_tokens=token_count(usage, "input_tokens") + (cache_read or 0) + cache_write,
        cached_input_tokens=cache_read,
        finish_reason=finish_reason(stop_raw),
        finish_reason_raw=stop_raw,
        output_tokens=token_count(usage, "output_tokens"),
        reasoning_tokens=0,  # not reported separately; thinking is part of output_tokens
        model=str(body.get("model") or ""),
        raw=dict(body),
    )


def map_anthropic_error(exc: Exception) -> ProviderError:
    """Translate an ``anthropic`` SDK exception."""
    import anthropic

    message = str(getattr(exc, "message", None) or exc)
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderTimeout(message)
    if isinstance(exc, anthropic.APIConnectionError):
        return ConnectionFailed(message)
    if isinstance(exc, anthropic.APIStatusError):
        headers = dict(exc.response.headers.items()) if exc.response is not None else None
        return error_from_status(exc.status_code, message, headers)
    return ServerError(message)


class AnthropicProvider(SdkClientProvider):
    """Messages API through ``anthropic.AsyncAnthropic`` with the SDK's retries disabled.

    Settings: ``base_url``, ``api_key_env`` (default ``ANTHROPIC_API_KEY``; required unless
    ``base_url`` is given), ``default_answer_mode``, ``default_headers``.
    """

    name: ClassVar[str] = "anthropic"
    default_answer_mode: AnswerMode = "tool"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(
        {"tool", "json_schema", "text"}
    )

    default_api_key_env: ClassVar[str] = "ANTHROPIC_API_KEY"
    placeholder_key: ClassVar[str] = LOCAL_PLACEHOLDER_KEY

    def make_client(self, **options: Any) -> Any:
        import anthropic

        return anthropic.AsyncAnthropic(**options)

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        import anthropic

        try:
            response = await self._client.messages.with_raw_response.create(
                **messages_kwargs(req), timeout=req.timeout
            )
            data = await response.read()
        except anthropic.AnthropicError as exc:
            raise map_anthropic_error(exc) from exc
        except Exception as exc:  # the body's transfer failed after the headers came
            failed = transport_failure(exc)
            if failed is None:
                raise
            raise failed from exc
        return parse_message(json_body(data, response.headers.get("content-type")))

    async def aclose(self) -> None:
        await self._client.close()
