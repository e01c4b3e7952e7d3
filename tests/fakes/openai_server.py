"""Fake OpenAI Chat Completions server (``POST /v1/chat/completions``, ``GET /v1/models``).

Answers with tool calls when tools were sent, else with text JSON; usage includes
``prompt_tokens_details.cached_tokens`` (unless ``script.report_cached`` is false) and
``completion_tokens_details.reasoning_tokens``; reasoning text is returned as
``message.reasoning_content``; ``finish_reason`` is ``stop``, ``tool_calls`` or (a
:class:`Truncated` answer) ``length``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from .script import (
    Answer,
    Behaviour,
    ContextOverflow,
    Illegal,
    Malformed,
    Stall,
    Status,
    Truncated,
    answer_payload,
    estimate_tokens,
    forced_tool_name,
    prompt_text,
)
from .server import FakeServer, Response

__all__ = ["FakeOpenAIServer"]

_ERROR_TYPES = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "forbidden"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("rate_limit_exceeded", "rate_limit_exceeded"),
}


class FakeOpenAIServer(FakeServer):
    """Speaks the OpenAI wire format; ``base_url`` ends in ``/v1`` as the SDK expects."""

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def handle_get(self, path: str) -> Response:
        if path.rstrip("/") == "/v1/models":
            return 200, {}, {"object": "list", "data": [{"id": "fake-model", "object": "model"}]}
        return super().handle_get(path)

    def handle_model_call(self, path: str, body: dict[str, Any], behaviour: Behaviour) -> Response:
        if path.rstrip("/") != "/v1/chat/completions":
            return 404, {}, {"error": {"message": f"no route POST {path}", "type": "not_found"}}
        if isinstance(behaviour, Status):
            return self._error(behaviour, body)
        if isinstance(behaviour, ContextOverflow):
            return _overflow(behaviour)
        if isinstance(behaviour, Stall):
            behaviour = Answer()
        reasoning = behaviour.reasoning if isinstance(behaviour, Answer) else None
        message: dict[str, Any] = {"role": "assistant", "content": None}
        tool = forced_tool_name(body)
        if isinstance(behaviour, Malformed):
            message["content"] = behaviour.text
            answer_text = behaviour.text
        else:
            assert isinstance(behaviour, Answer | Illegal | Truncated)
            answer_text = json.dumps(answer_payload(behaviour, body))
            if isinstance(behaviour, Truncated):
                answer_text = behaviour.text(answer_payload(behaviour, body))
            if tool is not None:
                message["tool_calls"] = [
                    {
                        "id": f"call_{self.next_id()}",
                        "type": "function",
                        "function": {"name": tool, "arguments": answer_text},
                    }
                ]
            else:
                message["content"] = answer_text
        if reasoning:
            message["reasoning_content"] = reasoning
        prompt_tokens = self.script.usage_tokens or estimate_tokens(prompt_text(body))
        reasoning_tokens = estimate_tokens(reasoning) if reasoning else 0
        completion_tokens = estimate_tokens(answer_text) + reasoning_tokens
        if isinstance(behaviour, Truncated):
            finish = "length"
        else:
            finish = "tool_calls" if "tool_calls" in message else "stop"
        usage: dict[str, Any] = {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "completion_tokens_details": {"reasoning_tokens": reasoning_tokens},
        }
        if self.script.report_cached:
            cached = min(self.script.cached_tokens, prompt_tokens)
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        return (
            200,
            {},
            {
                "id": f"chatcmpl-fake-{self.next_id()}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", "unknown"),
                "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage,
            },
        )

    def _error(self, status: Status, body: dict[str, Any]) -> Response:
        kind, code = _ERROR_TYPES.get(status.code, ("server_error", None))
        message = status.message or f"fake error {status.code}"
        if status.code == 404 and status.message in (None, "model not found"):
            message = (
                f"The model `{body.get('model')}` does not exist or you do not have access to it."
            )
        headers = {} if status.retry_after is None else {"Retry-After": f"{status.retry_after:g}"}
        return status.code, headers, {"error": {"message": message, "type": kind, "code": code}}


def _overflow(behaviour: ContextOverflow) -> Response:
    """The 400 of a request longer than the context, worded as OpenAI or llama.cpp's server."""
    used, limit = behaviour.prompt_tokens, behaviour.context_tokens
    if behaviour.style == "llama.cpp":
        error = {
            "code": 400,
            "message": (
                f"request ({used} tokens) exceeds the available context size ({limit} tokens), "
                "try increasing it"
            ),
            "type": "exceed_context_size_error",
            "n_prompt_tokens": used,
            "n_ctx": limit,
        }
    else:
        error = {
            "message": (
                f"This model's maximum context length is {limit} tokens. However, your messages "
                f"resulted in {used} tokens. Please reduce the length of the messages."
            ),
            "type": "invalid_request_error",
            "param": "messages",
            "code": "context_length_exceeded",
        }
    return 400, {}, {"error": error}
