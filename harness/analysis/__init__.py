"""Measurement over games: a value model, luck-adjusted scores and the fast bot playout path.

* :mod:`.value_model` — the one interface ``value(game, seat) -> P(seat's side wins)`` and its two
  estimators (:class:`.rollout_value.RolloutValue`, the reference; :class:`.fitted.FittedValue`, fast).
* :mod:`.luck` — the luck-adjusted score of every seat of a finished game (AIVAT family).
* :mod:`.playout` — bot-only playouts without records, views of forced decisions or narration.

Pure computation: imports engine, agents (bots) and records, never cli or web.
"""

from .value_model import ValueModel, value

__all__ = ["ValueModel", "value"]
