"""turn-based play: due jobs and whom each running match waits for

- ``jobs``: work kept until its time comes (a turn-based match's deadlines, reminders and
  notices; notifications), claimed by one process at a time (``app/db/jobs.py``).
- ``match_turns``: the players a running match waits for, its deadline and its last move's
  time, written after each move, so a player's list of games needs no match loaded.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

STAMP = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column("due_at", STAMP, nullable=False),
        sa.Column("claimed_until", STAMP, nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("payload", sa.JSON(), nullable=False),
    )
    op.create_index("ix_jobs_due", "jobs", ["due_at"])
    op.create_table(
        "match_turns",
        sa.Column("match_id", sa.Integer(), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("room_id", sa.String(16), sa.ForeignKey("rooms.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("waiting_for", sa.JSON(), nullable=False),
        sa.Column("deadline", STAMP, nullable=True),
        sa.Column("last_move_at", STAMP, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("match_turns")
    op.drop_index("ix_jobs_due", "jobs")
    op.drop_table("jobs")
