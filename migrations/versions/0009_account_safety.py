"""account safety: recent sign-ins, passkey labels, known devices, the guest sweep's indexes

- ``sessions.authenticated_at``: when the device last proved who it is (a password or a
  passkey); adding a passkey needs it recent, or the password again. Sessions from before have
  none (their next passkey asks for the password).
- ``passkeys.label``: the player's words for a passkey ('' for those from before).
- ``known_devices``: browsers an account signed in on (the SHA-256 of a device cookie), whose
  sign-ins the limit counts apart from the username's.
- Indexes on ``room_seats.player_id`` and ``chat_messages.player_id``: the sweep of unused
  guests asks whether a guest ever sat or spoke.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    with op.batch_alter_table("sessions") as sessions:
        sessions.add_column(sa.Column("authenticated_at", STAMP, nullable=True))
    with op.batch_alter_table("passkeys") as passkeys:
        passkeys.add_column(sa.Column("label", sa.String(64), nullable=False, server_default=""))
    op.create_table(
        "known_devices",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_index("ix_known_devices_player", "known_devices", ["player_id"])
    op.create_index("ix_room_seats_player", "room_seats", ["player_id"])
    op.create_index("ix_chat_player", "chat_messages", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_chat_player", "chat_messages")
    op.drop_index("ix_room_seats_player", "room_seats")
    op.drop_table("known_devices")
    with op.batch_alter_table("passkeys") as passkeys:
        passkeys.drop_column("label")
    with op.batch_alter_table("sessions") as sessions:
        sessions.drop_column("authenticated_at")
