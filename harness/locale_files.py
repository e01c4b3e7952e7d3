"""Per-language data files (``<locale>.yaml``: the game glossaries, the report labels) read into
their pydantic models, with one-line errors that name the file and the field."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def read_locale_file(path: Path, model: type[M], what: str, error: type[Exception]) -> M:
    """``path`` as ``model``, whose ``locale`` must be the file's stem; ``error`` (one line,
    starting with ``what`` and the file name) when the file is unreadable or invalid."""
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as e:
        raise error(f"{what} {path.name}: cannot read it ({type(e).__name__})") from None
    try:
        got = model.model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise error(f"{what} {path.name}: {where + ': ' if where else ''}{err['msg']}") from None
    locale = getattr(got, "locale", None)
    if locale != path.stem:
        raise error(f"{what} {path.name}: locale is {locale!r}, expected {path.stem!r}")
    return got


def key_mismatch(what: str, got: Iterable[str], expected: Sequence[str]) -> str | None:
    """One line naming the keys ``expected`` but not in ``got`` (or else those in ``got`` but not
    ``expected``), prefixed by ``what``; ``None`` when the keys are the same."""
    have = list(got)
    missing = [k for k in expected if k not in have]
    if missing:
        return f"{what}: missing {', '.join(missing)}"
    extra = [k for k in have if k not in expected]
    if extra:
        return f"{what}: unknown {', '.join(extra)}"
    return None
