"""notifications: server keys, players' notification settings, push subscriptions, the
notices sent (kept a week)

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def _player() -> sa.Column:
    return sa.Column(
        "player_id", sa.Integer(), sa.ForeignKey("players.id", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.create_table(
        "notification_settings",
        sa.Column(
            "player_id",
            sa.Integer(),
            sa.ForeignKey("players.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("push", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("email", sa.String(16), nullable=False, server_default="off"),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("verified", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("verify_nonce", sa.String(64), nullable=True),
        sa.Column("verify_sent_at", STAMP, nullable=True),
        sa.Column("mail_round", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("mail_sent_at", STAMP, nullable=True),
        sa.CheckConstraint("email IN ('off', 'each_turn', 'daily')", name="email_kind"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True),
        _player(),
        sa.Column("endpoint", sa.String(1024), nullable=False, unique=True),
        sa.Column("p256dh", sa.String(100), nullable=False),
        sa.Column("auth", sa.String(40), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
    )
    op.create_index("ix_push_subscriptions_player", "push_subscriptions", ["player_id"])
    op.create_table(
        "turn_notices",
        sa.Column("id", sa.Integer(), primary_key=True),
        _player(),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("notice", sa.JSON(), nullable=False),
        sa.Column("created_at", STAMP, nullable=False),
        sa.Column("mail_waits", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("mail_round", sa.Integer(), nullable=True),
    )
    op.create_index(
        "ix_turn_notices_mail", "turn_notices", ["player_id", "mail_waits", "mail_round"]
    )
    op.create_index("ix_turn_notices_created", "turn_notices", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_turn_notices_created", "turn_notices")
    op.drop_index("ix_turn_notices_mail", "turn_notices")
    op.drop_table("turn_notices")
    op.drop_index("ix_push_subscriptions_player", "push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("notification_settings")
    op.drop_table("server_keys")
