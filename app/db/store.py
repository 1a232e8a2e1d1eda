"""Persistence behind one interface: what the room core writes and reads back.

One implementation per backend, chosen from the engine's database: :class:`SqliteStore`
(SQLAlchemy Core, app/db/sqlite_store.py) and :class:`PostgresStore` (plain SQL on asyncpg,
app/db/postgres_store.py). Both keep the fast path: moves go through the move log's group
commit (app/db/movelog.py), and on Postgres starts through the start log's batches
(app/db/startlog.py). tests/app/db/test_store_contract.py runs the same suite on both.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.matches import MatchEnd, MatchRecord, MoveRow
from app.db.movelog import MoveCommit
from app.db.postgres_store import PostgresStore
from app.db.rooms import PlayingRoom, RoomRecord, SeatChange
from app.db.sqlite_store import SqliteStore
from app.db.turns import TurnRow


class Store(Protocol):
    async def open(self) -> None:
        """Start the move log's pipelines: before the first :meth:`append`."""
        ...

    async def close(self) -> None: ...

    async def start_match(
        self,
        room: RoomRecord,
        *,
        seed: int,
        engine_version: str,
        from_status: str,
        at: datetime | None = None,
    ) -> MatchRecord | None:
        """Open a match for a room whose every seat is filled; ``None`` if the room moved on
        (no longer in ``from_status``, or a seat left meanwhile): nothing is written. It
        started ``at`` (by the room's clock, now if not given: its deadlines are reckoned from
        it)."""
        ...

    async def append(self, commit: MoveCommit) -> bool:
        """Durably store one move, and its snapshot and the end of its match if it has them;
        ``False`` if another process took that ``seq`` first. Raises
        :class:`app.db.movelog.UnstorableMove` for a move that cannot be stored."""
        ...

    async def finish(self, end: MatchEnd) -> None:
        """End a match without a move (a forfeit, an abort), counted and rated if
        ``end.rated``; the end commits even if rating fails."""
        ...

    async def rerate(self, ends: Sequence[MatchEnd]) -> None:
        """Rate finished matches again, in order, without counting them (the rebuild)."""
        ...

    async def load_room(self, room_id: str) -> RoomRecord | None: ...

    async def load_match(self, match_id: int) -> MatchRecord | None: ...

    async def load_snapshot(self, match_id: int) -> tuple[int, dict[str, Any]] | None:
        """The match's latest snapshot: ``(seq, state)``."""
        ...

    async def load_moves(self, match_id: int, after_seq: int = 0) -> list[MoveRow]: ...

    async def load_move_count(self, match_id: int) -> int: ...

    async def load_own_moves(self, match_id: int, through_seq: int) -> dict[int, int]:
        """Each seat's moves of its own (not a stand-in's) among moves 1 to ``through_seq``."""
        ...

    # -- rooms, seats and chat ---------------------------------------------------------------
    async def create_room(
        self,
        *,
        room_id: str,
        game: str,
        options: dict[str, Any],
        table: dict[str, Any],
        seats: int,
        host_id: int,
        private: bool,
    ) -> None: ...

    async def list_open_rooms(self) -> list[RoomRecord]:
        """Public rooms waiting or playing, for the lobby."""
        ...

    async def set_table(self, room_id: str, table: dict[str, Any]) -> bool:
        """A playing room's table settings changed: ``False`` if it is not playing."""
        ...

    async def playing_rooms(self) -> list[PlayingRoom]: ...

    async def record_turns(self, rows: Sequence[TurnRow], now: datetime) -> None:
        """Whom each match waits for now (``app/db/turns.py``); a turn-based match's turns
        job (``app/rooms/turns.py``) due ``now``."""
        ...

    async def keep_turns_of(self, playing: Sequence[PlayingRoom], due: datetime) -> None:
        """Each turn-based match without its job gets one, due at ``due`` (after a crash
        between a match's start and its job)."""
        ...

    async def open_rooms_of(self, host_id: int) -> int:
        """Rooms the player hosts that are waiting or playing."""
        ...

    async def bot_matches_of(self, host_id: int) -> int:
        """Running matches the player hosts with a bot in every seat."""
        ...

    async def claim_seat(self, room_id: str, seat: int, player_id: int) -> SeatChange:
        """Each seat change locks the room's row: a race loses cleanly, saying why."""
        ...

    async def put_bot(self, room_id: str, seat: int, level: str) -> SeatChange: ...

    async def clear_seat(self, room_id: str, seat: int) -> SeatChange: ...

    async def add_chat(self, room_id: str, player_id: int, text: str, channel: str) -> datetime:
        """Keep a chat message; when it was said."""
        ...

    async def recent_chat(
        self, room_id: str, *, players_only: bool, limit: int
    ) -> list[dict[str, Any]]: ...


def open_store(db: AsyncEngine) -> Store:
    """The store for the engine's database (not yet open)."""
    if db.dialect.name == "postgresql":
        return PostgresStore(db)
    return SqliteStore(db)
