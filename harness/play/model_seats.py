"""Model seats for a run (a league's, or a web table's): one provider per model player, shared by
every game, behind the run's per-provider concurrency and rate limits; every call written to the
run's spend ledger for the caps; system prompts stored once per run.

The table's settings apply to every seat alike: the league's decision timer and fallback policy
override a model spec's; its retry budget applies unless the spec sets its own.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.agents.model_spec import ModelSpec, build_model_seat, build_provider
from harness.agents.pricing import PriceBook
from harness.agents.prober import Prober, probe_call
from harness.agents.seat import FatalSeatError
from harness.agents.seat_protocol import Agent
from harness.records import RunStore
from harness.records.probes import PROBES_FILE, ProbeSink

from .agent_players import AgentSeats
from .game_spec import GameSpec
from .ledger import SPEND_FILE, SpendLedger, SpendLine, current_game, now_utc
from .players import ProviderLimits, SeatSettings
from .provider_limits import LimitedProvider, RateLimiter


def seat_spec(config: SeatSettings, spec: ModelSpec) -> ModelSpec:
    update: dict[str, Any] = {
        "decision_seconds": config.decision_seconds,
        "fallback": config.fallback,
    }
    if "retry_budget" not in spec.model_fields_set:
        update["retry_budget"] = config.retry_budget
    return spec.model_copy(update=update)


def unknown_prices(config: SeatSettings) -> list[str]:
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
    """The model seats of one run.

    Every call passes through :class:`~harness.play.provider_limits.LimitedProvider`: it is written to
    the run's spend ledger (:mod:`harness.play.ledger`) when it ends, then ``on_spend(cost_usd,
    tokens)`` hears the run's totals (the runner checks its caps there).  Once :attr:`stopping`
    is set no further call is sent.
    """

    def __init__(self, config: SeatSettings, run_dir: Path) -> None:
        self.config = config
        self.store = RunStore(run_dir)
        self.ledger = SpendLedger(run_dir / SPEND_FILE)
        self.probes = ProbeSink(run_dir / PROBES_FILE)  # belief probes (docs/probes.md)
        self.on_spend: Callable[[float, int], None] | None = None
        self.stopping = False
        self.fatal_player: str | None = None  # the player whose call or set-up failed fatally
        # wraps each built provider (benchmarks add a simulated latency here)
        self.wrap_provider: Callable[[Any], Any] | None = None
        self._limiters: dict[str, RateLimiter] = {}
        self._providers: dict[str, Any] = {}
        self._specs: dict[str, ModelSpec] = {}
        self._prices: dict[str, PriceBook] = {}
        for p in config.players:
            if p.model is None:
                continue
            self._specs[p.name] = seat_spec(config, p.model)
        # the run's Python and remote agent players, in the same ledger and caps
        self.agents = AgentSeats(
            config, self.add_spend, lambda sha, text: self.store.add_system_prompt(sha, text)
        )  # (the ledger and store are looked up at each call: a Ray worker replaces them)

    @property
    def cost_usd(self) -> float:
        """Dollars spent by the run so far (every session; unknown prices count 0)."""
        return self.ledger.cost_usd

    @property
    def tokens(self) -> int:
        """Input + output tokens spent by the run so far (every session)."""
        return self.ledger.tokens

    def spec(self, player: str) -> ModelSpec:
        """The model spec a player's seats use (the league's table settings applied)."""
        return self._specs[player]

    def provider(self, player: str) -> Any:
        """The player's provider behind the run's limits, ledger and stop switch (built on first
        use inside the run's event loop, then shared by every game and quiz question)."""
        return self._provider(player)

    def _provider(self, player: str) -> Any:
        """Built on first use (inside the run's event loop), then shared by all games."""
        if player not in self._providers:
            spec = self._specs[player]
            if spec.provider not in self._limiters:
                limits = self.config.providers.get(spec.provider, ProviderLimits())
                self._limiters[spec.provider] = RateLimiter(
                    limits.concurrency, limits.requests_per_minute
                )

            def on_call(reply: Any, error: BaseException | None, cancelled: bool, s: float) -> None:
                self._on_call(player, reply, error, cancelled, s)

            inner = build_provider(spec)
            if self.wrap_provider is not None:
                inner = self.wrap_provider(inner)
            self._providers[player] = LimitedProvider(
                inner,
                self._limiters[spec.provider],
                on_call=on_call,
                stopping=lambda: self.stopping,
            )
        return self._providers[player]

    def _on_call(
        self,
        player: str,
        reply: Any,
        error: BaseException | None,
        cancelled: bool,
        latency_s: float,
    ) -> None:
        spec = self._specs[player]
        if error is not None and getattr(error, "fatal", False):
            self.fatal_player = player
        line = SpendLine(
            at=now_utc(),
            game_id=current_game.get(),
            player=player,
            provider=spec.provider,
            model=spec.model,
            outcome="cancelled" if cancelled else "failed" if reply is None else "answered",
            error_kind=getattr(error, "kind", type(error).__name__) if error else None,
            latency_s=round(latency_s, 6),
            purpose="probe" if probe_call.get() else None,
        )
        if cancelled and reply is None:  # what the server counted never came back
            line.input_tokens = line.cached_input_tokens = None
            line.output_tokens = line.reasoning_tokens = None
            line.cost_usd = None
        if reply is not None:
            line.input_tokens = reply.input_tokens
            line.cached_input_tokens = reply.cached_input_tokens
            line.output_tokens = reply.output_tokens
            line.reasoning_tokens = reply.reasoning_tokens
            line.finish_reason = reply.finish_reason
            if line.tokens:
                if player not in self._prices:
                    self._prices[player] = spec.price_book()
                line.price(self._prices[player])
        self.add_spend(line)

    def add_spend(self, line: SpendLine) -> None:
        """Add a call's line to the run's spend ledger and report the new totals."""
        self.ledger.add(line)
        if self.on_spend is not None:
            self.on_spend(self.ledger.cost_usd, self.ledger.tokens)

    def warm(self) -> None:
        """Build each player's provider and one seat now, before any game's timer runs (the
        first seat loads SDKs and tokenizers, which holds the event loop for seconds)."""
        for player in self._specs:
            names = [f"seat {i}" for i in range(8)]
            try:
                build_model_seat(
                    self.spec(player),
                    player,
                    names,
                    self.config.locale_of(player),
                    provider=self._provider(player),
                )
            except FatalSeatError:
                self.fatal_player = player
                raise

    def seat(self, player: str, seat: int, game: GameSpec) -> Agent:
        if player in self.agents:
            return self.agents.seat(player, seat, game)
        model_seat = build_model_seat(
            self.spec(player),
            player,
            game.names,
            self.config.locale_of(player),
            system_prompt_sink=self.store.add_system_prompt,
            provider=self._provider(player),
            signals=self.config.signals,
        )
        settings = self.config.player(player).probes
        if settings is not None:
            spec, llm = self.spec(player), model_seat.llm
            model_seat.prober = Prober(
                settings,
                llm.provider,
                spec.model,
                names=game.names,
                locale=self.config.locale_of(player),
                system=llm.conversation.system,
                sink=lambda record: self.probes(record),  # looked up at each probe (Ray)
                answer_mode=llm.answer_mode,
                params=llm.params,
                seconds=self.config.decision_seconds,
                prices=llm.prices,
                label=self.config.player(player).label,
            )
        return model_seat

    async def aclose(self) -> None:
        for provider in self._providers.values():
            await provider.aclose()
        self._providers.clear()
        await self.agents.aclose()
        self.ledger.close()
        self.probes.close()
