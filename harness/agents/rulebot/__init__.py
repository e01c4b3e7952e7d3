"""Rule-based bots that play their role from public information (the seat view only).

``RuleBot`` is the agent; :mod:`.suspicion` reads the public event feed, :mod:`.goals` turns a
role into whom to hurt or protect, :mod:`.policy` plays cards, :mod:`.reactions` answers
everything else, :mod:`.values` rates cards.
"""

from .bot import RuleBot
from .suspicion import Suspicion

__all__ = ["RuleBot", "Suspicion"]
