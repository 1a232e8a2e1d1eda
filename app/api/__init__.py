"""REST routers: players, games, rooms, matches."""
