"""Reading settings files (league and web configs) into pydantic models, with one-line errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from harness.paths import ROOT, shipped

__all__ = ["ConfigError", "parse_settings", "read_yaml"]


class ConfigError(ValueError):
    """A config file that cannot be used; the message is one line."""


Settings = TypeVar("Settings", bound=BaseModel)


def parse_settings(model: type[Settings], data: Any, source: str = "config") -> Settings:
    """``data`` validated as ``model``; a :class:`ConfigError` naming the offending field (an
    unknown key first, with the closest known field: "did you mean games_per_table?")."""
    from .field_errors import format_validation_error

    if not isinstance(data, dict):
        raise ConfigError(f"{source}: expected a mapping of settings at the top level")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise ConfigError(f"{source}: {format_validation_error(e, model)}") from None


def read_yaml(path: str | Path) -> Any:
    """The YAML document of the file ``path`` (a relative path missing from the working directory
    is read from the shipped data files when it is there: ``configs/quickstart.yaml``); a one-line
    :class:`ConfigError` when the file cannot be read or is not YAML (with the line of the
    problem)."""
    p = shipped(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        where = "" if p.is_absolute() or p.exists() else f" (nor under {ROOT})"
        raise ConfigError(f"cannot read config {p}: {e.strerror}{where}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ConfigError(f"{p}: not valid YAML{where}") from None
