"""Token prices and decision costs.

Prices come from a config table ``{model: {"input": $/Mtok, "cached_input": $/Mtok, "output":
$/Mtok}}`` first, then from LiteLLM's bundled price map (``litellm.model_cost``) when LiteLLM is
installed. ``input`` tokens passed to :meth:`PriceBook.cost` include the cached ones; cached tokens
are billed at ``cached_input`` (default: the ``input`` price) and the rest at ``input``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "ModelPrice",
    "PriceBook",
    "PriceTable",
    "context_window",
    "cost_usd",
    "unknown_prices",
]

PriceTable = Mapping[str, Mapping[str, float]]
_PER_MTOK = 1_000_000.0


@dataclass(frozen=True)
class ModelPrice:
    """US dollars per million tokens."""

    input: float
    cached_input: float
    output: float


def _candidates(model: str, provider: str | None) -> list[str]:
    names = [f"{provider}/{model}"] if provider else []
    names.append(model)
    if "/" in model:
        names.append(model.split("/", 1)[1])
    return names


@functools.cache
def _litellm_cost_map() -> Mapping[str, Any] | None:
    try:
        from .providers.litellm_provider import import_litellm

        cost_map: Mapping[str, Any] = import_litellm().model_cost
        return cost_map
    except ImportError:
        return None


def _from_table(entry: Mapping[str, float]) -> ModelPrice:
    input_price = float(entry["input"])
    return ModelPrice(
        input=input_price,
        cached_input=float(entry.get("cached_input", input_price)),
        output=float(entry["output"]),
    )


def _from_litellm(entry: Mapping[str, Any]) -> ModelPrice | None:
    try:
        input_price = float(entry["input_cost_per_token"]) * _PER_MTOK
        output_price = float(entry["output_cost_per_token"]) * _PER_MTOK
    except (KeyError, TypeError, ValueError):
        return None
    cached = entry.get("cache_read_input_token_cost")
    cached_price = float(cached) * _PER_MTOK if cached is not None else input_price
    return ModelPrice(input=input_price, cached_input=cached_price, output=output_price)


class PriceBook:
    """Looks up :class:`ModelPrice` for a model; memoised.

    ``use_litellm=False`` restricts look-ups to ``table`` (and avoids importing LiteLLM).
    """

    def __init__(self, table: PriceTable | None = None, *, use_litellm: bool = True) -> None:
        self.table: dict[str, Mapping[str, float]] = dict(table or {})
        self.use_litellm = use_litellm
        self._memo: dict[tuple[str, str | None], ModelPrice | None] = {}

    def price(self, model: str, provider: str | None = None) -> ModelPrice | None:
        """The price of ``model`` (tried as ``provider/model``, ``model``, then unprefixed)."""
        key = (model, provider)
        if key not in self._memo:
            self._memo[key] = self._lookup(model, provider)
        return self._memo[key]

    def _lookup(self, model: str, provider: str | None) -> ModelPrice | None:
        names = _candidates(model, provider)
        for name in names:
            if name in self.table:
                return _from_table(self.table[name])
        cost_map = _litellm_cost_map() if self.use_litellm else None
        if cost_map:
            for name in names:
                entry = cost_map.get(name)
                if isinstance(entry, Mapping) and (price := _from_litellm(entry)) is not None:
                    return price
        return None

    def cost(
        self,
        model: str,
        *,
        input_tokens: int,
        cached_input_tokens: int,
        output_tokens: int,
        provider: str | None = None,
    ) -> float | None:
        """Dollar cost of a call, or ``None`` when the model's price is unknown."""
        price = self.price(model, provider)
        if price is None:
            return None
        cached = min(cached_input_tokens, input_tokens)
        return (
            (input_tokens - cached) * price.input
            + cached * price.cached_input
            + output_tokens * price.output
        ) / _PER_MTOK


def cost_usd(
    model: str,
    *,
    input_tokens: int,
    cached_input_tokens: int,
    output_tokens: int,
    table: PriceTable | None = None,
    provider: str | None = None,
) -> float | None:
    """One-off cost computation (see :meth:`PriceBook.cost`)."""
    return PriceBook(table).cost(
        model,
        input_tokens=input_tokens,
        cached_input_tokens=cached_input_tokens,
        output_tokens=output_tokens,
        provider=provider,
    )


def unknown_prices(
    models: Iterable[str], table: PriceTable | None = None, *, use_litellm: bool = True
) -> list[str]:
    """The models (sorted, unique) with no price in ``table`` nor LiteLLM's map.

    A run calls this before it starts so missing prices are reported up front.
    """
    book = PriceBook(table, use_litellm=use_litellm)
    return sorted({m for m in models if book.price(m) is None})


def context_window(model: str, provider: str | None = None) -> int | None:
    """The model's input context in tokens from LiteLLM's model map, ``None`` when unknown."""
    cost_map = _litellm_cost_map()
    if cost_map is None:
        return None
    for name in _candidates(model, provider):
        entry = cost_map.get(name)
        if isinstance(entry, Mapping):
            value = entry.get("max_input_tokens") or entry.get("max_tokens")
            if isinstance(value, int) and value > 0:
                return value
    return None
