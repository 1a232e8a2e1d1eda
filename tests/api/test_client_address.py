"""Issue 34, finding 2: which address is the client's. Only the proxies named in
CARDROOM_TRUSTED_PROXIES are believed (uvicorn's FORWARDED_ALLOW_IPS="*" no longer counts), and
of what a trusted proxy says only the address it added; the shipped nginx overwrites the header.

The server listens on 127.0.0.1; the clients connect from other loopback addresses, so that
one of them (127.0.0.2) is the proxy and the others are clients on their own. Which address
the server took is told by the per-address limit of failed sign-ins."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from tests.support.clients import PLAIN
from tests.support.server import ROOT, ServerProcess, private_server

PROXY = "127.0.0.2"
PER_ADDRESS = 3


@pytest.fixture(scope="module")
def behind_a_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {
        "FORWARDED_ALLOW_IPS": "*",  # what docker-compose.yml shipped: no longer believed
        "CARDROOM_TRUSTED_PROXIES": PROXY,
        "CARDROOM_SIGNIN_FAILURES_PER_ADDRESS": str(PER_ADDRESS),
        "CARDROOM_SIGNIN_FAILURES_PER_USERNAME": "1000",
    }
    with private_server(tmp_path_factory.mktemp("proxy"), env) as server:
        yield server


def client_from(base_url: str, address: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address, verify=PLAIN)
    return httpx.Client(base_url=base_url, transport=transport, timeout=10)


def failed_sign_ins(client: httpx.Client, forwarded_for: list[str]) -> list[int]:
    """One failed sign-in (each with another username) per X-Forwarded-For value: statuses."""
    statuses = []
    for header in forwarded_for:
        answer = client.post(
            "/api/session",
            json={"username": f"nobody-{uuid.uuid4().hex[:12]}", "password": "x" * 12},
            headers={"X-Forwarded-For": header},
        )
        statuses.append(answer.status_code)
    return statuses


def test_a_client_writing_x_forwarded_for_is_counted_by_its_own_address(
    behind_a_proxy: ServerProcess,
) -> None:
    with client_from(behind_a_proxy.url, "127.0.0.3") as direct:
        # as through nginx's old $proxy_add_x_forwarded_for: "<anything>, <the proxy>"
        forged = [f"10.9.{number}.1, {PROXY}" for number in range(PER_ADDRESS + 3)]
        statuses = failed_sign_ins(direct, forged)
    assert statuses[:PER_ADDRESS] == [401] * PER_ADDRESS
    assert set(statuses[PER_ADDRESS:]) == {429}, statuses


def test_the_trusted_proxy_names_the_client_and_only_its_own_entry_counts(
    behind_a_proxy: ServerProcess,
) -> None:
    with client_from(behind_a_proxy.url, PROXY) as proxy:
        # the client at 127.0.0.5 wrote the first two entries, the proxy appended the third
        forged = [f"10.8.{number}.1, {PROXY}, 127.0.0.5" for number in range(PER_ADDRESS + 2)]
        assert failed_sign_ins(proxy, forged)[PER_ADDRESS:] == [429, 429]
        # another client through the same proxy is counted apart: the proxy is believed
        assert failed_sign_ins(proxy, ["127.0.0.6"]) == [401]


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_the_deployment_trusts_only_its_proxys_address_and_nginx_overwrites_the_header() -> None:
    spec = compose()
    environment = spec["x-app-env"]
    assert "FORWARDED_ALLOW_IPS" not in environment
    trusted = environment["CARDROOM_TRUSTED_PROXIES"]
    address = spec["services"]["proxy"]["networks"]["default"]["ipv4_address"]
    assert trusted == address and "*" not in trusted
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "$proxy_add_x_forwarded_for" not in nginx
    locations = re.findall(r"location [^{]+\{[^}]*\}", nginx)
    assert locations and all(
        "proxy_set_header X-Forwarded-For $remote_addr;" in block for block in locations
    )


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="no docker-compose here")
def test_docker_compose_accepts_the_file(tmp_path: Path) -> None:
    checked = subprocess.run(
        ["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert checked.returncode == 0, checked.stderr
