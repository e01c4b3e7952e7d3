"""One-line messages for pydantic validation errors of user files (league configs).

An unknown key is reported before anything else — a misspelt required field would otherwise be
reported as that field missing — and names the closest known field of the same section::

    config field games_per_tabel: unknown field; did you mean games_per_table?
    config field players.0.modle: unknown field; did you mean model?
"""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

__all__ = ["format_validation_error", "known_fields"]


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation can hold (through Optional, list, dict, unions)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _models_in(typing.get_args(annotation)[0])
    if origin is not None or isinstance(annotation, types.UnionType):
        args = typing.get_args(annotation)
        if origin is dict and len(args) == 2:
            args = (args[1],)
        for a in args:
            out += _models_in(a)
    return out


def known_fields(model: type[BaseModel], path: tuple[Any, ...]) -> list[str]:
    """The field names of the section at ``path`` (a pydantic error ``loc`` without its last
    part) inside ``model``; [] when the path does not lead to a model."""
    current: list[type[BaseModel]] = [model]
    pending_container = False
    for part in path:
        if isinstance(part, int) or pending_container:
            pending_container = False  # a list index or a dict key: same models
            continue
        nxt: list[type[BaseModel]] = []
        for m in current:
            field = m.model_fields.get(str(part))
            if field is not None:
                nxt += _models_in(field.annotation)
                origin = typing.get_origin(field.annotation)
                if origin is dict or any(
                    typing.get_origin(a) is dict for a in typing.get_args(field.annotation)
                ):
                    pending_container = True
        if not nxt:
            return []
        current = nxt
    names: list[str] = []
    for m in current:
        names += [n for n in m.model_fields if n not in names]
    return names


def _closest(key: str, known: list[str]) -> str | None:
    found = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
    return found[0] if found else None


def format_validation_error(e: ValidationError, model: type[BaseModel]) -> str:
    """``config field <dotted location>: <problem>`` for the most useful error of ``e``."""
    errors = e.errors()
    unknown = [err for err in errors if err["type"] == "extra_forbidden"]
    err = unknown[0] if unknown else errors[0]
    loc = ".".join(str(p) for p in err["loc"]) or "config"
    if unknown:
        key = str(err["loc"][-1])
        known = known_fields(model, tuple(err["loc"][:-1]))
        best = _closest(key, known)
        if best is not None:
            msg = f"unknown field; did you mean {best}?"
        elif known:
            msg = f"unknown field (known fields: {', '.join(known)})"
        else:
            msg = "unknown field"
    else:
        msg = err["msg"].removeprefix("Value error, ")
    return f"config field {loc}: {msg}"
