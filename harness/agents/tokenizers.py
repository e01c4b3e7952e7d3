"""The model's own tokenizer for a seat's prompt budgets, picked by
:func:`harness.agents.model_spec.counter_for` in this order:

1. the one the model config names (``tokenizer:``): a tiktoken encoding (``o200k_base``,
   ``cl100k_base``, ``p50k_base`` — the ones LiteLLM ships, so no download), a Hugging Face
   ``tokenizer.json`` path, or ``server`` (the server's tokenize endpoint, required);
2. the OpenAI-compatible server's tokenize endpoint, detected once per server (llama.cpp's
   ``POST /tokenize {"content": ...}``, llama-cpp-python's ``POST /extras/tokenize
   {"input": ...}``), every call bounded by :data:`TOKENIZE_TIMEOUT_S`;
3. LiteLLM's tokenizer for a model its map knows (OpenAI models: tiktoken; Claude and DeepSeek:
   the tokenizers LiteLLM ships);
4. else an estimate: LiteLLM's default encoding times
   :data:`~harness.views.tokens.ESTIMATE_MARGIN` (:func:`harness.views.tokens.estimate_counter`).

Each is wrapped in a seat's :class:`~harness.views.tokens.TokenCounter`, which counts text
(``counter(text)``) and learns from the server's reported ``prompt_tokens``.  This module makes
the HTTP calls (a server's tokenize endpoint) and holds the lock of the servers it found; the
views floor counts text only.
"""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.views.tokens import (
    OFFLINE_ENCODINGS,
    Encoding,
    Estimate,
    TokenCounter,
    Tokenizer,
    TokenizerError,
    approx_tokens,
    estimate_counter,
    litellm_module,
)

__all__ = [
    "DEFAULT_TOKENIZER_MODEL",
    "OPENAI_COMPATIBLE_PREFIXES",
    "counter_named",
    "forget_servers",
    "litellm_knows",
    "litellm_tokenizer",
    "prompt_token_counter",
    "server_tokenizer",
    "tokenizer_named",
]

DEFAULT_TOKENIZER_MODEL = "gpt-4o"
TOKENIZE_TIMEOUT_S = 10.0  # one tokenize call (a busy llama-cpp-python server queues it)
DETECT_TIMEOUT_S = 3.0  # one probe of a tokenize route when a seat is built
SERVER_CACHE = 4096  # texts whose server count is kept (per server)
MAX_TOKENIZE_CHARS = 1_000_000  # longer text is estimated, never sent
# LiteLLM model prefixes of OpenAI-compatible servers (llama.cpp, vLLM, ...)
OPENAI_COMPATIBLE_PREFIXES = ("openai", "hosted_vllm", "llamafile", "lm_studio")


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
        litellm = litellm_module()
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
        self._fallback: Estimate | None = None
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
            self._fallback = Estimate()
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
    return Encoding(name)


def litellm_knows(model: str) -> bool:
    """Whether LiteLLM counts ``model`` with its own tokenizer offline: an OpenAI model (tiktoken
    knows its encoding, or LiteLLM's map lists it under OpenAI or Azure), or a model LiteLLM
    ships a tokenizer for (Claude, DeepSeek)."""
    try:
        litellm = litellm_module()
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


def litellm_tokenizer(model: str) -> Tokenizer:
    """LiteLLM's tokenizer for ``model`` (see :func:`litellm_knows`)."""
    return _LiteLLM(model)


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
    return TokenCounter(Estimate())
