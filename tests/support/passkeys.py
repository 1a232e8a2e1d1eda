"""A software authenticator for tests over HTTP: the registration answer a browser would send
for the server's options (attestation ``none``, an ES256 key), with a credential id of any
length (WebAuthn allows at most 1,023 bytes; a client may send more)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
from typing import Any

import cbor2
from cryptography.hazmat.primitives.asymmetric import ec

FLAGS = 0x01 | 0x04 | 0x40  # user present, user verified, attested credential data


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _cose_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    numbers = key.public_key().public_numbers()
    return cbor2.dumps(
        {
            1: 2,  # kty: EC2
            3: -7,  # alg: ES256
            -1: 1,  # crv: P-256
            -2: numbers.x.to_bytes(32, "big"),
            -3: numbers.y.to_bytes(32, "big"),
        }
    )


def registration(
    options: dict[str, Any], origin: str, credential_id: bytes | None = None
) -> dict[str, Any]:
    """A ``PublicKeyCredential.toJSON()`` for creation ``options`` made on ``origin``."""
    credential_id = credential_id if credential_id is not None else os.urandom(16)
    key = ec.generate_private_key(ec.SECP256R1())
    auth_data = (
        hashlib.sha256(options["rp"]["id"].encode()).digest()
        + bytes([FLAGS])
        + (0).to_bytes(4, "big")
        + bytes(16)  # aaguid
        + len(credential_id).to_bytes(2, "big")
        + credential_id
        + _cose_key(key)
    )
    client_data = json.dumps(
        {"type": "webauthn.create", "challenge": options["challenge"], "origin": origin}
    ).encode()
    attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
    return {
        "id": b64url(credential_id),
        "rawId": b64url(credential_id),
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(client_data),
            "attestationObject": b64url(attestation),
            "transports": ["internal"],
        },
        "clientExtensionResults": {},
    }
