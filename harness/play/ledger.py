"""The spend ledger of a run: ``results/<run>/spend.jsonl``, one :class:`SpendLine` per model call.

Every call a model seat sends is written here as it ends — answered (with the tokens and dollar
cost the provider reported), failed, or cancelled by a stopping run (its tokens and cost unknown,
``null``: the server may have processed it, but its count never came back) — including the calls
of games that are later abandoned or void.  Lines are appended and flushed one by one; a torn last
line (a kill mid-write) is ignored when the ledger is read back.

The sample calls of the preflight (:mod:`harness.league.preflight`) are ledger lines too, with
``game_id`` null and ``purpose: "preflight"`` (written when the run folder is opened, again at each
``--resume``); lines of game calls have no ``purpose`` key, as in ledgers written before it existed.
The calls of belief probes (``docs/probes.md``) have ``purpose: "probe"`` and their game's id.

The run's spending caps count the ledger's totals, and a resumed run starts from them, so a cap
holds across any number of ``--resume``.  The web table keeps the same ledger in its run folder,
under the ``spending`` caps of its config (:mod:`harness.web.room_registry`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from contextvars import ContextVar
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from harness.records.store import read_records

if TYPE_CHECKING:
    from harness.agents.pricing import PriceBook

    from .players import SpendingCaps

SPEND_FILE = "spend.jsonl"
LEDGER_SCHEMA_VERSION = 1

# The game a model call belongs to (set by the runner in each game's task).
current_game: ContextVar[str | None] = ContextVar("current_game", default=None)

CallOutcome = Literal["answered", "failed", "cancelled"]
# The fallback reason of a model seat's decision made without its model because a spending cap
# was reached (the web table: its model seats play on with their bot).
SPENDING_CAP_FALLBACK = "spending_cap"


class SpendLine(BaseModel):
    """One model call: who made it, what came of it, and what it cost."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = LEDGER_SCHEMA_VERSION
    at: str  # UTC time the call ended
    game_id: str | None = None
    player: str
    provider: str
    model: str
    outcome: CallOutcome
    error_kind: str | None = None
    latency_s: float = 0.0
    # None: unknown — a call cancelled by a stopping run before its answer came back (the
    # server may have processed it, but its count never reached the run); never 0 for that
    input_tokens: int | None = 0  # including cached input tokens
    cached_input_tokens: int | None = None  # None: not reported (lines before: 0), or cancelled
    output_tokens: int | None = 0  # including reasoning tokens
    reasoning_tokens: int | None = 0
    cost_usd: float | None = 0.0  # None when the model's price (or the call's tokens) is unknown
    # None: a call of a game's decision (or quiz question); probe: a belief probe of a game
    purpose: Literal["preflight", "probe"] | None = None
    # why the answer ended (stop, length, tool_calls, content_filter, other); None: no answer
    finish_reason: str | None = None

    @property
    def tokens(self) -> int:
        """Input + output tokens as far as they are known (unknown counts add nothing)."""
        return (self.input_tokens or 0) + (self.output_tokens or 0)

    @property
    def tokens_known(self) -> bool:
        return self.input_tokens is not None and self.output_tokens is not None

    def price(self, prices: PriceBook) -> None:
        """Set :attr:`cost_usd` from the tokens (``None`` when the price is unknown)."""
        if not self.tokens:
            return
        cost = prices.cost(
            self.model,
            input_tokens=self.input_tokens or 0,
            cached_input_tokens=self.cached_input_tokens or 0,
            output_tokens=self.output_tokens or 0,
            provider=self.provider,
        )
        self.cost_usd = None if cost is None else round(cost, 9)

    def to_json(self) -> str:
        """The ledger line (without ``purpose`` / ``finish_reason`` when it has none: readable by
        older readers)."""
        unset = {k for k in ("purpose", "finish_reason") if getattr(self, k) is None}
        return self.model_dump_json(exclude=unset or None)


def now_utc() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def cap_reached(
    caps: SpendingCaps, cost_usd: float, tokens: int, *, at_start: bool = False
) -> str | None:
    """Which cap of ``caps`` the totals pass (reach, ``at_start``), as the start of a one-line
    message, or ``None``."""
    over_usd = caps.max_usd is not None and (
        cost_usd >= caps.max_usd if at_start else cost_usd > caps.max_usd
    )
    over_tokens = caps.max_tokens is not None and (
        tokens >= caps.max_tokens if at_start else tokens > caps.max_tokens
    )
    if over_usd:
        return f"spending cap reached: ${cost_usd:.4f} spent of ${caps.max_usd:.4f}"
    if over_tokens:
        return f"token cap reached: {tokens} tokens of {caps.max_tokens}"
    return None


def read_spend(path: Path) -> list[SpendLine]:
    """Every line of the ledger file ``path`` ([] without one; a torn last line is ignored)."""
    return read_records(path, SpendLine, "a spend record")


def append_spend(path: Path, lines: Sequence[SpendLine]) -> None:
    """Append ``lines`` to the ledger file ``path`` (flushed and synced), e.g. a preflight's calls."""
    ledger = SpendLedger(path)
    try:
        for line in lines:
            ledger.add(line)
    finally:
        ledger.close()


class SpendLedger:
    """Totals of the ledger at ``path`` (read when created) plus every line added since."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.calls = 0
        self.cost_usd = 0.0
        self.tokens = 0
        self.unpriced_calls = 0  # answered calls whose cost is unknown
        self.preflight_calls = 0
        self._f: IO[str] | None = None
        for line in self.lines():
            self._count(line)
        self.loaded_calls = self.calls

    def lines(self) -> list[SpendLine]:
        """Every line of the ledger file (a torn last line is ignored)."""
        return read_spend(self.path)

    def _count(self, line: SpendLine) -> None:
        self.calls += 1
        self.preflight_calls += line.purpose == "preflight"
        self.tokens += line.tokens
        if line.cost_usd is None:
            self.unpriced_calls += line.outcome == "answered"
        else:
            self.cost_usd += line.cost_usd

    def add(self, line: SpendLine) -> None:
        """Append ``line`` (flushed) and count it."""
        if self._f is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._f = self.path.open("a", encoding="utf-8")
        self._f.write(line.to_json() + "\n")
        self._f.flush()
        self._count(line)

    def close(self) -> None:
        if self._f is not None:
            self._f.flush()
            os.fsync(self._f.fileno())
            self._f.close()
            self._f = None
