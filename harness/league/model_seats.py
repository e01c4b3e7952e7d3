"""Model seats for a league run: one provider per model player, shared by every game, behind the
run's per-provider concurrency and rate limits; spend accounting for the caps; system prompts
stored once per run.

The table's settings apply to every seat alike: the league's decision timer and fallback policy
override a model spec's; its retry budget applies unless the spec sets its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.agents.base import Agent
from harness.agents.decision_record import ModelDecisionRecord
from harness.agents.model_spec import ModelSpec, build_model_seat, build_provider
from harness.records import RunStore

from .config import LeagueConfig
from .limits import LimitedProvider, RateLimiter
from .schedule import GameSpec


def seat_spec(config: LeagueConfig, spec: ModelSpec) -> ModelSpec:
    update: dict[str, Any] = {
        "decision_seconds": config.decision_seconds,
        "fallback": config.fallback,
    }
    if "retry_budget" not in spec.model_fields_set:
        update["retry_budget"] = config.retry_budget
    return spec.model_copy(update=update)


def unknown_prices(config: LeagueConfig) -> list[str]:
    """Model players whose price is neither in the config nor in litellm's price map."""
    out = []
    for p in config.players:
        if (
            p.model is not None
            and p.model.price_book().price(p.model.model, p.model.provider) is None
        ):
            out.append(f"{p.name} ({p.model.label})")
    return out


class ModelSeats:
    def __init__(self, config: LeagueConfig, run_dir: Path) -> None:
        self.config = config
        self.store = RunStore(run_dir)
        self.on_spend: Callable[[float, int], None] | None = None
        self.cost_usd = 0.0
        self.tokens = 0
        self._limiters: dict[str, RateLimiter] = {}
        self._providers: dict[str, Any] = {}
        self._specs: dict[str, ModelSpec] = {}
        for p in config.players:
            if p.model is None:
                continue
            self._specs[p.name] = seat_spec(config, p.model)

    def spec(self, player: str) -> ModelSpec:
        """The model spec a player's seats use (the league's table settings applied)."""
        return self._specs[player]

    def _provider(self, player: str) -> Any:
        """Built on first use (inside the run's event loop), then shared by all games."""
        if player not in self._providers:
            spec = self._specs[player]
            if spec.provider not in self._limiters:
                limits = self.config.providers.get(spec.provider)
                self._limiters[spec.provider] = RateLimiter(
                    limits.concurrency if limits else 8,
                    limits.requests_per_minute if limits else None,
                )
            self._providers[player] = LimitedProvider(
                build_provider(spec), self._limiters[spec.provider]
            )
        return self._providers[player]

    def _on_record(self, record: ModelDecisionRecord) -> None:
        self.cost_usd += record.cost_usd or 0.0
        self.tokens += record.input_tokens + record.output_tokens
        if self.on_spend is not None:
            self.on_spend(self.cost_usd, self.tokens)

    def seat(self, player: str, seat: int, game: GameSpec) -> Agent:
        return build_model_seat(
            self.spec(player),
            player,
            game.names,
            self.config.locale,
            record_sink=self._on_record,
            system_prompt_sink=self.store.add_system_prompt,
            provider=self._provider(player),
        )

    async def aclose(self) -> None:
        for provider in self._providers.values():
            await provider.aclose()
        self._providers.clear()
