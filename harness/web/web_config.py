"""The web table's configuration (``bangarena serve --config FILE``).

Model seats are configured exactly like league players (the same YAML ``players`` entries; keys
from the environment variables they name).  Finished games go to the run folder
``<output>/<name>``.  Everything is optional: without a file, rule bots fill the free seats and
games are written to ``results/web``.

Every model call is written to the run folder's spend ledger (``spend.jsonl``, as in a league
run); ``spending`` caps its totals for the whole server, across restarts with the same folder
(:mod:`harness.web.spending`).

.. code-block:: yaml

    name: web
    players:
      - name: gpt-mini
        kind: model
        model: {provider: openai, model: gpt-4o-mini}
    providers: {openai: {concurrency: 4}}
    spending: {max_usd: 5.0, max_tokens: 2000000}
    allow_origins: ["https://table.example.org"]   # pages besides the served one
    allow_hosts: ["table.example.org"]             # Host names besides the listen address
    limits: {rooms_per_address: 10, lobby_idle_s: 60}   # harness.web.limits.WebLimits
    forwarded_allow_ips: ["10.0.0.5"]   # reverse proxies whose X-Forwarded-For is believed
    records: {keep_games: 10000, keep_bot_matches: 100}  # harness.web.retention

Model seats always run under a spending cap: without ``spending`` the server applies
:func:`harness.web.spending.server_caps`' default and says so at start.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from harness.paths import RESULTS_DIR
from harness.play.config_files import ConfigError, parse_settings, read_yaml
from harness.play.players import (
    SEATED_KINDS,
    Locale,
    PlayerConfig,
    ProviderLimits,
    SpendingCaps,
    TableSeating,
    unique_player_names,
)

from .limits import WebLimits
from .origins import normal_origin
from .proxies import proxy_network
from .retention import RecordRetention

__all__ = ["ConfigError", "WebConfig", "load_web_config"]


class WebConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(default="web", min_length=1, pattern=r"^[A-Za-z0-9_.-]+$")
    players: list[PlayerConfig] = Field(default_factory=list)
    output: str = str(RESULTS_DIR)
    locale: Locale = "en"  # the language of model seats' prompts (a player's own locale wins)
    retry_budget: int = Field(default=4, ge=0)
    providers: dict[str, ProviderLimits] = Field(default_factory=dict)
    spending: SpendingCaps = Field(default_factory=SpendingCaps)
    allow_origins: list[str] = Field(default_factory=list)
    allow_hosts: list[str] = Field(default_factory=list)
    limits: WebLimits = Field(default_factory=WebLimits)
    forwarded_allow_ips: list[str] = Field(default_factory=list)
    records: RecordRetention = Field(default_factory=RecordRetention)

    _unique_names = field_validator("players")(unique_player_names)

    @field_validator("allow_origins")
    @classmethod
    def _origins(cls, v: list[str]) -> list[str]:
        for o in v:
            if normal_origin(o) is None:
                raise ValueError(f"{o[:80]!r} is not an origin like https://host[:port]")
        return v

    @field_validator("allow_hosts")
    @classmethod
    def _hosts(cls, v: list[str]) -> list[str]:
        for h in v:
            if not h or any(c in h for c in "/ @?#"):
                raise ValueError(f"{h[:80]!r} is not a host name like table.example.org")
        return v

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _proxies(cls, v: list[str]) -> list[str]:
        return [str(proxy_network(p)) for p in v]  # ValueError: one line

    @property
    def run_dir(self) -> Path:
        return Path(self.output) / self.name

    def model_players(self) -> dict[str, PlayerConfig]:
        """The players the host can seat besides bots: models and external agents (an MCP
        client drives its seat through ``bangarena mcp`` and an Inspect solver through the
        Inspect task, not at a web table)."""
        return {
            p.name: p
            for p in self.players
            if p.kind in SEATED_KINDS and p.kind not in ("mcp", "inspect")
        }

    def seating(self, decision_seconds: float) -> TableSeating:
        """These players and the settings their seats share, for the shared model-seat factory
        (:class:`~harness.play.model_seats.ModelSeats`: one provider per model player behind
        the per-provider limits)."""
        return TableSeating(
            players=self.players or [PlayerConfig(name="bot", kind="bot")],
            locale=self.locale,
            decision_seconds=decision_seconds,
            retry_budget=self.retry_budget,
            providers=self.providers,
        )


def parse_web_config(data: Any, source: str = "config") -> WebConfig:
    return parse_settings(WebConfig, {} if data is None else data, source)


def with_allowed(
    config: WebConfig, origins: list[str], hosts: list[str], proxies: Sequence[str] = ()
) -> WebConfig:
    """``config`` with more allowed origins and hosts and named proxies (``serve
    --allow-origin/--allow-host/--forwarded-allow-ips``), checked like the config's own
    (:class:`ConfigError`, one line)."""
    if not origins and not hosts and not proxies:
        return config
    data = config.model_dump()
    data["allow_origins"] = [*config.allow_origins, *origins]
    data["allow_hosts"] = [*config.allow_hosts, *hosts]
    data["forwarded_allow_ips"] = [*config.forwarded_allow_ips, *proxies]
    return parse_web_config(data, "--allow-origin/--allow-host/--forwarded-allow-ips")


def load_web_config(path: str | Path | None) -> WebConfig:
    if path is None:
        return WebConfig()
    return parse_web_config(read_yaml(path), str(Path(path)))
