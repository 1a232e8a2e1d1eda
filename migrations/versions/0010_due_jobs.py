"""due jobs: work kept until its time comes (deadlines, reminders, notifications)

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


def downgrade() -> None:
    op.drop_index("ix_jobs_due", "jobs")
    op.drop_table("jobs")
