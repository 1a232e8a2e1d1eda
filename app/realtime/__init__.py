"""WebSockets: the endpoint, the message schema, the connection hub and the broker."""
