"""The offline HTML report of a run (summary, game list, replay viewer): ``bangarena report``."""

from .html import ReportResult, build_report, game_payload
from .league_summary import Summary, summarize, wilson

__all__ = ["ReportResult", "Summary", "build_report", "game_payload", "summarize", "wilson"]
