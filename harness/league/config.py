"""League configuration (``configs/*.yaml``), validated by pydantic.

Errors name the offending field and the allowed values, in one line:
``config field players.1.kind: Input should be 'model', 'bot', 'random', 'agent', 'remote', 'mcp' or 'inspect'``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from harness.agents.model_spec import ModelSpec  # noqa: E402
from harness.agents.probe_settings import ProbeSettings

from .agent_fields import check_agent_fields

Mode = Literal["classic", "partners", "double_agent", "old_classic"]
# the languages of harness/views/names.py LOCALES (a test keeps the two equal)
Locale = Literal["en", "ru", "zh", "ja", "ar"]


class ConfigError(ValueError):
    """A config file that cannot be used; the message is one line."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# Players whose seats decide outside the harness's own code, under the decision timer, with
# recorded decisions, usage and fallbacks: language models and external agents.
SEATED_KINDS = ("model", "agent", "remote", "mcp", "inspect")


class PlayerConfig(_Strict):
    name: str = Field(min_length=1, max_length=64)
    kind: Literal["model", "bot", "random", "agent", "remote", "mcp", "inspect"]
    model: ModelSpec | None = None
    locale: Locale | None = None  # a model or agent seat's language; the league's when unset
    # kind agent: "package.module:factory", called with ``options`` as keyword arguments
    agent: str | None = None
    options: dict[str, Any] | None = None
    # kind remote: the endpoint, and the variable holding its bearer token
    url: str | None = None
    token_env: str | None = Field(default=None, pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    # kind model: belief probes (harness.agents.probe_settings, docs/probes.md); none: off
    probes: ProbeSettings | None = None

    @model_validator(mode="after")
    def _model_iff_kind(self) -> PlayerConfig:
        if self.probes is not None and self.kind != "model":
            raise ValueError(f"a player of kind {self.kind!r} takes no 'probes' section")
        if self.kind == "model" and self.model is None:
            raise ValueError("a player of kind 'model' needs a 'model' section")
        if self.kind != "model" and self.model is not None:
            raise ValueError(f"a player of kind {self.kind!r} takes no 'model' section")
        if self.kind not in SEATED_KINDS and self.locale is not None:
            raise ValueError(f"a player of kind {self.kind!r} reads no text: no 'locale'")
        check_agent_fields(self)
        return self

    @property
    def label(self) -> str | None:
        """What plays the seats, in records and reports: ``provider/model`` for a model,
        ``agent/<factory>`` for a Python agent, ``remote/<url>`` for a remote one."""
        if self.model is not None:
            return f"{self.model.provider}/{self.model.model}"
        if self.kind == "agent":
            return f"agent/{self.agent}"
        if self.kind == "remote":
            return f"remote/{self.url}"
        if self.kind in ("mcp", "inspect"):
            return f"{self.kind}/{self.name}"
        return None


class TableConfig(_Strict):
    seats: list[int] = Field(min_length=1)
    modes: list[Mode] = Field(default_factory=lambda: list[Mode](["classic"]), min_length=1)

    @field_validator("seats")
    @classmethod
    def _seat_counts(cls, v: list[int]) -> list[int]:
        bad = [n for n in v if not 4 <= n <= 8]
        if bad:
            raise ValueError(f"seat counts must be 4..8, got {bad}")
        return v


def unique_player_names(cls: type, v: list[PlayerConfig]) -> list[PlayerConfig]:
    """The ``players`` validator of every config with players: no name twice."""
    names = [p.name for p in v]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"player names must be unique, repeated: {', '.join(dup)}")
    return v


class ProviderLimits(_Strict):
    concurrency: int = Field(default=8, ge=1)
    requests_per_minute: float | None = Field(default=None, gt=0)


class SpendingCaps(_Strict):
    max_usd: float | None = Field(default=None, ge=0)
    max_tokens: int | None = Field(default=None, ge=0)


class LeagueConfig(_Strict):
    name: str = Field(min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    players: list[PlayerConfig] = Field(min_length=1)
    tables: list[TableConfig] = Field(min_length=1)
    games_per_table: int = Field(ge=1)
    base_seed: int = 1
    paired: bool = True  # replay each deal with the players rotated through the seats
    shuffle_names: bool = True  # seat names drawn per game, unrelated to players
    locale: Locale = "en"  # the prompt language of model seats without their own
    decision_seconds: float = Field(default=60.0, gt=0)
    fallback: Literal["simplest", "autopilot"] = "simplest"
    retry_budget: int = Field(default=4, ge=0)
    # A game whose model seats fall back this many times in a row is ended and recorded as void.
    max_consecutive_fallbacks: int = Field(default=20, ge=1)
    # A model player whose every call fails (errors, timeouts) for this many decisions in a row
    # stops the run (resumable) instead of filling it with fallbacks.
    max_failed_decisions: int = Field(default=10, ge=1)
    max_concurrent_games: int = Field(default=32, ge=1)
    workers: int | None = Field(default=None, ge=1)  # processes for games without model seats
    providers: dict[str, ProviderLimits] = Field(default_factory=dict)
    spending: SpendingCaps = Field(default_factory=SpendingCaps)
    output: str = "results"
    # Where games run: this machine's processes, or Ray tasks on a cluster (``ray_address``;
    # none: a Ray instance started here).  ``--executor`` / ``--ray-address`` override them.
    executor: Literal["local", "ray"] = "local"
    ray_address: str | None = None
    # A report flags a model player whose fallback share of its model decisions passes this,
    # and a run whose share of void games passes ``max_void_share`` (exit code 3).
    max_fallback_rate: float = Field(default=0.05, ge=0, le=1)
    max_void_share: float = Field(default=0.05, ge=0, le=1)
    # Table talk (RULES.md §10, docs/signals.md): model seats may add one table signal to an
    # answer and read every seat's signals in their feed; rule bots ignore them.
    signals: bool = False

    _unique_names = field_validator("players")(unique_player_names)

    def player(self, name: str) -> PlayerConfig:
        return next(p for p in self.players if p.name == name)

    def locale_of(self, name: str) -> str:
        """The prompt language of a player's seats: its own ``locale``, else the league's."""
        return self.player(name).locale or self.locale

    @property
    def has_models(self) -> bool:
        return any(p.kind == "model" for p in self.players)

    @property
    def has_seated(self) -> bool:
        """Whether any player is a model or an external agent (games played in the run's loop)."""
        return any(p.kind in SEATED_KINDS for p in self.players)


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
    """The YAML document of the file ``path``; a one-line :class:`ConfigError` when the file
    cannot be read or is not YAML (with the line of the problem)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"cannot read config {p}: {e.strerror}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        raise ConfigError(f"{p}: not valid YAML{where}") from None


def parse_config(data: Any, source: str = "config") -> LeagueConfig:
    return parse_settings(LeagueConfig, data, source)


def load_config(path: str | Path) -> LeagueConfig:
    return parse_config(read_yaml(path), str(Path(path)))
