"""League configuration (``configs/*.yaml``), validated by pydantic: the players
(:mod:`harness.play.players`), the tables and how many games each plays, and the run's settings.

Errors name the offending field and the allowed values, in one line (see
:func:`harness.play.config_files.parse_settings`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from harness.play.config_files import ConfigError, parse_settings, read_yaml
from harness.play.players import (
    SEATED_KINDS,
    Locale,
    Mode,
    PlayerConfig,
    ProviderLimits,
    SpendingCaps,
    unique_player_names,
)

# the players' names are used by the modules that read league configs (a league config is a
# config with players: harness.play.players.SeatSettings)
__all__ = [
    "SEATED_KINDS",
    "ConfigError",
    "LeagueConfig",
    "Locale",
    "Mode",
    "PlayerConfig",
    "ProviderLimits",
    "SpendingCaps",
    "TableConfig",
    "load_config",
    "parse_config",
    "parse_settings",
    "read_yaml",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


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


def parse_config(data: Any, source: str = "config") -> LeagueConfig:
    return parse_settings(LeagueConfig, data, source)


def load_config(path: str | Path) -> LeagueConfig:
    return parse_config(read_yaml(path), str(Path(path)))
