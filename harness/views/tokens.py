"""Token counts for prompt budgets, with the model's own tokenizer where it can be had.

:func:`counter_for` picks a seat's tokenizer, in this order:

1. the one the model config names (``tokenizer:``): a tiktoken encoding (``o200k_base``,
   ``cl100k_base``, ``p50k_base`` — the ones LiteLLM ships, so no download), a Hugging Face
   ``tokenizer.json`` path, or ``server`` (the server's tokenize endpoint, required);
2. the OpenAI-compatible server's tokenize endpoint, detected once per server (llama.cpp's
   ``POST /tokenize {"content": ...}``, llama-cpp-python's ``POST /extras/tokenize
   {"input": ...}``), every call bounded by :data:`TOKENIZE_TIMEOUT_S`;
3. LiteLLM's tokenizer for a model its map knows (OpenAI models: tiktoken; Claude and DeepSeek:
   the tokenizers LiteLLM ships);
4. else an estimate: LiteLLM's default encoding times :data:`ESTIMATE_MARGIN` (see
   docs/models.md for how the figure was measured).

A :class:`TokenCounter` belongs to one seat: it counts text (``counter(text)``) and learns from
the server's reported ``prompt_tokens`` (:meth:`TokenCounter.learn`), so the budget decisions of
later requests use corrected counts (:meth:`TokenCounter.corrected`).
"""

from __future__ import annotations

import json
import math
import os
import threading
import urllib.error
import urllib.request
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

__all__ = [
    "DEFAULT_TOKENIZER_MODEL",
    "ESTIMATE_MARGIN",
    "MESSAGE_TOKENS",
    "REQUEST_TOKENS",
    "TokenCounter",
    "TokenizerError",
    "counter_for",
    "counter_named",
    "estimate_counter",
    "request_tokens",
    "prompt_token_counter",
    "server_tokenizer",
    "tokenizer_named",
]

DEFAULT_TOKENIZER_MODEL = "gpt-4o"
# Chat-template tokens around each message (role markers, separators) and the answer's header,
# as measured on SmolLM2's ChatML template (docs/models.md); other templates take fewer.
MESSAGE_TOKENS = 6
REQUEST_TOKENS = 2
# The estimate (LiteLLM's default cl100k_base encoding) times this margin when the model's own
# tokenizer cannot be had: the largest real/counted ratio measured on the shipped system prompts
# with SmolLM2 (a small-vocabulary tokenizer, docs/models.md), rounded up.
ESTIMATE_MARGIN = 1.6
TOKENIZE_TIMEOUT_S = 10.0  # one tokenize call (a busy llama-cpp-python server queues it)
DETECT_TIMEOUT_S = 3.0  # one probe of a tokenize route when a seat is built
RATIO_WINDOW = 16  # the correction is the largest real/counted ratio of this many requests
RATIO_BOUNDS = (0.25, 4.0)  # a reported count outside these ratios is not learned from
SERVER_CACHE = 4096  # texts whose server count is kept (per server)
MAX_TOKENIZE_CHARS = 1_000_000  # longer text is estimated, never sent
OFFLINE_ENCODINGS = ("o200k_base", "cl100k_base", "p50k_base")
# LiteLLM model prefixes of OpenAI-compatible servers (llama.cpp, vLLM, ...)
OPENAI_COMPATIBLE_PREFIXES = ("openai", "hosted_vllm", "llamafile", "lm_studio")


class TokenizerError(ValueError):
    """A named tokenizer cannot be loaded (one line naming it)."""


class Tokenizer(Protocol):
    name: str
    blocking: bool  # counting may wait on the network

    def count(self, text: str) -> int: ...


@lru_cache(maxsize=1)
def _litellm() -> Any:
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as e:  # pragma: no cover - litellm is in the llm/dev extras
        raise RuntimeError("token counting needs litellm: pip install -e '.[llm]'") from e
    return litellm


def approx_tokens(text: str) -> int:
    """A tokenizer-free estimate (about 3.5 characters per token, rounded up)."""
    return (len(text) * 2 + 6) // 7


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


# ------------------------------------------------------------------------------ tokenizers


@lru_cache(maxsize=8)
def _tiktoken_encoding(name: str) -> Any:
    _litellm()
    from litellm.rust_bridge.tokenizer import get_encoding

    return get_encoding(name)


class _Encoding:
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


class _HuggingFace:
    """A Hugging Face ``tokenizer.json`` (special tokens not added: the template adds them)."""

    blocking = False

    def __init__(self, path: Path) -> None:
        try:
            from tokenizers import Tokenizer as HFTokenizer

            self._tokenizer = HFTokenizer.from_file(str(path))
        except Exception as e:
            raise TokenizerError(f"tokenizer {str(path)!r}: not a readable tokenizer.json") from e
        self.name = f"tokenizer.json {path.name}"

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)


class _LiteLLM:
    blocking = False

    def __init__(self, model: str) -> None:
        self._count = prompt_token_counter(model)
        self.name = f"litellm {model}"

    def count(self, text: str) -> int:
        return self._count(text)


class _Estimate:
    """LiteLLM's default encoding (a character estimate without LiteLLM) times ``margin``."""

    blocking = False

    def __init__(self, margin: float = ESTIMATE_MARGIN) -> None:
        try:
            _litellm()
            self._base: Callable[[str], int] = _Encoding("cl100k_base").count
            base = "cl100k_base"
        except (RuntimeError, TokenizerError):
            self._base, base = approx_tokens, "3.5 chars/token"
        self.margin = margin
        self.name = f"estimate ({base} x {margin:g})"

    def count(self, text: str) -> int:
        return math.ceil(self._base(text) * self.margin)


class TokenizeUnavailable(Exception):
    """A tokenize call failed (timeout, HTTP error, bad body)."""


class _Server:
    """A server's tokenize endpoint: ``route`` takes ``{field: text}``, answers ``{"tokens"}``.

    Counts are cached per text; a failed call is estimated (not cached) so the next try asks
    again.  ``overhead`` (the count of the empty text: a BOS token some servers add) is
    subtracted."""

    blocking = True

    def __init__(self, url: str, field: str, api_key: str | None = None) -> None:
        self.url, self.field, self._api_key = url, field, api_key
        self.name = f"server {url}"
        self._cache: OrderedDict[str, int] = OrderedDict()
        self._lock = threading.Lock()
        self._fallback: _Estimate | None = None
        self.overhead = 0
        self.failures = 0

    def raw_count(self, text: str, timeout: float = TOKENIZE_TIMEOUT_S) -> int:
        headers = {"Content-Type": "application/json"}
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        request = urllib.request.Request(
            self.url, data=json.dumps({self.field: text}).encode(), headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                body = json.loads(response.read(64 * 1024 * 1024))
        except (urllib.error.URLError, OSError, ValueError, RecursionError) as e:
            raise TokenizeUnavailable(f"{self.url}: {e}") from None
        tokens = body.get("tokens") if isinstance(body, dict) else None
        if not isinstance(tokens, list):
            raise TokenizeUnavailable(f"{self.url}: the answer has no token list")
        return len(tokens)

    def count(self, text: str) -> int:
        with self._lock:
            if text in self._cache:
                self._cache.move_to_end(text)
                return self._cache[text]
        if len(text) > MAX_TOKENIZE_CHARS:
            return self._estimate(text)
        try:
            n = max(0, self.raw_count(text) - self.overhead)
        except TokenizeUnavailable:
            self.failures += 1
            return self._estimate(text)
        with self._lock:
            self._cache[text] = n
            while len(self._cache) > SERVER_CACHE:
                self._cache.popitem(last=False)
        return n

    def _estimate(self, text: str) -> int:
        if self._fallback is None:
            self._fallback = _Estimate()
        return self._fallback.count(text)


_SERVERS: dict[str, _Server | None] = {}  # server root -> its tokenizer, None: it has none
_SERVERS_LOCK = threading.Lock()
_ROUTES = (("/tokenize", "content"), ("/extras/tokenize", "input"))


def _root(base_url: str) -> str:
    root = base_url.rstrip("/")
    return root[: -len("/v1")] if root.endswith("/v1") else root


def server_tokenizer(base_url: str, api_key: str | None = None) -> _Server | None:
    """The tokenize endpoint of the OpenAI-compatible server at ``base_url`` (``.../v1``),
    detected once per server and remembered; ``None`` when it has none.  A server that does not
    answer in time is asked again the next time (only a definite answer is remembered)."""
    root = _root(base_url)
    with _SERVERS_LOCK:
        if root in _SERVERS:
            return _SERVERS[root]
    found: _Server | None = None
    definite = True
    for route, field in _ROUTES:
        candidate = _Server(root + route, field, api_key)
        try:
            candidate.overhead = candidate.raw_count("", DETECT_TIMEOUT_S)
            candidate.raw_count("BangArena", DETECT_TIMEOUT_S)
        except TokenizeUnavailable as e:
            if not _definite_refusal(str(e)):
                definite = False
            continue
        found = candidate
        break
    if found is not None or definite:
        with _SERVERS_LOCK:
            _SERVERS[root] = found
    return found


def _definite_refusal(message: str) -> bool:
    """An HTTP error status (the route is not there), not a timeout or a refused connection."""
    return "HTTP Error" in message or "no token list" in message


def forget_servers() -> None:
    """Drop the remembered server tokenizers (tests start servers on fresh ports)."""
    with _SERVERS_LOCK:
        _SERVERS.clear()


def tokenizer_named(name: str, *, base_url: str | None = None) -> Tokenizer:
    """The tokenizer a config names: ``server``, a ``tokenizer.json`` path or a tiktoken
    encoding.  Raises :class:`TokenizerError` (one line) when it cannot be had."""
    if name == "server":
        if base_url is None:
            raise TokenizerError("tokenizer 'server' needs the model's base_url")
        found = server_tokenizer(base_url)
        if found is None:
            raise TokenizerError(
                f"tokenizer 'server': {_root(base_url)} has no tokenize endpoint "
                "(/tokenize or /extras/tokenize)"
            )
        return found
    if name.endswith(".json") or os.sep in name or "/" in name:
        return _HuggingFace(Path(name).expanduser())
    return _Encoding(name)


def litellm_knows(model: str) -> bool:
    """Whether LiteLLM counts ``model`` with its own tokenizer offline: an OpenAI model (tiktoken
    knows its encoding, or LiteLLM's map lists it under OpenAI or Azure), or a model LiteLLM
    ships a tokenizer for (Claude, DeepSeek)."""
    try:
        litellm = _litellm()
    except RuntimeError:
        return False
    try:
        from litellm.utils import huggingface_tokenizer_kind

        if huggingface_tokenizer_kind(model) in ("anthropic", "deepseek"):
            return True
    except ImportError:  # pragma: no cover - older LiteLLM
        pass
    bare = model.removeprefix("openai/")
    entry = getattr(litellm, "model_cost", {}).get(bare) or {}
    if entry.get("litellm_provider") in ("openai", "azure", "text-completion-openai"):
        return True
    try:
        import tiktoken

        tiktoken.encoding_name_for_model(bare)
        return True
    except (ImportError, KeyError):
        return False


class _ModelSpecLike(Protocol):
    model: str
    provider: str
    base_url: str | None

    @property
    def tokenizer(self) -> str | None: ...


def _openai_compatible(spec: _ModelSpecLike) -> bool:
    """A server spoken to in OpenAI's wire format (its tokenize endpoint is worth a probe)."""
    return spec.provider == "openai" or (
        spec.provider == "litellm" and spec.model.split("/", 1)[0] in OPENAI_COMPATIBLE_PREFIXES
    )


def tokenizer_for(spec: _ModelSpecLike) -> Tokenizer:
    """The tokenizer of a model spec, in the module docstring's order."""
    named = getattr(spec, "tokenizer", None)
    if named:
        return tokenizer_named(named, base_url=spec.base_url)
    if spec.base_url is not None and _openai_compatible(spec):
        found = server_tokenizer(spec.base_url)
        if found is not None:
            return found
    if litellm_knows(spec.model):
        return _LiteLLM(spec.model)
    return _Estimate()


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


def counter_for(spec: _ModelSpecLike) -> TokenCounter:
    """A new :class:`TokenCounter` for one seat of the model ``spec`` (a
    :class:`~harness.agents.model_spec.ModelSpec`).  Raises :class:`TokenizerError` when the
    spec names a tokenizer that cannot be had."""
    return TokenCounter(tokenizer_for(spec))


def estimate_counter() -> TokenCounter:
    """A counter with the estimate and its margin (a seat whose model is not known)."""
    return TokenCounter(_Estimate())


def counter_named(name: str) -> TokenCounter:
    """A counter for ``--tokenizer NAME``: an http(s) URL (the server's tokenize endpoint), a
    ``tokenizer.json`` path, a tiktoken encoding, ``estimate`` (the fallback with its margin)
    or a model name LiteLLM knows (others get the estimate)."""
    if name.startswith(("http://", "https://")):
        found = server_tokenizer(name)
        if found is None:
            raise TokenizerError(f"tokenizer {name!r}: the server has no tokenize endpoint")
        return TokenCounter(found)
    if name == "estimate":
        return estimate_counter()
    if name in OFFLINE_ENCODINGS or name.endswith(".json"):
        return TokenCounter(tokenizer_named(name))
    if litellm_knows(name):
        return TokenCounter(_LiteLLM(name))
    return TokenCounter(_Estimate())
