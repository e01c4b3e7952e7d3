"""Leagues run: configs, schedules, seating players and running games into a run folder, and rule-bot tables for the balance measurement (finished runs are read by ``harness.runs``)."""
