"""The web server's spending caps (config ``spending: {max_usd, max_tokens}``).

Every model call of every table goes to the run folder's spend ledger
(:mod:`harness.play.ledger`, through the league's model seats), and the caps count its totals
for the whole server process — starting from the totals already in the ledger, so a restart with
the same run folder continues like a league ``--resume``.

When a cap is reached no further model call is sent (calls already in flight end and are
counted), every model seat plays on with its bot, its decisions recorded as fallbacks of reason
``spending_cap``, tables with a model seat hear a one-line notice, and no new table can seat a
model.

Model seats always run under a cap: a config without ``spending`` gets :func:`server_caps`'
default — :data:`DEFAULT_MAX_USD` dollars when every model player's price is known (config
``price`` or LiteLLM's map), and :data:`DEFAULT_MAX_TOKENS` tokens in any case — stated in one line
when the server starts (:func:`caps_line`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harness.play.ledger import cap_reached
from harness.play.model_checks import check_price
from harness.play.players import SpendingCaps

if TYPE_CHECKING:
    from harness.play.model_seats import ModelSeats

    from .web_config import WebConfig

DEFAULT_MAX_USD = 1.0
DEFAULT_MAX_TOKENS = 1_000_000
NOTICE_CODE = "spending_cap"  # the ``code`` of the notice frame and of a refused model seat
AFTER = "model seats play on with their bots"
AGAIN = "raise 'spending' in the server's config and restart it to seat models again"


class SpendingGuard:
    """The caps of one server over its model seats' ledger; ``notify(message)`` is called once,
    when a cap is reached."""

    def __init__(self, caps: SpendingCaps, notify: Callable[[str], None] | None = None) -> None:
        self.caps = caps
        self.notify = notify
        self.reason: str | None = None  # set once a cap is reached (one line)
        self._seats: ModelSeats | None = None

    def attach(self, seats: ModelSeats) -> None:
        """Count ``seats``' ledger (its totals so far reach a cap: stopped at once)."""
        self._seats = seats
        seats.on_spend = self._on_spend
        ledger = seats.ledger
        self._check(cap_reached(self.caps, ledger.cost_usd, ledger.tokens, at_start=True))

    def _on_spend(self, cost_usd: float, tokens: int) -> None:
        if self.reason is None:
            self._check(cap_reached(self.caps, cost_usd, tokens))

    def _check(self, reached: str | None) -> None:
        if reached is None or self.reason is not None:
            return
        self.reason = f"{reached}: {AFTER}"
        if self._seats is not None:
            self._seats.stopping = True  # no further call is sent
        if self.notify is not None:
            self.notify(self.reason)

    def refusal(self) -> str | None:
        """Why a model cannot be seated now (one line), or ``None``."""
        if self.reason is None:
            return None
        return f"no model seats on this server: {self.reason.removesuffix(': ' + AFTER)}; {AGAIN}"


def _priced(config: WebConfig) -> bool:
    for p in config.model_players().values():
        if p.model is None:  # an external agent: no model calls of the server's
            continue
        if p.model.price_book().price(p.model.model, p.model.provider) is None:
            return False
    return True


def server_caps(config: WebConfig, *, prices: bool = True) -> SpendingCaps:
    """The caps model seats run under: the config's, or the default (its dollar part only when
    every model's price is known; ``prices=False`` skips the price look-up: tokens only)."""
    if config.spending.max_usd is not None or config.spending.max_tokens is not None:
        return config.spending
    usd = DEFAULT_MAX_USD if prices and _priced(config) else None
    return SpendingCaps(max_usd=usd, max_tokens=DEFAULT_MAX_TOKENS)


def caps_line(config: WebConfig, caps: SpendingCaps) -> str:
    """One line for the start of ``serve``: the caps and where they come from."""
    parts = []
    if caps.max_usd is not None:
        parts.append(f"${caps.max_usd:,.2f}")
    if caps.max_tokens is not None:
        parts.append(f"{caps.max_tokens:,} tokens")
    where = (
        "config 'spending'" if caps is config.spending else "default; set 'spending' in the config"
    )
    return (f"spending cap for model seats: {' or '.join(parts)} in {config.run_dir} ({where}); "
            f"then {AFTER}")  # fmt: skip


def check_prices(config: WebConfig) -> None:
    """A dollar cap needs every model player's price (config ``price:`` or LiteLLM's map):
    raises :class:`~harness.play.model_checks.PreflightError` (one line) when one is unknown."""
    for p in config.players:
        if p.model is not None:
            check_price(p.name, p.model, config.spending)
