"""LiteLLM adapter: any model string LiteLLM understands (``openai/...``, ``anthropic/...``, ...).

Requests and responses use the OpenAI Chat Completions shapes (LiteLLM translates for the
vendor); LiteLLM's exceptions subclass OpenAI's, so the OpenAI helpers are reused. LiteLLM's own
retries are disabled (``num_retries=0``, ``max_retries=0``). For Anthropic models the system
message carries ``cache_control`` so LiteLLM forwards it as a cacheable system block.

A success response is accepted only with a JSON content type (LiteLLM keeps the vendor's headers)
and the Chat Completions fields the answer needs; LiteLLM's own errors about unreadable bodies
become :class:`~.provider_errors.BadResponse` (see :func:`~.openai_provider.map_openai_error`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from types import ModuleType
from typing import Any, ClassVar

from .openai_provider import (
    LOCAL_PLACEHOLDER_KEY,
    chat_completions_kwargs,
    map_openai_error,
    parse_chat_completion,
)
from .provider_contract import (
    ANSWER_MODES,
    AnswerMode,
    Provider,
    ProviderReply,
    ProviderRequest,
    resolve_api_key,
)
from .provider_errors import BadResponse
from .response_body import check_content_type, json_type

__all__ = ["LiteLLMProvider", "import_litellm"]


def import_litellm() -> ModuleType:
    """Import LiteLLM without network access at import time and without its console banners.

    Sets ``LITELLM_LOCAL_MODEL_COST_MAP=True`` unless the environment already chose, so the
    price map shipped in the wheel is used instead of downloading one.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


def _content_type(response: Any) -> str | None:
    """The vendor response's content type, from the headers LiteLLM keeps in ``_hidden_params``
    (``headers``, or ``additional_headers`` with an ``llm_provider-`` prefix)."""
    hidden = getattr(response, "_hidden_params", None)
    if not isinstance(hidden, Mapping):
        return None
    for group, prefix in (("headers", ""), ("additional_headers", "llm_provider-")):
        headers = hidden.get(group)
        if isinstance(headers, Mapping):
            for key, value in headers.items():
                if str(key).lower() == f"{prefix}content-type" and value is not None:
                    return str(value)
    return None


def _is_anthropic_model(model: str) -> bool:
    lowered = model.lower()
    return lowered.startswith("anthropic/") or "claude" in lowered


class LiteLLMProvider(Provider):
    """``litellm.acompletion`` for any model string.

    Settings: ``api_base`` (server URL), ``api_key_env`` (environment variable holding the key;
    when omitted LiteLLM reads its usual variables, or a placeholder key is sent to a local
    ``api_base``), ``default_answer_mode``, ``cache_system`` (mark the system prompt cacheable;
    default: on for Anthropic models).
    """

    name: ClassVar[str] = "litellm"
    default_answer_mode: AnswerMode = "json_schema"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset(ANSWER_MODES)

    def __init__(
        self,
        *,
        api_base: str | None = None,
        api_key_env: str | None = None,
        default_answer_mode: AnswerMode | None = None,
        cache_system: bool | None = None,
    ) -> None:
        self._litellm = import_litellm()
        self.api_base = api_base
        self.api_key_env = api_key_env
        self.cache_system = cache_system
        if default_answer_mode is not None:
            self.default_answer_mode = default_answer_mode
        if api_key_env is not None:
            resolve_api_key(api_key_env, required=api_base is None, provider=self.name)

    def _api_key(self) -> str | None:
        if self.api_key_env is not None:
            key = resolve_api_key(
                self.api_key_env, required=self.api_base is None, provider=self.name
            )
            return key or LOCAL_PLACEHOLDER_KEY
        return LOCAL_PLACEHOLDER_KEY if self.api_base is not None else None

    def _kwargs(self, req: ProviderRequest) -> dict[str, Any]:
        kwargs = chat_completions_kwargs(req)
        cache = self.cache_system
        if cache is None:
            cache = _is_anthropic_model(req.model)
        if cache:
            kwargs["messages"][0] = {
                "role": "system",
                "content": [
                    {"type": "text", "text": req.system, "cache_control": {"type": "ephemeral"}}
                ],
            }
        if self.api_base is not None:
            kwargs["api_base"] = self.api_base
        key = self._api_key()
        if key is not None:
            kwargs["api_key"] = key
        kwargs.update(timeout=req.timeout, num_retries=0, max_retries=0)
        return kwargs

    async def complete(self, req: ProviderRequest) -> ProviderReply:
        import openai

        try:
            response = await self._litellm.acompletion(**self._kwargs(req))
        except openai.OpenAIError as exc:
            raise map_openai_error(exc) from exc
        check_content_type(_content_type(response))
        if hasattr(response, "model_dump"):
            body = response.model_dump(mode="json", warnings=False)
        else:
            body = response
        if not isinstance(body, Mapping):
            raise BadResponse(f"the response is a {json_type(body)}, not a completion")
        return parse_chat_completion(body)
