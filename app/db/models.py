"""The schema. Alembic migrations in ``migrations/`` are the only way it changes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Double,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# The largest id an INTEGER column holds in every database (Postgres's; SQLite's is 2**63 - 1).
LARGEST_ID = 2**31 - 1


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    # the hash of the token the guest was created with; who a token names is looked up in
    # ``sessions`` (migration 0006 copied every one there), so a session can end
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Account(Base):
    """A claimed player: a username (unique whatever its case: ``username_key`` is its
    case-folded form) and an Argon2id password hash. ``user_handle`` names the account to
    passkeys (random, never the player id)."""

    __tablename__ = "accounts"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    username: Mapped[str] = mapped_column(String(24))
    username_key: Mapped[str] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    user_handle: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Session(Base):
    """One device's sign-in: the SHA-256 hash of its token, never the token."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # when this device last proved who it is (a password or a passkey; migration 0009): adding
    # a passkey needs it recent, or the password again. A guest's first session has none.
    authenticated_at: Mapped[datetime | None] = mapped_column(
        DateTime(timezone=True), nullable=True
    )

    __table_args__ = (Index("ix_sessions_player", "player_id"),)


class KnownDevice(Base):
    """A browser an account signed in on (migration 0009): the SHA-256 of its device cookie.
    Its sign-ins are counted apart from the username's, so failures elsewhere (an attacker's)
    do not lock the owner out there."""

    __tablename__ = "known_devices"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_known_devices_player", "player_id"),)


class Passkey(Base):
    """A WebAuthn credential of an account: its id and public key (base64url), the
    authenticator's signature counter and transports."""

    __tablename__ = "passkeys"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("accounts.player_id"))
    credential_id: Mapped[str] = mapped_column(String(1400), unique=True)
    public_key: Mapped[str] = mapped_column(Text)
    sign_count: Mapped[int] = mapped_column(BigInteger, default=0)
    transports: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the player's words for it (the device it was made on, by default; migration 0009)
    label: Mapped[str] = mapped_column(String(64), default="", server_default="")

    __table_args__ = (Index("ix_passkeys_player", "player_id"),)


class PasskeyChallenge(Base):
    """A WebAuthn challenge handed out and not yet answered: used once, until ``expires_at``.
    A registration's belongs to the player adding the passkey; a sign-in's to nobody."""

    __tablename__ = "passkey_challenges"

    challenge: Mapped[str] = mapped_column(String(128), primary_key=True)
    purpose: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_passkey_challenges_expires", "expires_at"),)


class SigninFailure(Base):
    """An attempt a limit counts (app/db/limits.py) against a key (a hash of its kind and a
    username, a player or a client's address), for the limit's window: a sign-in (a failed
    one: a success takes its row back), a claim, a new guest, a passkey challenge."""

    __tablename__ = "signin_failures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(64))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_signin_failures_key_at", "key", "at"),
        Index("ix_signin_failures_at", "at"),
    )


class Room(Base):
    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    table: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seat_count: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    match_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # seats with a player or a bot (migration 0004): a playing room has them all
    filled: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_rooms_status_created", "status", "created_at"),
        Index("ix_rooms_host_status", "host_id", "status"),  # a host's open rooms (0004)
        CheckConstraint(
            "status <> 'playing' OR filled = seat_count", name="ck_rooms_full_when_playing"
        ),
    )


class RoomSeat(Base):
    __tablename__ = "room_seats"

    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(8), nullable=True)

    # a player holds at most one seat of a room (migration 0004)
    __table_args__ = (
        Index("ux_room_seats_room_player", "room_id", "player_id", unique=True),
        Index("ix_room_seats_player", "player_id"),  # is a guest used (migration 0009)
    )


class Match(Base):
    __tablename__ = "matches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    game: Mapped[str] = mapped_column(String(32))
    engine_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    has_bots: Mapped[bool] = mapped_column(Boolean, default=False)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    # the finished match changed ratings (migration 0005); false while it runs
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        Index("ix_matches_game_id", "game", "id"),
        Index("ix_matches_status", "status"),
        # history filters (migration 0003): status=playing|finished pages, date ranges
        Index("ix_matches_status_id", "status", "id"),
        Index("ix_matches_started_at", "started_at"),
    )


class MatchSeat(Base):
    __tablename__ = "match_seats"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(8), nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    score: Mapped[float | None] = mapped_column(nullable=True)
    winner: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    # its player was away when the match ended (migration 0005): never a winner, ranked last
    abandoned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (
        Index("ix_match_seats_player_match", "player_id", "match_id"),
        # a player's wins / losses / draws, newest first (migration 0003)
        Index("ix_match_seats_player_winner_match", "player_id", "winner", "match_id"),
    )


class Move(Base):
    __tablename__ = "moves"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    # a bot played it for the seat's away player (migration 0005)
    stand_in: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Snapshot(Base):
    """The latest engine state of a running match, so a restart replays few moves."""

    __tablename__ = "snapshots"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer)
    state: Mapped[dict[str, Any]] = mapped_column(JSON)


class MatchReview(Base):
    """A finished match's decisions weighed by the hard bot (``games.review``), computed once."""

    __tablename__ = "match_reviews"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ChatMessage(Base):
    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    text: Mapped[str] = mapped_column(Text)
    # players | spectators (migration 0005): what a reconnecting reader may see again
    channel: Mapped[str] = mapped_column(String(16), default="players", server_default="players")
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_chat_room_id", "room_id", "id"),
        Index("ix_chat_player", "player_id"),  # is a guest used (migration 0009)
    )


# Player name search (migration 0003): a prefix of ``lower(name)``; on Postgres with
# text_pattern_ops so ``LIKE 'abc%'`` can use it whatever the database's collation.
Index(
    "ix_players_name_lower",
    func.lower(Player.name).label("name_lower"),
    postgresql_ops={"name_lower": "text_pattern_ops"},
)


class Rating(Base):
    """A player's skill at one game: openskill Plackett-Luce ``mu``/``sigma`` (see app/db/ratings).

    ``ordinal`` (mu - 3 sigma) is what is shown and ranked; ``last_delta`` is its change in the
    player's latest rated match of that game (the trend).
    """

    __tablename__ = "ratings"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Double)
    sigma: Mapped[float] = mapped_column(Double)
    ordinal: Mapped[float] = mapped_column(Double)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    last_delta: Mapped[float] = mapped_column(Double, default=0.0)
    last_match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_ratings_game_ordinal", "game", "ordinal"),)


class PlayerGame(Base):
    """A player's record at one game: finished matches played, won, lost and drawn (a win
    shared with another seat), counted as each match finishes, so a player page reads one row
    per game however many matches they played."""

    __tablename__ = "player_games"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    drawn: Mapped[int] = mapped_column(Integer, default=0)
    last_match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"), nullable=True)
    abandoned: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # 0005


class RatingChange(Base):
    """One human seat's rating before and after one finished match (bots have none)."""

    __tablename__ = "rating_history"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    game: Mapped[str] = mapped_column(String(32))
    mu_before: Mapped[float] = mapped_column(Double)
    sigma_before: Mapped[float] = mapped_column(Double)
    mu_after: Mapped[float] = mapped_column(Double)
    sigma_after: Mapped[float] = mapped_column(Double)
    ordinal_before: Mapped[float] = mapped_column(Double)
    ordinal_after: Mapped[float] = mapped_column(Double)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_rating_history_player_game_match", "player_id", "game", "match_id"),
    )


class Job(Base):
    """A due job (``app/db/jobs.py``): its ``key`` says what it is for, once."""

    __tablename__ = "jobs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(32))
    key: Mapped[str] = mapped_column(String(200), unique=True)
    due_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    claimed_until: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)

    __table_args__ = (Index("ix_jobs_due", "due_at"),)


class MatchTurn(Base):
    """Whom a running match waits for, and until when: what ``GET /api/me/games`` lists
    without loading a match (``app/db/turns.py``; written after each move)."""

    __tablename__ = "match_turns"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    room_id: Mapped[str] = mapped_column(ForeignKey("rooms.id"))
    seq: Mapped[int] = mapped_column(Integer)
    waiting_for: Mapped[list[Any]] = mapped_column(JSON)  # the player ids to act
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    last_move_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerKey(Base):
    """A secret made once per deployment and shared by every process (migration 0011): the
    VAPID key that signs Web Push requests, the key that signs the links in mail."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class NotificationSettings(Base):
    """How a player is told it is their turn (``app/notify``): Web Push on or off, mail
    ``off``/``each_turn``/``daily`` to a verified address; ``mail_round`` counts the mails
    gathered (each notice waits for the round's mail), ``mail_sent_at`` the last one's time."""

    __tablename__ = "notification_settings"

    player_id: Mapped[int] = mapped_column(
        ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    push: Mapped[bool] = mapped_column(Boolean, default=True)
    email: Mapped[str] = mapped_column(String(16), default="off")
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    verified: Mapped[bool] = mapped_column(Boolean, default=False)
    # the nonce the pending verification link signs (cleared once used) and when it was mailed
    verify_nonce: Mapped[str | None] = mapped_column(String(64), nullable=True)
    verify_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    mail_round: Mapped[int] = mapped_column(Integer, default=0)
    mail_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (CheckConstraint("email IN ('off', 'each_turn', 'daily')", name="email_kind"),)


class PushSubscription(Base):
    """A browser's Web Push subscription (``PushSubscription.toJSON()``): its endpoint at a
    known push service and the keys its messages are encrypted to (RFC 8291)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(1024), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_push_subscriptions_player", "player_id"),)


class TurnNoticeRow(Base):
    """A notice a player was sent (``app/notify``), kept a week: ``key`` makes a notice
    scheduled twice go out once. ``mail_waits`` while it waits for the player's next mail (the
    gathering of ``app/notify/mail.py``); ``mail_round`` is the mail that took it."""

    __tablename__ = "turn_notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(200), unique=True)
    notice: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    mail_waits: Mapped[bool] = mapped_column(Boolean, default=False)
    mail_round: Mapped[int | None] = mapped_column(Integer, nullable=True)

    __table_args__ = (
        Index("ix_turn_notices_mail", "player_id", "mail_waits", "mail_round"),
        Index("ix_turn_notices_created", "created_at"),
    )
