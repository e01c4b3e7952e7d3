"""Anthropic Messages API adapter.

The static system prompt is sent as one text block with ``cache_control: {"type": "ephemeral"}``
so repeated decisions read it from Anthropic's prompt cache (``cache_read_input_tokens`` is
recorded as cached input). Answer modes: ``tool`` (default; a forced ``choose`` tool),
``json_schema`` (structured output via ``output_config.format``) and ``text``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, ClassVar

from .base import (
    TOOL_DESCRIPTION,
    TOOL_NAME,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
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

__all__ = ["AnthropicProvider", "map_anthropic_error", "messages_kwargs", "parse_message"]

DEFAULT_MAX_TOKENS = 1024
LOCAL_PLACEHOLDER_KEY = "sk-ant-no-key-required"


def messages_kwargs(req: ProviderRequest) -> dict[str, Any]:
    """Keyword arguments of one ``messages.create`` call for ``req`` (without timeout)."""
    params = dict(req.params)
    params.setdefault("max_tokens", DEFAULT_MAX_TOKENS)
    extra_body: dict[str, Any] = dict(params.pop("extra_body", None) or {})
    kwargs: dict[str, Any] = {
        "model": req.model,
        "system": [{"type": "text", "text": req.system, "cache_control": {"type": "ephemeral"}}],
        "messages": [dict(m) for m in req.messages],
    }
    mode = req.answer_mode
    if mode == "tool":
        kwargs["tools"] = [
            {
                "name": TOOL_NAME,
                "description": TOOL_DESCRIPTION,
                "input_schema": answer_schema(req.option_ids),
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
        output_config["format"] = {"type": "json_schema", "schema": answer_schema(req.option_ids)}
        extra_body["output_config"] = output_config
    elif mode != "text":
        raise ValueError(f"answer mode {mode!r} is not supported by the anthropic provider")
    kwargs.update(params)
    if extra_body:
        kwargs["extra_body"] = extra_body
    return kwargs


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def parse_message(body: dict[str, Any]) -> ProviderReply:
    """Turn a Messages API response body into a :class:`ProviderReply`.

    ``input_tokens`` = uncached input + cache reads + cache writes, ``cached_input_tokens`` =
    cache reads. Raises ``ServerError`` when the body has no content list.
    """
    content = body.get("content")
    if not isinstance(content, list):
        raise ServerError("response has no content")
    texts: list[str] = []
    thoughts: list[str] = []
    tool_arguments = None
    for block in content:
        if not isinstance(block, Mapping):
            continue
        kind = block.get("type")
        if kind == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif kind == "thinking" and isinstance(block.get("thinking"), str):
            thoughts.append(block["thinking"])
        elif kind == "tool_use" and (block.get("name") == TOOL_NAME or tool_arguments is None):
            tool_arguments = json.dumps(block.get("input"), ensure_ascii=False)
    usage = body.get("usage") or {}
    cache_read = _int(usage.get("cache_read_input_tokens"))
    cache_write = _int(usage.get("cache_creation_input_tokens"))
    return ProviderReply(
        text="".join(texts) if texts else None,
        tool_arguments=tool_arguments,
        reasoning="\n\n".join(thoughts) if thoughts else None,
        input_tokens=_int(usage.get("input_tokens")) + cache_read + cache_write,
        cached_input_tokens=cache_read,
        output_tokens=_int(usage.get("output_tokens")),
        reasoning_tokens=0,  # not reported separately; thinking is part of output_tokens
        model=str(body.get("model") or ""),
        raw=body,
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


class AnthropicProvider(Provider):
    """Messages API through ``anthropic.AsyncAnthropic`` with the SDK's retries disabled.

    Settings: ``base_url``, ``api_key_env`` (default ``ANTHROPIC_API_KEY``; required unless
    ``base_url`` is given), ``default_answer_mode``, ``default_headers``.
    """

    name: ClassVar[str] = "anthropic"
    default_answer_mode: AnswerMode = "tool"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(
        {"tool", "json_schema", "text"}
    )

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key_env: str = "ANTHROPIC_API_KEY",
        default_answer_mode: AnswerMode | None = None,
        default_headers: Mapping[str, str] | None = None,
    ) -> None:
        import anthropic

        key = resolve_api_key(api_key_env, required=base_url is None, provider=self.name)
        self.base_url = base_url
        if default_answer_mode is not None:
            self.default_answer_mode = default_answer_mode
        self._client = anthropic.AsyncAnthropic(
            api_key=key or LOCAL_PLACEHOLDER_KEY,
            base_url=base_url,
            max_retries=0,
            default_headers=dict(default_headers) if default_headers else None,
        )

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        import anthropic

        try:
            message = await self._client.messages.create(
                **messages_kwargs(req), timeout=req.timeout
            )
        except anthropic.AnthropicError as exc:
            raise map_anthropic_error(exc) from exc
        return parse_message(message.model_dump(mode="json", exclude_unset=True))

    async def aclose(self) -> None:
        await self._client.close()
