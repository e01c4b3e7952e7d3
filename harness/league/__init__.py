"""Leagues: configs, schedules and running games into a run folder (the seats and records of each
game come from :mod:`harness.play`), and reading finished runs."""
