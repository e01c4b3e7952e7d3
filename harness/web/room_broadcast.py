"""What a room sends its connections: the room frame (seats, host, settings), each seat's view
of the game — built once per state of the game and shared by the connections that see the same
— the whole picture for a newly attached connection, and ``note`` lines for the feed.
"""

from __future__ import annotations

from typing import Any

from .connection import Connection
from .frames import over_frame, view_frame
from .room_state import NoteKind, RoomState, note_frame


class RoomBroadcast(RoomState):
    """The frames a room sends (see the module docstring)."""

    def note(self, what: NoteKind, seat: int, name: str | None = None) -> None:
        frame = note_frame(what, seat, self.slots[seat].name if name is None else name)
        for c in self.connections():
            c.send(frame)

    def send_view(self, conn: Connection) -> None:
        """Send ``conn`` its seat's view since its last one.  Views are built once per state of
        the game: connections of the same seat (spectators: the public view), feed position,
        language and question get the same frame (its timer read now)."""
        match = self.match
        if match is None:
            return
        state = (match, match.decision_no, len(match.game.events), match.action_at)
        if state != self._view_state:
            self._views.clear()
            self._view_state = state
        ask = conn.seat is not None and match.asks(conn.seat)
        key = (conn.seat, conn.seen, conn.locale, ask)
        frame = self._views.get(key)
        if frame is None:
            frame = self._views[key] = view_frame(
                match.game, conn.seat, conn.seen, self.names(conn.locale), conn.locale,
                decision=match.decision_no, timer=None, action_at=match.action_at, ask=ask,
            )  # fmt: skip
        conn.saw(frame["events"])
        conn.send({**frame, "timer": match.timer()})

    def broadcast_views(self) -> None:
        for c in self.connections():
            self.send_view(c)

    def room_frame(self, conn: Connection) -> dict[str, Any]:
        names = self.names(conn.locale)
        seats = []
        for i, s in enumerate(self.slots):
            ws = self.match.seats[i] if self.match is not None else None
            seats.append(
                {
                    "seat": i,
                    "name": names[i],
                    "kind": s.kind,
                    "model": self.registry.model_label(s.player) if s.kind == "model" else None,
                    "connected": bool(s.conns) if s.kind == "person" else None,
                    "left": s.left,
                    "autopilot": bool(ws and ws.autopilot),
                }
            )
        return {
            "type": "room",
            "code": self.code,
            "link": f"/?room={self.code}",
            "state": self.state,
            "settings": self.settings.model_dump(),
            "speed": self.speed,
            "host": self.host,
            "you": conn.seat,
            "is_host": conn.seat is not None and conn.seat == self.host,
            "seats": seats,
            "models": self.registry.model_choices(),
            "board": self.match.signals.state() if self.match is not None else None,
        }

    def broadcast_room(self) -> None:
        for c in self.connections():
            c.send(self.room_frame(c))

    def send_all(self, conn: Connection) -> None:
        """Everything a newly attached connection needs: the room, the view, the result."""
        conn.send(self.room_frame(conn))
        if self.match is not None:
            conn.rewind()
            self.send_view(conn)
            if self.match.over and self.match.result is not None:
                conn.send(over_frame(self.match.game, self.names(conn.locale), conn.locale,
                                     self.match.summary()))  # fmt: skip
