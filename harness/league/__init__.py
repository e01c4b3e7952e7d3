"""Leagues run: configs, schedules and running games into a run folder (the seats and records of
each game come from :mod:`harness.play`), and rule-bot tables for the balance measurement
(finished runs are read by :mod:`harness.runs`)."""
