"""The cardroom server."""
