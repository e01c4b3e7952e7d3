"""Opt-in on-disk cache of provider replies (one JSON file per request key).

The key is the SHA-256 of the canonical JSON of provider name, model, system prompt, messages,
answer mode, option ids, answer shape (when not the default) and params: anything that could change
the answer. The request timeout
is not part of the key. Entries are written atomically; unreadable entries count as misses.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import tempfile
from pathlib import Path

from .providers.provider_contract import ProviderReply, ProviderRequest

__all__ = ["ResponseCache", "cache_key"]

CACHE_FORMAT = 1


def cache_key(provider: str, req: ProviderRequest) -> str:
    """Hex SHA-256 identifying ``req`` sent to ``provider``."""
    material: dict[str, object] = {
        "format": CACHE_FORMAT,
        "provider": provider,
        "model": req.model,
        "system": req.system,
        "messages": req.messages,
        "answer_mode": req.answer_mode,
        "option_ids": list(req.option_ids),
        "params": req.params,
    }
    if req.answer_shape != "one":
        material["answer_shape"] = req.answer_shape
    if req.signals:
        material["signals"] = True
    blob = json.dumps(material, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ResponseCache:
    """A directory of cached replies: ``<dir>/<key[:2]>/<key>.json``."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = Path(directory)

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, provider: str, req: ProviderRequest) -> ProviderReply | None:
        """The stored reply for this request, or ``None``."""
        path = self._path(cache_key(provider, req))
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return ProviderReply(**data["reply"])
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, provider: str, req: ProviderRequest, reply: ProviderReply) -> None:
        """Store ``reply`` for this request (atomically replacing any previous entry)."""
        key = cache_key(provider, req)
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = {"key": key, "provider": provider, "model": req.model,
                   "reply": dataclasses.asdict(reply)}  # fmt: skip
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(payload, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
