"""outcome termination: every stored outcome says why its match ended

Outcomes stored before ``termination`` was written with each of them said nothing when the
rules ended the match, and a forfeit said so only by naming its seat in ``detail``. Each one
gets the field by the rule the readers applied until now: ``forfeit`` when ``detail`` names a
forfeit, else ``normal``. Rows are read and written in batches of ids, in Python, the same on
SQLite and Postgres (the column is JSON, whose operators the two do not share).

Revision ID: 0008
Revises: 0007
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

BATCH = 500

matches = sa.table("matches", sa.column("id", sa.Integer()), sa.column("outcome", sa.JSON()))


def upgrade() -> None:
    connection = op.get_bind()
    write = (
        sa.update(matches)
        .where(matches.c.id == sa.bindparam("match_id"))
        .values(outcome=sa.bindparam("ended"))
    )
    after = 0
    while True:
        rows = connection.execute(
            sa.select(matches.c.id, matches.c.outcome)
            .where(matches.c.id > after)
            .order_by(matches.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        ended = [
            {"match_id": row.id, "ended": _with_termination(row.outcome)}
            for row in rows
            if row.outcome is not None and "termination" not in row.outcome
        ]
        if ended:
            connection.execute(write, ended)
        after = rows[-1].id


def _with_termination(outcome: dict[str, Any]) -> dict[str, Any]:
    forfeit = "forfeit" in outcome.get("detail", {})
    return {**outcome, "termination": "forfeit" if forfeit else "normal"}


def downgrade() -> None:
    """Nothing to undo: the code before this revision reads a stored ``termination`` as is."""
