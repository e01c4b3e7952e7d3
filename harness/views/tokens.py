"""Token counts for prompt budgets that need nothing but the text: the chat template's tokens per
message and request, a character estimate, tiktoken's encodings that LiteLLM ships (no download),
and one seat's :class:`TokenCounter`, which corrects request totals by what the server reported.

The model's own tokenizer (its server's tokenize endpoint, a ``tokenizer.json``, LiteLLM's
tokenizer for a model it knows) is picked next to the model seat, by
:func:`harness.agents.model_spec.counter_for` (:mod:`harness.agents.tokenizers`); a seat without
one counts with :func:`estimate_counter`: LiteLLM's default encoding times
:data:`ESTIMATE_MARGIN` (see docs/models.md for how the figure was measured).
"""

from __future__ import annotations

import math
import os
from collections import deque
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Protocol

__all__ = [
    "ESTIMATE_MARGIN",
    "MESSAGE_TOKENS",
    "OFFLINE_ENCODINGS",
    "REQUEST_TOKENS",
    "TokenCounter",
    "Tokenizer",
    "TokenizerError",
    "approx_tokens",
    "Encoding",
    "Estimate",
    "litellm_module",
    "estimate_counter",
    "request_tokens",
]

# Chat-template tokens around each message (role markers, separators) and the answer's header,
# as measured on SmolLM2's ChatML template (docs/models.md); other templates take fewer.
MESSAGE_TOKENS = 6
REQUEST_TOKENS = 2
# The estimate (LiteLLM's default cl100k_base encoding) times this margin when the model's own
# tokenizer cannot be had: the largest real/counted ratio measured on the shipped system prompts
# with SmolLM2 (a small-vocabulary tokenizer, docs/models.md), rounded up.
ESTIMATE_MARGIN = 1.6
RATIO_WINDOW = 16  # the correction is the largest real/counted ratio of this many requests
RATIO_BOUNDS = (0.25, 4.0)  # a reported count outside these ratios is not learned from
OFFLINE_ENCODINGS = ("o200k_base", "cl100k_base", "p50k_base")


class TokenizerError(ValueError):
    """A named tokenizer cannot be loaded (one line naming it)."""


class Tokenizer(Protocol):
    name: str
    blocking: bool  # counting may wait on the network

    def count(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def litellm_module() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as e:  # pragma: no cover - litellm is in the llm/dev extras
        raise RuntimeError("token counting needs litellm: pip install -e '.[llm]'") from e
    return litellm


def approx_tokens(text: str) -> int:
    """A tokenizer-free estimate (about 3.5 characters per token, rounded up)."""
    return (len(text) * 2 + 6) // 7


@lru_cache(maxsize=8)
def _tiktoken_encoding(name: str) -> Any:
    litellm_module()
    from litellm.rust_bridge.tokenizer import get_encoding

    return get_encoding(name)


class Encoding:
    """A tiktoken encoding from LiteLLM's bundled files."""

    blocking = False

    def __init__(self, name: str) -> None:
        try:
            self._encoding = _tiktoken_encoding(name)
        except Exception as e:  # unknown name, or a file LiteLLM does not ship
            raise TokenizerError(
                f"tokenizer {name!r}: not a tiktoken encoding available offline "
                f"({', '.join(OFFLINE_ENCODINGS)})"
            ) from e
        self.name = f"tiktoken {name}"

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))


class Estimate:
    """LiteLLM's default encoding (a character estimate without LiteLLM) times ``margin``."""

    blocking = False

    def __init__(self, margin: float = ESTIMATE_MARGIN) -> None:
        try:
            litellm_module()
            self._base: Callable[[str], int] = Encoding("cl100k_base").count
            base = "cl100k_base"
        except (RuntimeError, TokenizerError):
            self._base, base = approx_tokens, "3.5 chars/token"
        self.margin = margin
        self.name = f"estimate ({base} x {margin:g})"

    def count(self, text: str) -> int:
        return math.ceil(self._base(text) * self.margin)


def request_tokens(count: Callable[[str], int], texts: Sequence[str]) -> int:
    """Counted tokens of a request whose messages hold ``texts`` (system prompt first): each
    text's count plus the chat template's tokens per message and per request."""
    return REQUEST_TOKENS + sum(count(t) + MESSAGE_TOKENS for t in texts)


class TokenCounter:
    """One seat's token counter: counts text with its tokenizer (``counter(text)``, raw) and
    corrects request totals by what the server reported for earlier requests.

    The correction is the largest real/counted ratio of the last :data:`RATIO_WINDOW` requests
    (1.0 before any): an upper-biased estimate, so a budget errs on the side of compacting."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._ratios: deque[float] = deque(maxlen=RATIO_WINDOW)

    @property
    def source(self) -> str:
        return self.tokenizer.name

    @property
    def blocking(self) -> bool:
        return self.tokenizer.blocking

    def __call__(self, text: str) -> int:
        return self.tokenizer.count(text)

    @property
    def ratio(self) -> float:
        return max(self._ratios, default=1.0)

    def corrected(self, counted: int) -> int:
        return math.ceil(counted * self.ratio)

    def learn(self, counted: int, reported: int | None) -> None:
        """A request this counter counted as ``counted`` tokens was ``reported`` by the server."""
        if not reported or counted <= 0:
            return
        ratio = reported / counted
        if RATIO_BOUNDS[0] <= ratio <= RATIO_BOUNDS[1]:
            self._ratios.append(ratio)

    def fork(self) -> TokenCounter:
        """A counter with the same tokenizer and nothing learned (another seat)."""
        return TokenCounter(self.tokenizer)


def estimate_counter() -> TokenCounter:
    """A counter with the estimate and its margin (a seat whose model is not known)."""
    return TokenCounter(Estimate())
