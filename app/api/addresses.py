"""The client address every per-address limit counts: one helper, so all of them agree.

The address is the one the ASGI server reports (behind the proxy, uvicorn's proxy headers
make it the client's own from ``X-Forwarded-For``, trusted from ``FORWARDED_ALLOW_IPS``).
An IPv4 address counts as itself; an IPv6 client by its /64, since one household or one
phone's network is handed a whole /64 and may use any address in it; an IPv4 address mapped
into IPv6 counts as the IPv4 address.
"""

from __future__ import annotations

import ipaddress

from starlette.requests import HTTPConnection

IPV6_PREFIX = 64


def address_key(host: str | None) -> str:
    """What a per-address limit counts for a client at ``host``."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])  # a zone (fe80::1%eth0) aside
    except ValueError:
        return host.lower()[:255]  # not an address (a unix socket's path, say): as sent
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, IPV6_PREFIX), strict=False))
    return str(address)


def client_key(connection: HTTPConnection) -> str:
    """:func:`address_key` of the request's client."""
    return address_key(connection.client.host if connection.client else None)
