"""Seats: one async protocol for every kind of player (random, rule bot, language model, person)."""

from .base import Agent, Choice, RandomAgent
from .seat import Decided, FallbackPolicy, decide

__all__ = ["Agent", "Choice", "Decided", "FallbackPolicy", "RandomAgent", "decide"]
