"""Storage: SQLAlchemy models, the engine and the queries the rooms need."""
