"""room seat constraints: a player holds at most one seat of a room, a playing room is full

``rooms.filled`` counts the room's filled seats; it changes in the transaction that changes a
seat, which locks the room's row first, so starts and seat changes of one room (from any
process) run one after the other.

Rows broken by the races this closes are repaired first: a player's extra seats in a room are
cleared (the lowest stays), and a room "playing" with an empty seat is marked finished (its
match could never go on: no one held that seat).

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

FULL_WHEN_PLAYING = "status <> 'playing' OR filled = seat_count"


def upgrade() -> None:
    op.execute(
        """
        UPDATE room_seats SET player_id = NULL
        WHERE player_id IS NOT NULL AND seat > (
            SELECT min(other.seat) FROM room_seats AS other
            WHERE other.room_id = room_seats.room_id AND other.player_id = room_seats.player_id
        )
        """
    )
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("filled", sa.Integer(), nullable=False, server_default="0"))
    op.execute(
        """
        UPDATE rooms SET filled = (
            SELECT count(*) FROM room_seats
            WHERE room_seats.room_id = rooms.id
              AND (room_seats.player_id IS NOT NULL OR room_seats.bot IS NOT NULL)
        )
        """
    )
    op.execute(
        "UPDATE rooms SET status = 'finished' WHERE status = 'playing' AND filled <> seat_count"
    )
    with op.batch_alter_table("rooms") as batch:
        batch.create_check_constraint("ck_rooms_full_when_playing", FULL_WHEN_PLAYING)
    op.create_index(
        "ux_room_seats_room_player", "room_seats", ["room_id", "player_id"], unique=True
    )
    op.create_index("ix_rooms_host_status", "rooms", ["host_id", "status"])


def downgrade() -> None:
    op.drop_index("ix_rooms_host_status", table_name="rooms")
    op.drop_index("ux_room_seats_room_player", table_name="room_seats")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_constraint("ck_rooms_full_when_playing", type_="check")
        batch.drop_column("filled")
