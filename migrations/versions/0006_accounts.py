"""accounts: usernames and passwords, one session per device, passkeys

Tables: accounts (a claimed player's username, unique whatever its case, and Argon2id password
hash), sessions (one per device: the SHA-256 of its token), passkeys (WebAuthn credentials),
passkey_challenges (handed out, answered once), signin_failures (the sign-in limit's window).

Every guest token so far (``players.token_hash``, already a hash) becomes the player's first
session, so every guest keeps playing with the cookie they have.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("user_handle", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("last_seen_at", STAMP, nullable=False),
    )
    op.create_index("ix_sessions_player", "sessions", ["player_id"])
    op.execute(
        "INSERT INTO sessions (player_id, token_hash, label, created_at, last_seen_at) "
        "SELECT id, token_hash, '', created_at, created_at FROM players ORDER BY id"
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("accounts.player_id"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("transports", sa.JSON(), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("last_used_at", STAMP, nullable=True),
    )
    op.create_index("ix_passkeys_player", "passkeys", ["player_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("challenge", sa.String(128), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("expires_at", STAMP, nullable=False),
    )
    op.create_index("ix_passkey_challenges_expires", "passkey_challenges", ["expires_at"])
    op.create_table(
        "signin_failures",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("key", sa.String(64), nullable=False),
        sa.Column("at", STAMP, nullable=False),
    )
    op.create_index("ix_signin_failures_key_at", "signin_failures", ["key", "at"])
    op.create_index("ix_signin_failures_at", "signin_failures", ["at"])


def downgrade() -> None:
    for table in ("signin_failures", "passkey_challenges", "passkeys", "sessions", "accounts"):
        op.drop_table(table)
