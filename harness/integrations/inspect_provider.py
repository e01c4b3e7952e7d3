"""A :class:`~harness.agents.providers.base.Provider` that asks Inspect AI's model.

Inspect owns the model connection (its model string, API keys from the environment, its own
retries and rate limits, its usage log); the harness keeps everything else: the prompts, strict
parsing, corrective re-prompts and fallbacks of :class:`~harness.agents.llm_agent.LLMAgent`.
The answer is asked for in the reply text (answer mode ``text``), which every Inspect model
supports.
"""

from __future__ import annotations

from typing import Any, ClassVar

from harness.agents.providers.base import AnswerMode, Provider, ProviderReply, ProviderRequest
from harness.agents.providers.errors import BadRequest, ProviderTimeout, ServerError


class InspectProvider(Provider):
    name = "inspect"
    default_answer_mode: AnswerMode = "text"
    supported_answer_modes: ClassVar[frozenset[AnswerMode]] = frozenset({"text"})

    def __init__(self, model: Any) -> None:
        """``model`` is an ``inspect_ai.model.Model`` (usually ``get_model()`` in a solver)."""
        self.model = model

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
        config = GenerateConfig(timeout=max(1, int(req.timeout)), **_config_params(req.params))
        try:
            out = await self.model.generate(messages, config=config)
        except TimeoutError as e:
            raise ProviderTimeout(f"inspect model timed out: {e}") from e
        except Exception as e:  # Inspect has retried what can be retried: the model is unusable
            first = (str(e).strip().splitlines() or [type(e).__name__])[0]
            raise BadRequest(f"inspect model failed: {type(e).__name__}: {first}") from e
        if out.error:
            raise ServerError(f"inspect model error: {out.error}")
        usage = out.usage
        return ProviderReply(
            text=out.completion,
            input_tokens=(usage.input_tokens if usage else 0) or 0,
            cached_input_tokens=(usage.input_tokens_cache_read if usage else 0) or 0,
            output_tokens=(usage.output_tokens if usage else 0) or 0,
            reasoning_tokens=(usage.reasoning_tokens if usage else 0) or 0,
            model=out.model or str(self.model),
        )


def _config_params(params: dict[str, Any]) -> dict[str, Any]:
    """The call parameters Inspect's ``GenerateConfig`` knows (temperature, max_tokens, …)."""
    from inspect_ai.model import GenerateConfig

    known = GenerateConfig.model_fields
    return {k: v for k, v in params.items() if k in known}
