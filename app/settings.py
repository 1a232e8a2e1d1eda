"""Settings from the environment (``CARDROOM_*``)."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.notify.origins import DEFAULT_PUSH_ORIGINS, check_origin


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="CARDROOM_", env_file=".env", extra="ignore")

    database_url: str = "sqlite+aiosqlite:///./cardroom.db"
    # Postgres connections kept open per process (two are the move log's for good), and how
    # many more it may open at a peak. A connection past the pool is closed when it comes
    # back: under load that opened 15 a second (a backend forked, types introspected, every
    # statement prepared again) and cost 15% of the moves a second at 500 rooms
    # (tests/bench/load.py). So no overflow: at a peak a request waits for a connection, for
    # db_pool_timeout seconds at most, then answers 503 with Retry-After. One connection is
    # held for match starts (app.db.postgres_store).
    db_pool_size: int = Field(40, ge=4)
    db_max_overflow: int = Field(0, ge=0)
    db_pool_timeout: float = Field(10.0, gt=0)
    redis_url: str | None = None
    bot_delay_ms: int = 700
    bot_think_ms: int = 300
    # the least time an easy or normal bot takes to answer, however few its choices: a reply
    # time must not tell the table how many actions it had (a hard bot takes all its think time)
    bot_quick_ms: int = Field(25, ge=0)
    secure_cookies: bool = False
    allowed_origins: list[str] = []
    snapshot_every: int = 50
    max_frame_bytes: int = 16 * 1024
    messages_per_second: float = 20.0
    message_burst: int = 40
    # messages (protocol pings too) a socket may send past its limit, dropped, before it is
    # closed with 4029: a flood stops costing CPU at once
    message_overflow: int = Field(40, ge=0)
    # chat a player may say, across all their sockets on a process: a rate and a burst
    chat_per_minute: float = Field(20.0, gt=0)
    chat_burst: int = Field(5, ge=1)
    # the proxies whose X-Forwarded-For / -Proto are believed (comma-separated addresses or
    # networks; empty: nobody). Only the last address a trusted proxy adds is the client's.
    trusted_proxies: str = "127.0.0.1,::1"
    # `python -m app` without the proxy: a request's head (line and headers) must fit in this
    # and arrive within the timeout (a connection that says nothing is closed after it too)
    max_header_bytes: int = Field(16 * 1024, ge=1024)
    header_timeout_seconds: float = Field(10.0, gt=0)
    # what one player may hold at once (429 past it), and when an unused room leaves memory
    max_open_rooms: int = Field(10, ge=1)
    max_bot_matches: int = Field(2, ge=0)
    room_idle_seconds: float = Field(300.0, gt=0)
    # the most moves a match may have: the move that reaches it ends the match, aborted and
    # unrated (two players undoing each other's moves, or two mirroring bots, never end)
    max_match_moves: int = Field(5000, ge=1)
    # the shortest seat hold a new room may ask for, in seconds: a reload or a dropped
    # connection is back before a stand-in or a forfeit, so no win is a reconnect away
    min_seat_hold_seconds: int = Field(30, ge=1, le=3600)
    # the shortest time for a move a new turn-based room may ask for (tests and operators
    # lower it; players choose from an hour up)
    min_turn_seconds: int = Field(3600, ge=1, le=14 * 24 * 3600)
    # match reviews (games/review.py): each decision's budget, the queue's bound, and whether
    # every finished match is queued at once (else only when someone asks for its review)
    review_iterations: int = Field(48, ge=1)
    review_playouts: int = Field(16, ge=1)
    review_queue: int = Field(256, ge=1)
    review_on_finish: bool = True
    # a player's share of the review queue (matches of theirs that may wait at once), and the
    # most decisions one review weighs (a longer match is reviewed on a sample of them)
    review_queue_per_player: int = Field(8, ge=1)
    review_decisions: int = Field(400, ge=1)
    # with several processes: how often each says again who is connected to its rooms; what it
    # said holds for three heartbeats (a crashed process's players are then absent)
    presence_heartbeat_seconds: float = Field(5.0, gt=0)
    # how often each process looks for due jobs (deadlines, reminders, notifications) that
    # another process scheduled; its own it runs on time
    jobs_poll_seconds: float = Field(5.0, gt=0)
    # how long after a move whom the match waits for is written, with every other match's
    # changes made meanwhile (0: at once)
    turns_gather_seconds: float = Field(1.0, ge=0)
    # how long a process's claim on a due job holds: one that died in a job leaves it to
    # another process after this (jobs are safe to run twice)
    jobs_lease_seconds: float = Field(30.0, gt=0)
    # how long a rematch proposal waits for the other players' answers
    rematch_seconds: float = Field(60.0, gt=0)
    # Without the proxy in front (deploy/), nothing else caps what a client may send.
    max_body_bytes: int = Field(64 * 1024, ge=1)
    # Passkeys (WebAuthn): the relying party's id (a domain) and origin follow each request's
    # Host and scheme unless pinned here (behind a proxy that rewrites Host, pin them).
    rp_id: str | None = None
    rp_origin: str | None = None
    rp_name: str = "cardroom"
    # failed sign-ins allowed in a window, per username and per client address (then 429)
    signin_window_seconds: float = Field(900.0, gt=0)
    signin_failures_per_username: int = Field(5, ge=1)
    signin_failures_per_address: int = Field(50, ge=1)
    # account claims (each looks a username up) per player and per address in that window
    claims_per_player: int = Field(10, ge=1)
    claims_per_address: int = Field(50, ge=1)
    # unauthenticated writes per client address (an IPv6 client by its /64) in this window
    address_window_seconds: float = Field(600.0, gt=0)
    guests_per_address: int = Field(30, ge=1)
    challenges_per_address: int = Field(60, ge=1)
    # a guest nobody used (never seated, hosting, chatting, playing) and unseen this long goes
    guest_unused_days: float = Field(30.0, gt=0)
    # Argon2id hashes computed at once by a process (64 MB and 4 threads each; a replica is
    # sized for one core), and how many may wait
    hashes_at_once: int = Field(1, ge=1)
    hash_queue: int = Field(64, ge=1)
    # one client address's hashes: this many at once, then one every so many seconds
    hash_burst_per_address: int = Field(3, ge=1)
    hash_seconds_per_address: float = Field(1.0, ge=0.01)
    # adding a passkey needs a sign-in this recent on the device, or the password again
    reauth_seconds: float = Field(600.0, gt=0)
    # Notifications (app/notify): the VAPID key Web Push is signed with (base64url P-256
    # scalar; empty: one made once and kept in the database), the push services a browser's
    # subscription may name (JSON list of origins, * for part of a host name: nothing else is
    # ever contacted), the SMTP server (smtp://[user[:password]@]host[:port]; empty: no mail),
    # who mail comes from, and the site's address in mail links (empty: http://host:port)
    vapid_private_key: str | None = None
    push_endpoint_origins: list[str] = DEFAULT_PUSH_ORIGINS
    smtp_url: str = ""
    mail_from: str = "cardroom@localhost"
    site_url: str = ""
    host: str = "127.0.0.1"
    port: int = 8000

    @property
    def site_origin(self) -> str:
        return (self.site_url or f"http://{self.host}:{self.port}").rstrip("/")

    @field_validator("database_url")
    @classmethod
    def _async_driver(cls, url: str) -> str:
        for plain, driver in (
            ("postgresql://", "postgresql+asyncpg://"),
            ("postgres://", "postgresql+asyncpg://"),
            ("sqlite://", "sqlite+aiosqlite://"),
        ):
            if url.startswith(plain):
                return driver + url[len(plain) :]
        return url

    @field_validator("trusted_proxies")
    @classmethod
    def _named_proxies(cls, value: str) -> str:
        hosts = [host.strip() for host in value.split(",") if host.strip()]
        if "*" in hosts:
            # uvicorn would then take the first address of X-Forwarded-For, which the client wrote
            raise ValueError("name the proxies' addresses or networks, not *")
        return ",".join(hosts)

    @field_validator("push_endpoint_origins")
    @classmethod
    def _origins(cls, origins: list[str]) -> list[str]:
        return [check_origin(origin) for origin in origins]

    @field_validator("smtp_url")
    @classmethod
    def _smtp(cls, url: str) -> str:
        if url and not url.startswith("smtp://"):
            raise ValueError("an SMTP URL is smtp://[user[:password]@]host[:port]")
        return url

    @field_validator("redis_url", "rp_id", "rp_origin", "vapid_private_key")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None


@lru_cache
def get_settings() -> Settings:
    return Settings()
