"""Passwords: what makes one too weak (refused with the reason), and Argon2id hashes (pwdlib),
computed off the event loop. A password is never logged, stored or returned."""

from __future__ import annotations

import asyncio

from pwdlib import PasswordHash
from pwdlib.hashers.argon2 import Argon2Hasher

from app.api.errors import ApiError

HASHER = PasswordHash((Argon2Hasher(),))  # Argon2id, the library's recommended parameters
SHORTEST = 10
LONGEST = 128
FEWEST_DIFFERENT = 5

# passwords long enough to pass, and among the first any attacker tries
COMMON = frozenset(
    {
        "1234567890",
        "0987654321",
        "12345678910",
        "123456789a",
        "a123456789",
        "1q2w3e4r5t",
        "1qaz2wsx3edc",
        "qwertyuiop",
        "qwerty1234",
        "qwerty12345",
        "asdfghjkl1",
        "password12",
        "password123",
        "password1234",
        "passw0rd12",
        "iloveyou12",
        "letmein123",
        "welcome123",
        "sunshine12",
        "football12",
        "baseball12",
        "princess12",
        "dragon1234",
        "monkey1234",
        "administrator",
        "abcdefghij",
        "abcd123456",
        "cardroom123",
    }
)
_DUMMY = HASHER.hash("the hash an unknown username is checked against")


def weakness(password: str, username: str) -> str | None:
    """Why ``password`` is too weak for ``username``, in words; ``None`` if it is fine."""
    if len(password) < SHORTEST:
        return f"A password needs at least {SHORTEST} characters."
    if len(password) > LONGEST:
        return f"A password holds at most {LONGEST} characters."
    if username.casefold() in password.casefold():
        return "A password must not contain the username."
    if password.casefold() in COMMON:
        return "This password is one of the most common ones: choose another."
    if len(set(password.casefold())) < FEWEST_DIFFERENT:
        return (
            f"A password needs at least {FEWEST_DIFFERENT} different characters: this one "
            "repeats too few to be hard to guess."
        )
    return None


def refuse_weak(password: str, username: str) -> None:
    reason = weakness(password, username)
    if reason is not None:
        raise ApiError(422, "weak_password", reason)


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(HASHER.hash, password)


async def password_matches(password: str, password_hash: str | None) -> bool:
    """Whether ``password`` is the one ``password_hash`` was made from; with no hash (no such
    username) a hash is checked all the same, so the answer takes as long."""
    if password_hash is None:
        await asyncio.to_thread(HASHER.verify, password, _DUMMY)
        return False
    return await asyncio.to_thread(HASHER.verify, password, password_hash)
