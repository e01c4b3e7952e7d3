"""The rules version a run was played under: ``RUN/rules_version.json``, written by ``league run``
when it creates the run folder.  A run without it was played before it was recorded, under rules
version 1 (the only version then); ``leaderboard`` pools only runs of the same version."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

RULES_VERSION_FILE = "rules_version.json"
UNRECORDED_RULES_VERSION = 1


class RunRules(BaseModel):
    model_config = ConfigDict(extra="forbid")
    schema_version: int = 1
    rules_version: int


def write_rules_version(run_dir: Path, version: int) -> None:
    (run_dir / RULES_VERSION_FILE).write_text(
        RunRules(rules_version=version).model_dump_json() + "\n", encoding="utf-8"
    )


def read_rules_version(run_dir: str | Path) -> int | None:
    """The recorded version; ``UNRECORDED_RULES_VERSION`` when the run has no file; ``None``
    when the file is unreadable."""
    path = Path(run_dir) / RULES_VERSION_FILE
    if not path.exists():
        return UNRECORDED_RULES_VERSION
    try:
        return RunRules.model_validate_json(path.read_text(encoding="utf-8")).rules_version
    except (OSError, ValidationError):
        return None
