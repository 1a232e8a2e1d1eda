"""Everything one server process runs, built and torn down by the app's lifespan."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from app.api.passwords import Hasher
from app.db.engine import make_engine
from app.db.jobs import TURNS
from app.db.limits import Limits
from app.db.migrate import upgrade_to_head
from app.db.players import PlayerDirectory
from app.db.store import Store, open_store
from app.db.turns import waiting_count
from app.jobs import JobRunner
from app.notify.channels import Channels
from app.notify.notifier import Notifier
from app.realtime.broker import MemoryBroker, RedisBroker
from app.realtime.games_feed import GamesFeed
from app.realtime.hub import CLOSE_SIGNED_OUT, Hub
from app.rooms.clock import SYSTEM_CLOCK, Clock
from app.rooms.manager import RoomLimits, RoomManager
from app.rooms.ports import Broker, TurnNotice
from app.rooms.replays import Replays
from app.rooms.reviews import Reviews
from app.settings import Settings
from games.review import Budget


@dataclass
class Services:
    settings: Settings
    db: AsyncEngine
    store: Store
    broker: Broker
    hub: Hub
    manager: RoomManager
    players: PlayerDirectory
    replays: Replays
    reviews: Reviews
    limits: Limits
    hasher: Hasher
    clock: Clock
    jobs: JobRunner
    notifier: Notifier
    channels: Channels
    games: GamesFeed  # the /ws/me sockets here
    resuming: asyncio.Task[None] | None = None
    sweeping: asyncio.Task[None] | None = None
    beating: asyncio.Task[None] | None = None
    running_jobs: asyncio.Task[None] | None = None
    _background: set[asyncio.Task[None]] = field(default_factory=set)

    @classmethod
    async def start(cls, settings: Settings, *, clock: Clock = SYSTEM_CLOCK) -> Services:
        """Everything ``settings`` asks for, on ``clock`` (a test's own, or the real one)."""
        db = make_engine(
            settings.database_url,
            settings.db_pool_size,
            settings.db_max_overflow,
            settings.db_pool_timeout,
        )
        await upgrade_to_head(db)
        store = open_store(db)
        await store.open()
        broker: Broker = RedisBroker(settings.redis_url) if settings.redis_url else MemoryBroker()
        hub = Hub()
        manager = RoomManager(
            store,
            broker,
            hub,
            bot_delay=settings.bot_delay_ms / 1000,
            snapshot_every=settings.snapshot_every,
            bot_think=settings.bot_think_ms / 1000,
            bot_quick=settings.bot_quick_ms / 1000,
            limits=RoomLimits(
                open_rooms=settings.max_open_rooms,
                bot_matches=settings.max_bot_matches,
                idle_seconds=settings.room_idle_seconds,
                match_moves=settings.max_match_moves,
                min_seat_hold=settings.min_seat_hold_seconds,
                min_turn=settings.min_turn_seconds,
            ),
            clock=clock,
            rematch_seconds=settings.rematch_seconds,
            heartbeat=settings.presence_heartbeat_seconds,
            turns_gather=settings.turns_gather_seconds,
        )
        replays = Replays(db)
        reviews = Reviews(
            db,
            replays,
            clock,
            budget=Budget(
                settings.review_iterations, settings.review_playouts, settings.review_decisions
            ),
            queue_size=settings.review_queue,
            per_player=settings.review_queue_per_player,
        )
        if settings.review_on_finish:
            manager.runner.on_match_end = reviews.enqueue
        limits = Limits(
            db,
            clock.now,
            timedelta(seconds=settings.signin_window_seconds),
            failures_per_username=settings.signin_failures_per_username,
            failures_per_address=settings.signin_failures_per_address,
            claims_per_player=settings.claims_per_player,
            claims_per_address=settings.claims_per_address,
            address_window=timedelta(seconds=settings.address_window_seconds),
            guests_per_address=settings.guests_per_address,
            challenges_per_address=settings.challenges_per_address,
            guests_unused_for=timedelta(days=settings.guest_unused_days),
        )
        services = cls(
            settings,
            db,
            store,
            broker,
            hub,
            manager,
            PlayerDirectory(db),
            replays,
            reviews,
            limits,
            Hasher(
                settings.hashes_at_once,
                settings.hash_queue,
                settings.hash_burst_per_address,
                settings.hash_seconds_per_address,
            ),
            clock,
            JobRunner(
                db,
                clock,
                {TURNS: manager.turns.run},
                poll=settings.jobs_poll_seconds,
                lease=timedelta(seconds=settings.jobs_lease_seconds),
            ),
            Notifier(clock.now),
            await Channels.open(db, settings, clock.now),
            GamesFeed(functools.partial(waiting_count, db)),
        )
        services.jobs.handlers.update(services.channels.handlers())
        manager.turns.wake = services.jobs.wake
        manager.turns.notify = services.tell
        manager.turns.on_written = services.games_changed
        await broker.start(manager.on_event, on_player=services.heard_of_player)
        loop = asyncio.get_running_loop()
        services.resuming = loop.create_task(manager.resume())
        services.sweeping = loop.create_task(manager.sweep(), name="evict idle rooms")
        services.running_jobs = loop.create_task(services.jobs.run(), name="due jobs")
        if settings.redis_url:  # one process alone has no one to tell
            services.beating = loop.create_task(manager.beat(), name="presence heartbeat")
        return services

    async def sessions_ended(self, player_id: int, token_hashes: Iterable[str]) -> None:
        """Sessions of the player just ended here: on every process their tokens name nobody
        from now on and the player's sockets close (4001). Each socket reconnects, and one
        whose session ended hears 4401."""
        ended = list(token_hashes)
        await self._forget_sessions(player_id, ended)
        await self.broker.publish_player(player_id, {"kind": "signed_out", "sessions": ended})

    async def tell(self, notice: TurnNotice) -> None:
        """Hand a turn's notice to the player's channels (sent once, by the due jobs)."""
        async with self.db.begin() as conn:
            await self.notifier.your_turn(conn, notice)
        self.jobs.wake()  # committed: the push jobs are there to be claimed

    def games_changed(self, players: set[int]) -> None:
        """The turn keeper wrote whom matches wait for: these players' lists of games changed.
        Their ``/ws/me`` sockets here are told, and every other process tells its own."""
        self.games.changed(players)
        for player_id in players:
            self._spawn(self.broker.publish_player(player_id, {"kind": "games"}))

    async def heard_of_player(self, player_id: int, event: dict[str, Any]) -> None:
        kind = event.get("kind")
        if kind == "signed_out":
            await self._forget_sessions(player_id, event["sessions"])
        elif kind == "games":
            self.games.changed((player_id,))

    async def _forget_sessions(self, player_id: int, token_hashes: list[str]) -> None:
        self.players.forget(token_hashes)
        await self.hub.close_player(player_id)
        await self.games.close_player(player_id, CLOSE_SIGNED_OUT)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` in the background, kept until it is done."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def stop(self) -> None:
        running = (self.resuming, self.sweeping, self.beating, self.running_jobs)
        tasks = [task for task in running if task is not None] + list(self._background)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.manager.close()
        await self.games.close()
        await self.reviews.close()
        await self.channels.close()
        self.hasher.close()
        await self.broker.stop()
        await self.store.close()
        await self.db.dispose()
