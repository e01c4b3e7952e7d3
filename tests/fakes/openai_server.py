"""Fake OpenAI Chat Completions server (``POST /v1/chat/completions``, ``GET /v1/models``).

With ``tokenize="llama.cpp"`` it also serves llama.cpp's ``POST /tokenize {"content"}``, with
``tokenize="llama-cpp-python"`` that server's ``POST /extras/tokenize {"input"}``; both answer
``{"tokens": [...]}`` counting UTF-8 bytes / 2, rounded up (:func:`count_tokens`), and the usage
of every answer then counts the prompt the same way, plus a chat template's 6 tokens per message
and 2 per request (as SmolLM2's), as a server counts with its own tokenizer.

Answers with tool calls when tools were sent, else with text JSON; usage includes
``prompt_tokens_details.cached_tokens`` (unless ``script.report_cached`` is false) and
``completion_tokens_details.reasoning_tokens``; reasoning text is returned as
``message.reasoning_content``; ``finish_reason`` is ``stop``, ``tool_calls`` or (a
:class:`Truncated` answer) ``length``.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any, Literal

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

__all__ = ["FakeOpenAIServer", "count_tokens", "message_tokens"]

TOKENIZE_ROUTES = {"llama.cpp": ("/tokenize", "content"),
                   "llama-cpp-python": ("/extras/tokenize", "input")}  # fmt: skip
MESSAGE_TOKENS = 6
REQUEST_TOKENS = 2


def count_tokens(text: str, bytes_per_token: float = 2.0) -> int:
    """The fake tokenizer: UTF-8 bytes / ``bytes_per_token``, rounded up."""
    return math.ceil(len(text.encode("utf-8")) / bytes_per_token)


def message_tokens(body: dict[str, Any], bytes_per_token: float = 2.0) -> int:
    """Prompt tokens of a request as the fake counts them: every message and the template's."""
    texts = [body.get("system") or ""] if body.get("system") else []
    for m in body.get("messages") or []:
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
        texts.append(str(content or ""))
    return REQUEST_TOKENS + sum(count_tokens(t, bytes_per_token) + MESSAGE_TOKENS for t in texts)


_ERROR_TYPES = {
    400: ("invalid_request_error", None),
    401: ("invalid_request_error", "invalid_api_key"),
    403: ("invalid_request_error", "forbidden"),
    404: ("invalid_request_error", "model_not_found"),
    429: ("rate_limit_exceeded", "rate_limit_exceeded"),
}


class FakeOpenAIServer(FakeServer):
    """Speaks the OpenAI wire format; ``base_url`` ends in ``/v1`` as the SDK expects."""

    def __init__(
        self, script: Any = None, tokenize: Literal["llama.cpp", "llama-cpp-python"] | None = None
    ) -> None:
        super().__init__(script)
        self.tokenize = tokenize
        self.tokenize_calls = 0

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def handle_side_post(self, path: str, body: dict[str, Any]) -> Response | None:
        routes = {route: field for route, field in TOKENIZE_ROUTES.values()}
        if path not in routes:
            return None
        if self.tokenize is None or TOKENIZE_ROUTES[self.tokenize][0] != path:
            return 404, {}, {"detail": "Not Found"}
        text = body.get(routes[path])
        if not isinstance(text, str):
            return 422, {}, {"detail": f"{routes[path]} must be a string"}
        self.tokenize_calls += 1
        return 200, {}, {"tokens": list(range(count_tokens(text)))}

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
        if self.script.usage_tokens:
            prompt_tokens = self.script.usage_tokens
        elif self.script.usage_bytes_per_token is not None:
            prompt_tokens = message_tokens(body, self.script.usage_bytes_per_token)
        elif self.tokenize is not None:
            prompt_tokens = message_tokens(body)
        else:
            prompt_tokens = estimate_tokens(prompt_text(body))
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
