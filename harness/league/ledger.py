"""The spend ledger lives in :mod:`harness.play.ledger`; these names stay importable here for the
league modules that read it (the preflight, the spend report) until they import it from there."""

from harness.play.ledger import SPEND_FILE, SpendLedger, SpendLine, now_utc, read_spend

__all__ = ["SPEND_FILE", "SpendLedger", "SpendLine", "now_utc", "read_spend"]
