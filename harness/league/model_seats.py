"""The model seats live in :mod:`harness.play.model_seats`; :func:`seat_spec` stays importable here
for the league's preflight until it imports it from there."""

from harness.play.model_seats import seat_spec

__all__ = ["seat_spec"]
