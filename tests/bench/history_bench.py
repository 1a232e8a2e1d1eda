"""History queries at 10k and 1M matches: how long each page takes and which index serves it.

    python -m tests.bench.history_bench                 # SQLite file in a temporary directory
    python -m tests.bench.history_bench --postgres      # a fresh database on the local Postgres
    python -m tests.bench.history_bench --sizes 10000,100000 --plans

The database gets the real schema (the Alembic migrations), then players, rooms, matches and
their seats in bulk (SQLite: executemany in large transactions; Postgres: COPY), growing to
each size in turn. Matches start one every ~minute over the years, so ids and ``started_at``
grow together as they do in the app; a few players play a lot (a skewed choice), most a
little; one seat in ten is a bot. Each query then runs through the app's own functions
(``app.db.history``), warm, ``--repeat`` times: the median and the slowest are printed with
the index the plan uses (EXPLAIN QUERY PLAN on SQLite, EXPLAIN on Postgres). Postgres is
ANALYZEd after each fill (autovacuum would do the same); SQLite is not, as the app never does.
The Postgres database is created under a random name and dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import itertools
import json
import os
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from app.db.engine import make_engine
from app.db.history import (
    HistoryFilter,
    history_query,
    id_range,
    list_matches,
    player_stats,
    search_players,
)
from app.db.migrate import upgrade_to_head
from app.db.ratings.rebuild import RECORDS

POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres"
GAMES = {  # id -> (min seats, max seats)
    "abstrac": (2, 2),
    "absolute": (2, 6),
    "balance": (1, 6),
    "abspecken": (2, 5),
    "plus_minus": (3, 6),
}
LEVELS = ("easy", "normal", "hard")
MATCHES_PER_ROOM = 1000  # a room's matches: rematches, one after the other
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
STEP = timedelta(seconds=61)  # one match started every ~minute: 1M matches ~ 2 years
PAGE = 21  # what the pages ask for: 20 shown, one more to know there is a next page


# -- generating rows -----------------------------------------------------------------------------
@dataclass
class Generator:
    players: int
    rng: random.Random = field(default_factory=lambda: random.Random(8))
    matches: int = 0  # made so far; ids are 1..matches

    def __post_init__(self) -> None:
        # Zipf-like: player i plays in proportion to i ** -0.6; with 20k players the busiest
        # one sits at ~0.8% of all seats, the median player at ~0.003%.
        self.cumulative = list(itertools.accumulate(i**-0.6 for i in range(1, self.players + 1)))

    def player(self) -> int:
        """A skewed choice: player 1 plays most, then 2, ...; most players rarely."""
        pick = self.rng.random() * self.cumulative[-1]
        return bisect.bisect_left(self.cumulative, pick) + 1

    def batch(self, upto: int) -> Iterator[tuple[list[tuple], list[tuple], list[tuple]]]:
        """(rooms, matches, seats) rows for match ids matches+1 .. upto, in chunks."""
        rng = self.rng
        chunk = 50_000
        while self.matches < upto:
            rooms, matches, seats = [], [], []
            end = min(upto, self.matches + chunk)
            for match_id in range(self.matches + 1, end + 1):
                game = rng.choice(list(GAMES))
                room = f"b{list(GAMES).index(game)}-{match_id // MATCHES_PER_ROOM}"
                if room not in self.rooms:
                    self.rooms.add(room)
                    rooms.append((room, game, rng.randint(1, self.players)))
                low, high = GAMES[game]
                count = rng.randint(low, high)
                playing = (match_id > upto - 3 and upto == self.target) or rng.random() < 1e-4
                started = EPOCH + STEP * match_id + timedelta(milliseconds=rng.randrange(900))
                scores = [rng.randint(-50, 200) for _ in range(count)]
                best = max(scores)
                if count > 1 and rng.random() < 0.08:  # a shared win now and then
                    scores[rng.randrange(count)] = best
                winners = [s for s, v in enumerate(scores) if v == best]
                people: set[int] = set()
                has_bots = False
                for seat in range(count):
                    bot = rng.choice(LEVELS) if count > 1 and rng.random() < 0.1 else None
                    player = None
                    if bot is None:
                        player = self.player()
                        while player in people:
                            player = rng.randint(1, self.players)
                        people.add(player)
                    has_bots = has_bots or bot is not None
                    seats.append(
                        (
                            match_id,
                            seat,
                            player,
                            bot,
                            f"P{player}" if player else f"Bot ({bot})",
                            None if playing else float(scores[seat]),
                            None if playing else seat in winners,
                        )
                    )
                outcome = (
                    None
                    if playing
                    else {"scores": scores, "winners": winners, "rounds": [], "detail": {}}
                )
                matches.append(
                    (
                        match_id,
                        room,
                        game,
                        "1",
                        "{}",
                        rng.getrandbits(62),
                        count,
                        "playing" if playing else "finished",
                        has_bots,
                        0 if playing else rng.randint(10, 300),
                        None if outcome is None else json.dumps(outcome),
                        started,
                        None if playing else started + timedelta(minutes=rng.randint(2, 40)),
                    )
                )
            self.matches = end
            yield rooms, matches, seats

    target: int = 0
    rooms: set[str] = field(default_factory=set)


# -- filling ---------------------------------------------------------------------------------------
MATCH_COLUMNS = (
    "id",
    "room_id",
    "game",
    "engine_version",
    "options",
    "seed",
    "players",
    "status",
    "has_bots",
    "move_count",
    "outcome",
    "started_at",
    "finished_at",
)
SEAT_COLUMNS = ("match_id", "seat", "player_id", "bot", "name", "score", "winner")


def sqlite_time(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")


def sqlite_match(m: tuple) -> tuple:
    started, finished = m[11], m[12]
    return (
        *m[:8],
        int(m[8]),
        *m[9:11],
        sqlite_time(started),
        sqlite_time(finished) if finished else None,
    )


def fill_players_sqlite(path: Path, players: int) -> None:
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO players (id, name, token_hash, created_at) VALUES (?, ?, ?, ?)",
            (
                (i, f"{random.Random(i).choice(NAMES)} {i}", f"bench{i:059d}", sqlite_time(EPOCH))
                for i in range(1, players + 1)
            ),
        )


def fill_sqlite(path: Path, generator: Generator, upto: int) -> None:
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=OFF")
        db.execute("PRAGMA cache_size=-400000")  # 400 MB: the indexes stay in memory
        for rooms, matches, seats in generator.batch(upto):
            now = sqlite_time(EPOCH)
            db.executemany(
                'INSERT INTO rooms (id, game, options, "table", seat_count, status, host_id, '
                "private, match_id, created_at, updated_at) "
                "VALUES (?, ?, '{}', '{}', 2, 'finished', ?, 0, NULL, ?, ?)",
                [(r[0], r[1], r[2], now, now) for r in rooms],
            )
            db.executemany(
                f"INSERT INTO matches ({', '.join(MATCH_COLUMNS)}) VALUES ({', '.join('?' * 13)})",
                [sqlite_match(m) for m in matches],
            )
            db.executemany(
                f"INSERT INTO match_seats ({', '.join(SEAT_COLUMNS)}) "
                f"VALUES ({', '.join('?' * 7)})",
                [(*s[:6], None if s[6] is None else int(s[6])) for s in seats],
            )
            db.commit()


async def fill_players_postgres(dsn: str, players: int) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.copy_records_to_table(
            "players",
            columns=("id", "name", "token_hash", "created_at"),
            records=[
                (i, f"{random.Random(i).choice(NAMES)} {i}", f"bench{i:059d}", EPOCH)
                for i in range(1, players + 1)
            ],
        )
    finally:
        await conn.close()


async def fill_postgres(dsn: str, generator: Generator, upto: int) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        for rooms, matches, seats in generator.batch(upto):
            await conn.copy_records_to_table(
                "rooms",
                columns=(
                    "id",
                    "game",
                    "options",
                    "table",
                    "seat_count",
                    "status",
                    "host_id",
                    "private",
                    "created_at",
                    "updated_at",
                ),
                records=[
                    (r[0], r[1], "{}", "{}", 2, "finished", r[2], False, EPOCH, EPOCH)
                    for r in rooms
                ],
            )
            await conn.copy_records_to_table("matches", columns=MATCH_COLUMNS, records=matches)
            await conn.copy_records_to_table("match_seats", columns=SEAT_COLUMNS, records=seats)
        await conn.execute("SELECT setval('matches_id_seq', (SELECT max(id) FROM matches))")
        await conn.execute("SELECT setval('players_id_seq', (SELECT max(id) FROM players))")
        await conn.execute("ANALYZE")
    finally:
        await conn.close()


async def fill_ratings(db: AsyncEngine, players: int) -> None:
    """Every player's record per game (as counted when matches finish) and a rating for every
    (player, game) played: what a player page reads."""
    async with db.begin() as conn:
        await conn.execute(text("DELETE FROM player_games"))
        await conn.execute(text(RECORDS))
        await conn.execute(text("DELETE FROM ratings"))
        await conn.execute(
            text(
                "INSERT INTO ratings (player_id, game, mu, sigma, ordinal, matches, last_delta, "
                "updated_at) SELECT ms.player_id, m.game, 25 + (ms.player_id % 17) - 8, 3.0, "
                "25 + (ms.player_id % 17) - 17, count(*), 0.5, max(m.started_at) "
                "FROM match_seats ms JOIN matches m ON m.id = ms.match_id "
                "WHERE ms.player_id IS NOT NULL AND ms.player_id <= :few "
                "GROUP BY ms.player_id, m.game"
            ),
            {"few": players},
        )


NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "June", "Kai", "Lea")


# -- measuring -------------------------------------------------------------------------------------
@dataclass
class Query:
    name: str
    run: Callable[[], Awaitable[Any]]
    wanted: HistoryFilter | None = None  # a history page, for EXPLAIN
    rows: int = 0


async def timed(query: Query, repeat: int) -> list[float]:
    await query.run()  # warm
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = await query.run()
        times.append((time.perf_counter() - start) * 1000)
    query.rows = len(result) if isinstance(result, list) else 1
    return times


async def explain(db: AsyncEngine, wanted: HistoryFilter) -> list[str]:
    async with db.connect() as conn:
        bounds = await id_range(conn, wanted.since, wanted.until)
        dialect = postgresql.dialect() if db.dialect.name == "postgresql" else sqlite.dialect()
        sql = str(
            history_query(wanted, PAGE, bounds).compile(
                dialect=dialect, compile_kwargs={"literal_binds": True}
            )
        )
        if db.dialect.name == "postgresql":
            rows = await conn.execute(text("EXPLAIN " + sql))
            return [r[0] for r in rows]
        rows = await conn.execute(text("EXPLAIN QUERY PLAN " + sql))
        return [r[-1] for r in rows]


def index_use(plan: list[str]) -> str:
    """The scans of a plan in a few words: which index, forwards or backwards, sorted or not."""
    found = []
    for raw in plan:
        line = raw.strip().removeprefix("->").strip().removeprefix("Parallel ")
        scan = re.match(
            r"(Index Only Scan|Index Scan)( Backward)? using (\w+) on (\w+)(?: (\w+))?", line
        )
        bitmap = re.match(r"Bitmap (Heap|Index) Scan on (\w+)", line)
        seq = re.match(r"Seq Scan on (\w+)", line)
        lite = re.match(
            r"(SCAN|SEARCH) (\w+)(?: AS \w+)?(?: USING (?:COVERING )?"
            r"(INDEX \w+|INTEGER PRIMARY KEY|PRIMARY KEY)(?: \(([^)]*)\))?)?",
            line,
        )
        if scan:
            kind, backward, index, table, alias = scan.groups()
            found.append(f"{alias or table}: {kind.lower()}{' backward' * bool(backward)} {index}")
        elif bitmap and bitmap.group(1) == "Heap":
            found.append(f"{bitmap.group(2)}: bitmap heap scan")
        elif bitmap:
            found[-1:] = [f"{found[-1] if found else ''} via {bitmap.group(2)}"]
        elif seq:
            found.append(f"{seq.group(1)}: seq scan")
        elif re.match(r"(Incremental )?Sort\s+\(", line):
            found.append("sort")
        elif lite:
            kind, table, index, cond = lite.groups()
            index = (index or "full scan").replace("INDEX ", "")
            found.append(f"{table}: {kind.lower()} {index}" + (f" ({cond})" if cond else ""))
        elif "TEMP B-TREE" in line:
            found.append("sort (" + line.split("FOR ")[-1].lower() + ")")
    return "; ".join(found)


async def queries(db: AsyncEngine, size: int) -> list[Query]:
    async with db.connect() as conn:
        heavy = (
            await conn.execute(
                text(
                    "SELECT player_id FROM match_seats WHERE player_id IS NOT NULL "
                    "GROUP BY player_id ORDER BY count(*) DESC LIMIT 1"
                )
            )
        ).scalar_one()
        heavy_games = (
            await conn.execute(
                text("SELECT count(*) FROM match_seats WHERE player_id = :p"), {"p": heavy}
            )
        ).scalar_one()
        light = (
            await conn.execute(
                text(
                    "SELECT player_id FROM match_seats "
                    "WHERE player_id IS NOT NULL AND match_id > :m LIMIT 1"
                ),
                {"m": size // 2},
            )
        ).scalar_one()
    deep = max(2, size // 10)  # 90% of the way back
    middle = EPOCH + STEP * (size // 2)
    month = (str(middle.date()), str((middle + timedelta(days=30)).date()))
    since = datetime.fromisoformat(month[0]).replace(tzinfo=UTC)
    until = datetime.fromisoformat(month[1]).replace(tzinfo=UTC) + timedelta(days=1)

    def page(label: str, **kwargs: Any) -> Query:
        wanted = HistoryFilter(
            player_id=kwargs.get("player_id"),
            game=kwargs.get("game"),
            since=kwargs.get("since"),
            until=kwargs.get("until"),
            result=kwargs.get("result"),
            status=kwargs.get("status"),
            before=kwargs.get("before"),
            after=kwargs.get("after"),
        )
        return Query(label, lambda: list_matches(db, limit=PAGE, **kwargs), wanted)

    return [
        page(
            "first page",
        ),
        page(f"deep page (before {deep:,})", before=deep),
        page("newer page (after)", after=deep),
        page(f"by player, heavy ({heavy_games:,} matches)", player_id=heavy),
        page("by player, heavy, deep", player_id=heavy, before=deep),
        page("by player, light", player_id=light),
        page("by game", game="plus_minus"),
        page("by game, deep", game="abstrac", before=deep),
        page("result: win (heavy player)", player_id=heavy, result="win"),
        page("result: draw (heavy player)", player_id=heavy, result="draw"),
        page("result: loss, by game", player_id=heavy, result="loss", game="abstrac"),
        page(f"dates {month[0]}..{month[1]}", since=since, until=until),
        page("dates + game", since=since, until=until, game="balance"),
        page("status=playing", status="playing"),
        Query("player name search 'ju'", lambda: search_players(db, "ju", 10)),
        Query("player stats (heavy player)", lambda: player_stats(db, heavy)),
    ]


# -- running --------------------------------------------------------------------------------------
@contextmanager
def database(use_postgres: bool, keep: bool) -> Iterator[tuple[str, str | None, Path | None]]:
    """(SQLAlchemy url, asyncpg dsn or None, SQLite path or None)."""
    if not use_postgres:
        folder = Path(tempfile.mkdtemp(prefix="history-bench-"))
        path = folder / "bench.db"
        try:
            yield f"sqlite+aiosqlite:///{path}", None, path
        finally:
            if keep:
                print(f"kept {path}")
            else:
                shutil.rmtree(folder, ignore_errors=True)
        return
    admin = os.environ.get("CARDROOM_BENCH_POSTGRES", POSTGRES)
    name = f"cardroom_bench_{uuid.uuid4().hex[:10]}"
    asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
    dsn = admin.rsplit("/", 1)[0] + "/" + name
    try:
        yield dsn.replace("postgresql://", "postgresql+asyncpg://", 1), dsn, None
    finally:
        if keep:
            print(f"kept database {name}")
        else:
            asyncio.run(_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def migrate(url: str) -> None:
    engine = make_engine(url)
    try:
        await upgrade_to_head(engine)
    finally:
        await engine.dispose()


async def _admin(dsn: str, statement: str) -> None:
    conn = await asyncpg.connect(dsn)
    try:
        await conn.execute(statement)
    finally:
        await conn.close()


def counts(url: str, path: Path | None, dsn: str | None) -> tuple[int, int]:
    if path is not None:
        with sqlite3.connect(path) as db:
            return (
                db.execute("SELECT count(*) FROM matches").fetchone()[0],
                db.execute("SELECT count(*) FROM match_seats").fetchone()[0],
            )

    async def pg() -> tuple[int, int]:
        conn = await asyncpg.connect(dsn)
        try:
            return (
                await conn.fetchval("SELECT count(*) FROM matches"),
                await conn.fetchval("SELECT count(*) FROM match_seats"),
            )
        finally:
            await conn.close()

    return asyncio.run(pg())


async def measure(url: str, size: int, repeat: int, plans: bool, players: int) -> list[str]:
    db = make_engine(url)
    lines = []
    try:
        await fill_ratings(db, players)
        for query in await queries(db, size):
            times = await timed(query, repeat)
            use = ""
            plan: list[str] = []
            if query.wanted is not None:
                plan = await explain(db, query.wanted)
                use = index_use(plan)
            lines.append(
                f"{size:>9,}  {query.name:<38} {statistics.median(times):8.2f} {max(times):8.2f}"
                f" {query.rows:>5}  {use}"
            )
            if plans:
                lines.extend(f"{'':>11}| {p}" for p in plan)
    finally:
        await db.dispose()
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help=f"use {POSTGRES}")
    parser.add_argument("--sizes", default="10000,1000000", help="match counts, growing")
    parser.add_argument("--players", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--plans", action="store_true", help="print whole plans")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args(argv)
    sizes = sorted(int(s.replace("_", "")) for s in args.sizes.split(","))
    print(
        f"history bench: {'Postgres' if args.postgres else 'SQLite'}, sizes {sizes}, "
        f"{args.players:,} players, {args.repeat} runs per query (ms)"
    )
    with database(args.postgres, args.keep) as (url, dsn, path):
        asyncio.run(migrate(url))
        if path is not None:
            fill_players_sqlite(path, args.players)
        else:
            asyncio.run(fill_players_postgres(dsn or "", args.players))
        generator = Generator(args.players)
        header = (
            f"{'matches':>9}  {'query':<38} {'median':>8} {'max':>8} {'rows':>5}  "
            "index use (EXPLAIN)"
        )
        table = [header, "-" * len(header)]
        for size in sizes:
            generator.target = sizes[-1]
            start = time.perf_counter()
            if path is not None:
                fill_sqlite(path, generator, size)
            else:
                asyncio.run(fill_postgres(dsn or "", generator, size))
            matches, seats = counts(url, path, dsn)
            print(
                f"filled to {matches:,} matches, {seats:,} seats in "
                f"{time.perf_counter() - start:.1f} s",
                flush=True,
            )
            lines = asyncio.run(measure(url, size, args.repeat, args.plans, args.players))
            print("\n".join(lines), flush=True)
            table.extend(lines)
        print()
        print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
