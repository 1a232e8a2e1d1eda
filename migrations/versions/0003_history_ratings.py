"""history filters and ratings: indexes for the history queries, ratings, rating_history

Revision ID: 0003
Revises: 0002

Indexes (each serves one history query with a keyset scan, see app/db/history.py):
  matches (status, id)                    ?status=playing|finished, newest first
  matches (started_at)                    ?since=/until= turned into an id range
  match_seats (player_id, winner, match_id)  ?player=&result=win|loss|draw
  players (lower(name))                   player name search (prefix)
Tables: ratings (one row per player and game), rating_history (one row per human seat of a
rated match), player_games (each player's played / won / lost / drawn per game, counted from
the finished matches already stored, then kept as matches finish). Ratings of matches that
finished before this migration: ``python -m app.db.ratings rebuild``.

On a large live Postgres database, build the indexes beforehand with CREATE INDEX
CONCURRENTLY under the same names; this migration then only creates the tables.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _index(name: str, table: str, columns: str) -> None:
    op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {table} ({columns})")


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    _index("ix_matches_status_id", "matches", "status, id")
    _index("ix_matches_started_at", "matches", "started_at")
    _index("ix_match_seats_player_winner_match", "match_seats", "player_id, winner, match_id")
    _index(
        "ix_players_name_lower",
        "players",
        "lower(name) text_pattern_ops" if postgres else "lower(name)",
    )

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("ordinal", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("last_delta", sa.Double(), nullable=False),
        sa.Column("last_match_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["last_match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.create_index("ix_ratings_game_ordinal", "ratings", ["game", "ordinal"])

    op.create_table(
        "rating_history",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu_after", sa.Double(), nullable=False),
        sa.Column("sigma_after", sa.Double(), nullable=False),
        sa.Column("ordinal_before", sa.Double(), nullable=False),
        sa.Column("ordinal_after", sa.Double(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"]),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_index(
        "ix_rating_history_player_game_match", "rating_history", ["player_id", "game", "match_id"]
    )

    op.create_table(
        "player_games",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
        sa.Column("drawn", sa.Integer(), nullable=False),
        sa.Column("last_match_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["last_match_id"], ["matches.id"]),
        sa.PrimaryKeyConstraint("player_id", "game"),
    )
    op.execute(RECORDS)


# Each player's record per game from the finished matches (a draw: a win shared with another
# seat). The same statement as app.db.ratings.RECORDS, kept here as it was at this revision.
RECORDS = """
INSERT INTO player_games (player_id, game, played, won, lost, drawn, last_match_id)
SELECT ms.player_id, m.game, count(*),
       sum(CASE WHEN ms.winner AND NOT EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       sum(CASE WHEN NOT ms.winner THEN 1 ELSE 0 END),
       sum(CASE WHEN ms.winner AND EXISTS (SELECT 1 FROM match_seats o
           WHERE o.match_id = ms.match_id AND o.seat <> ms.seat AND o.winner) THEN 1 ELSE 0 END),
       max(m.id)
FROM match_seats ms JOIN matches m ON m.id = ms.match_id
WHERE ms.player_id IS NOT NULL AND m.status = 'finished' AND ms.winner IS NOT NULL
GROUP BY ms.player_id, m.game
"""


def downgrade() -> None:
    op.drop_table("player_games")
    op.drop_index("ix_rating_history_player_game_match", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_game_ordinal", table_name="ratings")
    op.drop_table("ratings")
    for name in (
        "ix_players_name_lower",
        "ix_match_seats_player_winner_match",
        "ix_matches_started_at",
        "ix_matches_status_id",
    ):
        op.execute(f"DROP INDEX IF EXISTS {name}")
