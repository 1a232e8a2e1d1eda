"""``python -m app.db.ratings rebuild``: see :mod:`app.db.ratings.rebuild`."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from app.db.ratings.rebuild import rebuild


def main(argv: Sequence[str]) -> int:
    if list(argv) != ["rebuild"]:
        print("usage: python -m app.db.ratings rebuild", file=sys.stderr)
        return 2

    async def run() -> int:
        from app.db.engine import make_engine
        from app.db.migrate import upgrade_to_head
        from app.settings import get_settings

        db = make_engine(get_settings().database_url)
        try:
            await upgrade_to_head(db)
            return await rebuild(db)
        finally:
            await db.dispose()

    print(f"rated {asyncio.run(run())} finished matches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
