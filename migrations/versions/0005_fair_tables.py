"""fair tables: who abandoned a match, whether it was rated, the chat's channel

``match_seats.abandoned``: the seat's player was away (a stand-in played for them, or they
forfeited by absence) when the match ended. ``matches.rated``: the finished match changed
ratings (false while it runs); existing rows are rated when they have rating history.
``player_games.abandoned``: the matches of that game a player abandoned.
``moves.stand_in``: a bot played the move for the seat's away player.
``chat_messages.channel``: ``players`` or ``spectators``, so a reconnect gets back only the chat
its reader may see; earlier messages count as the players'.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(
            sa.Column("abandoned", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("matches") as batch:
        batch.add_column(
            sa.Column("rated", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.execute(
        "UPDATE matches SET rated = EXISTS "
        "(SELECT 1 FROM rating_history WHERE rating_history.match_id = matches.id)"
    )
    with op.batch_alter_table("player_games") as batch:
        batch.add_column(sa.Column("abandoned", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("moves") as batch:
        batch.add_column(
            sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("chat_messages") as batch:
        batch.add_column(
            sa.Column("channel", sa.String(16), nullable=False, server_default="players")
        )


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("chat_messages") as batch:
        batch.drop_column("channel")
    with op.batch_alter_table("player_games") as batch:
        batch.drop_column("abandoned")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("abandoned")
