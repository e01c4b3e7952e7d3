"""Seating and recording one table: the floor between ``agents``/``records`` and the league, the
web table and the integrations.

* players and game specs: :mod:`.players` (who may sit: a player's config), :mod:`.game_spec`
  (one game to seat: seed, mode, lineup, names), :mod:`.config_files` (reading settings files,
  one-line errors);
* the seat factories: :mod:`.model_seats` (model seats behind the run's provider limits,
  :mod:`.provider_limits`, and spend ledger, :mod:`.ledger`), :mod:`.agent_players` (Python,
  remote, MCP and Inspect agents), :mod:`.seats` (rule bots and random seats, and a whole lineup);
* :mod:`.model_checks`: the checks on seating a model player that ask no model (a known price
  under a dollar cap, a LiteLLM key, why a server cannot be reached) and their one-line stop;
* :mod:`.recorder`: the one game recorder — the start line, a decision line per step the table
  yields, the seats' outcomes and the end records — used by league games, web games and Inspect
  samples alike.
"""
