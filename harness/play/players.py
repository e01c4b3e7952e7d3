"""Who may sit at a table: a player's config (a model, a rule bot, a random seat, a Python, remote,
MCP or Inspect agent), validated by pydantic, and the settings every seat of a table shares.

Errors name the offending field and the allowed values, in one line:
``config field players.1.kind: Input should be 'model', 'bot', 'random', 'agent', 'remote', 'mcp' or 'inspect'``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.agents.model_spec import ModelSpec
from harness.agents.probe_settings import ProbeSettings
from harness.agents.seat import FallbackPolicy

from .agent_fields import check_agent_fields

__all__ = [
    "SEATED_KINDS",
    "Locale",
    "Mode",
    "PlayerConfig",
    "ProviderLimits",
    "SeatSettings",
    "TableSeating",
    "SpendingCaps",
    "unique_player_names",
]

Mode = Literal["classic", "partners", "double_agent", "old_classic"]
# the languages of harness/views/names.py LOCALES (a test keeps the two equal)
Locale = Literal["en", "ru", "zh", "ja", "ar"]


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


class SeatSettings(Protocol):
    """What the seat factories read of a config with players (a league config, a web table's
    :class:`TableSeating`, a quiz's config): the players, and the settings every seat shares."""

    @property
    def players(self) -> Sequence[PlayerConfig]: ...
    @property
    def locale(self) -> str: ...
    @property
    def decision_seconds(self) -> float: ...
    @property
    def fallback(self) -> FallbackPolicy: ...
    @property
    def retry_budget(self) -> int: ...
    @property
    def providers(self) -> Mapping[str, ProviderLimits]: ...
    @property
    def signals(self) -> bool: ...

    def player(self, name: str) -> PlayerConfig: ...

    def locale_of(self, name: str) -> str: ...


class TableSeating(_Strict):
    """The :class:`SeatSettings` of a table that no league schedules (the web table's): its
    players and the settings its seats share, with a league config's defaults."""

    players: list[PlayerConfig] = Field(min_length=1)
    locale: Locale = "en"
    decision_seconds: float = Field(default=60.0, gt=0)
    fallback: FallbackPolicy = "simplest"
    retry_budget: int = Field(default=4, ge=0)
    providers: dict[str, ProviderLimits] = Field(default_factory=dict)
    signals: bool = False

    def player(self, name: str) -> PlayerConfig:
        return next(p for p in self.players if p.name == name)

    def locale_of(self, name: str) -> str:
        """The prompt language of a player's seats: its own ``locale``, else the table's."""
        return self.player(name).locale or self.locale
