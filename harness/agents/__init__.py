"""Seats: one async protocol for every kind of player (random, rule bot, language model, person)."""

from .base import Agent, RandomAgent
from .seat import Decided, FallbackPolicy, decide

__all__ = ["Agent", "Decided", "FallbackPolicy", "RandomAgent", "decide"]
