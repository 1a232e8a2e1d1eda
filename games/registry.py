"""Every game package below ``games/`` that exposes ``ENGINE``, by id."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

from games.base import Engine


def _discover() -> dict[str, Engine]:
    found: dict[str, Engine] = {}
    for module in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not module.ispkg:
            continue
        engine = getattr(importlib.import_module(f"games.{module.name}"), "ENGINE", None)
        if isinstance(engine, Engine):
            if engine.info.id != module.name:
                raise RuntimeError(f"games/{module.name} declares id {engine.info.id!r}")
            found[module.name] = engine
    return dict(sorted(found.items()))


REGISTRY: dict[str, Engine] = _discover()


def get_game(game_id: str) -> Engine:
    try:
        return REGISTRY[game_id]
    except KeyError:
        raise KeyError(f"no game {game_id!r}") from None
