"""Fake Anthropic Messages server (``POST /v1/messages``).

Answers with a ``tool_use`` block when tools were sent, else a text block; ``thinking`` blocks carry
reasoning; usage reports ``cache_read_input_tokens`` (uncached ``input_tokens`` exclude them),
unless ``script.report_cached`` is false; ``stop_reason`` is ``end_turn``, ``tool_use`` or (a
:class:`Truncated` answer) ``max_tokens``.
"""

from __future__ import annotations

import json
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

__all__ = ["FakeAnthropicServer"]

_ERROR_TYPES = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
    529: "overloaded_error",
}


class FakeAnthropicServer(FakeServer):
    """Speaks the Anthropic wire format; ``base_url`` is the root (the SDK appends ``/v1``)."""

    answer_field = "content"

    @property
    def base_url(self) -> str:
        return self.root_url

    def handle_model_call(self, path: str, body: dict[str, Any], behaviour: Behaviour) -> Response:
        if path.split("?")[0].rstrip("/") != "/v1/messages":
            return 404, {}, _error_body("not_found_error", f"no route POST {path}")
        if isinstance(behaviour, Status):
            return self._error(behaviour, body)
        if isinstance(behaviour, ContextOverflow):
            used, limit = behaviour.prompt_tokens, behaviour.context_tokens
            message = f"prompt is too long: {used} tokens > {limit} maximum"
            return 400, {}, _error_body("invalid_request_error", message)
        if isinstance(behaviour, Stall):
            behaviour = Answer()
        content: list[dict[str, Any]] = []
        reasoning = behaviour.reasoning if isinstance(behaviour, Answer) else None
        if reasoning:
            content.append({"type": "thinking", "thinking": reasoning, "signature": "fake-sig"})
        tool = forced_tool_name(body)
        if isinstance(behaviour, Malformed):
            content.append({"type": "text", "text": behaviour.text})
            answer_text = behaviour.text
        elif isinstance(behaviour, Truncated):
            answer_text = behaviour.text(answer_payload(behaviour, body))
            content.append({"type": "text", "text": answer_text})
        else:
            assert isinstance(behaviour, Answer | Illegal)
            payload = answer_payload(behaviour, body)
            answer_text = json.dumps(payload)
            if tool is not None:
                content.append(
                    {
                        "type": "tool_use",
                        "id": f"toolu_{self.next_id()}",
                        "name": tool,
                        "input": payload,
                    }
                )
            else:
                content.append({"type": "text", "text": answer_text})
        prompt_tokens = self.script.usage_tokens or estimate_tokens(prompt_text(body))
        cached = min(self.script.cached_tokens, prompt_tokens)
        output_tokens = estimate_tokens(answer_text) + (
            estimate_tokens(reasoning) if reasoning else 0
        )
        usage: dict[str, Any] = {
            "input_tokens": prompt_tokens - cached,
            "output_tokens": output_tokens,
            "cache_creation_input_tokens": 0,
        }
        if self.script.report_cached:
            usage["cache_read_input_tokens"] = cached
        else:
            usage["input_tokens"] = prompt_tokens
        if isinstance(behaviour, Truncated):
            stop = "max_tokens"
        else:
            stop = "tool_use" if content[-1]["type"] == "tool_use" else "end_turn"
        return (
            200,
            {},
            {
                "id": f"msg_fake_{self.next_id()}",
                "type": "message",
                "role": "assistant",
                "model": body.get("model", "unknown"),
                "content": content,
                "stop_reason": stop,
                "stop_sequence": None,
                "usage": usage,
            },
        )

    def _error(self, status: Status, body: dict[str, Any]) -> Response:
        kind = _ERROR_TYPES.get(status.code, "api_error")
        message = status.message or f"fake error {status.code}"
        if status.code == 404 and status.message in (None, "model not found"):
            message = f"model: {body.get('model')}"
        headers = {} if status.retry_after is None else {"retry-after": f"{status.retry_after:g}"}
        return status.code, headers, _error_body(kind, message)


def _error_body(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}
