"""Token counts with a real tokenizer, offline: litellm ships tiktoken's encoding files in its
wheel (plain tiktoken would download them on first use)."""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import lru_cache
from typing import Any

DEFAULT_TOKENIZER_MODEL = "gpt-4o"


@lru_cache(maxsize=1)
def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as e:  # pragma: no cover - litellm is in the llm/dev extras
        raise RuntimeError("token counting needs litellm: pip install -e '.[llm]'") from e
    return litellm


def _litellm_count_function(litellm: Any, model: str) -> Callable[[str], int]:
    """What ``litellm.token_counter(model=model, text=...)`` counts with, chosen once: LiteLLM
    picks the tokenizer (and may try to fetch it) on every call, which costs more than the
    counting.  The public call when this LiteLLM version has no such function."""
    try:
        from litellm.litellm_core_utils.token_counter import _get_count_function

        count: Callable[[str], int] = _get_count_function(model)
        return count
    except (ImportError, AttributeError, TypeError):
        return lambda text: int(litellm.token_counter(model=model, text=text))


def prompt_token_counter(model: str) -> Callable[[str], int]:
    """Counts tokens of prompt text with ``model``'s tokenizer as LiteLLM knows it (its default
    encoding for models it does not know); a character estimate when LiteLLM is missing.  The
    counts are LiteLLM's ``token_counter(model=model, text=text)``; the tokenizer is looked up
    on the first count."""
    try:
        litellm = _litellm()
    except RuntimeError:
        from .history import approx_tokens

        return approx_tokens
    counter: Callable[[str], int] | None = None

    def count(text: str) -> int:
        nonlocal counter
        if getattr(litellm, "disable_token_counter", False) is True:
            return 0  # as token_counter does
        if counter is None:
            counter = _litellm_count_function(litellm, model)
        return int(counter(text))

    return count
