"""Strict reading of a model API's success response.

An HTTP 200 is only an answer when its body is the vendor's JSON object with the expected fields.
:func:`json_body` checks the content type and decodes the body; the typed accessors read fields
of the decoded object.  Anything else (an HTML page, truncated JSON, an event stream that was not
asked for, a missing or mistyped field) raises :class:`~.provider_errors.BadResponse` with a one-line
message naming what was wrong and quoting at most a short excerpt of the body.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, cast

from ..key_redaction import redact
from .provider_errors import BadResponse

__all__ = [
    "EXCERPT_CHARS",
    "check_content_type",
    "excerpt",
    "json_body",
    "json_type",
    "mapping_field",
    "string_field",
    "optional_token_count",
    "token_count",
]

EXCERPT_CHARS = 80
_JSON_MEDIA = re.compile(r"application/(?:[\w.+-]+\+)?json")


def json_type(value: Any) -> str:
    """The JSON name of ``value``'s type (``object``, ``array``, ``string``, ...)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return type(value).__name__


def excerpt(data: bytes | str, limit: int = EXCERPT_CHARS) -> str:
    """The start of ``data`` on one line, quoted, at most ``limit`` characters."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    line = " ".join(redact(text[: limit * 4]).split())  # redacted before it is cut
    if len(line) > limit:
        line = line[: limit - 1] + "…"
    return json.dumps(line, ensure_ascii=False)


def check_content_type(content_type: str | None, data: bytes | str = b"") -> None:
    """Raise :class:`BadResponse` unless the media type is JSON (an absent header is accepted)."""
    media = (content_type or "").split(";")[0].strip().lower()
    if not media or _JSON_MEDIA.fullmatch(media):
        return
    quoted = f": {excerpt(data)}" if data else ""
    if media == "text/event-stream":
        raise BadResponse(f"the server sent an event stream that was not asked for{quoted}")
    raise BadResponse(f"the response is {media}, not JSON{quoted}")


def json_body(data: bytes, content_type: str | None) -> dict[str, Any]:
    """The decoded JSON object of a success response, or :class:`BadResponse`."""
    check_content_type(content_type, data)
    if not data.strip():
        raise BadResponse("the response body is empty")
    try:
        body = json.loads(data)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError, UnicodeDecodeError, nesting
        reason = str(exc).split(":")[0]
        raise BadResponse(
            f"the response body is not valid JSON ({reason}): {excerpt(data)}"
        ) from None
    if not isinstance(body, dict):
        raise BadResponse(f"the response body is a JSON {json_type(body)}, not an object")
    return body


def _typed_field(value: Any, where: str, optional: bool, kind: type, name: str) -> Any:
    """``value`` when it is a ``kind`` (or absent and ``optional``), else :class:`BadResponse`
    saying that ``where`` is missing or is not ``name``."""
    if value is None and optional:
        return None
    if isinstance(value, kind):
        return value
    if value is None:
        raise BadResponse(f"the response has no {where}")
    raise BadResponse(f"{where} is a JSON {json_type(value)}, not {name}")


def mapping_field(value: Any, where: str, *, optional: bool = False) -> Mapping[str, Any] | None:
    """``value`` when it is a JSON object (or absent and ``optional``), else :class:`BadResponse`."""
    field = _typed_field(value, where, optional, Mapping, "an object")
    return cast("Mapping[str, Any] | None", field)


def string_field(value: Any, where: str, *, optional: bool = True) -> str | None:
    """``value`` when it is a string (or absent and ``optional``), else :class:`BadResponse`."""
    return cast("str | None", _typed_field(value, where, optional, str, "a string"))


def token_count(usage: Mapping[str, Any] | None, *path: str) -> int:
    """A token count under ``usage``: absent or null is 0, a non-negative integer is itself,
    anything else (a string, a float, a negative number) is :class:`BadResponse`."""
    current: Any = usage
    for i, key in enumerate(path):
        parent = mapping_field(current, ".".join(("usage", *path[:i])), optional=True)
        if parent is None:
            return 0
        current = parent.get(key)
    if current is None:
        return 0
    if isinstance(current, int) and not isinstance(current, bool) and current >= 0:
        return current
    raise BadResponse(f"usage.{'.'.join(path)} is {excerpt(json.dumps(current), 40)}, not a count")


def optional_token_count(usage: Mapping[str, Any] | None, *path: str) -> int | None:
    """Like :func:`token_count`, but ``None`` when the count is absent or null (not reported)."""
    current: Any = usage
    for i, key in enumerate(path):
        parent = mapping_field(current, ".".join(("usage", *path[:i])), optional=True)
        if parent is None:
            return None
        current = parent.get(key)
    if current is None:
        return None
    return token_count(usage, *path)
