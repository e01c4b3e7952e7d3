"""Seats: one async protocol for every kind of player (random, rule bot, language model, person);
the model seat's transcript and tokenizers; the table that plays a game."""

from .seat import Decided, FallbackPolicy, decide
from .seat_protocol import Agent, Choice, RandomAgent

__all__ = ["Agent", "Choice", "Decided", "FallbackPolicy", "RandomAgent", "decide"]
