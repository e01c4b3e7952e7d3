"""The web table: people, rule bots and model seats at one table in the browser.

:func:`create_app` builds the FastAPI application; ``bangarena serve`` runs it under
:func:`harness.web.server.table_server` (uvicorn with the table's own protocols).
"""

from .app import create_app
from .room_registry import Registry
from .web_config import WebConfig, load_web_config

__all__ = ["Registry", "WebConfig", "create_app", "load_web_config"]
