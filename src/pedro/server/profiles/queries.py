"""Profiles in the database: made, renamed, moved to another browser with a code, deleted; and
their pages and the leaderboards.

A profile is a name chosen once and a secret its browser keeps (stored hashed, like a seat's).
Computer players have profiles too (``rated_games`` makes them), so a level is a reference point on
the people's scale. Every method is one short transaction and blocks: the server calls them in a
thread.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from pedro.players import LEVELS, PLAYERS
from pedro.ratings import Rating
from pedro.server.storage.name_keys import name_key
from pedro.server.storage.schema import (
    profile_codes_table,
    profile_games_table,
    profiles_table,
    ratings_table,
    tables_table,
)
from pedro.server.storage.tables_db import Store, aware, hash_secret, store_error

#: How long a move code is good for; it is good once.
_CODE_LIFETIME = timedelta(minutes=15)
#: Move codes are read and typed by people: no letters that look alike (0/O, 1/I/L).
_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
_CODE_LENGTH = 10
#: The most games a profile's page lists (the latest), and the most rows of a leaderboard.
_PAGE_GAMES = 100
_BOARD_ROWS = 100
#: Names people cannot take: they are the computer players' (their profiles have them).
_RESERVED_NAMES = frozenset(name_key(n) for n in (*PLAYERS, *(level.name for level in LEVELS)))


#: Why a profile request is refused: a name kept for a computer player or taken, a secret no
#: profile has (it may have moved to another browser), a move code not valid or just used.
Refusal = Literal["name_for_computer", "name_taken", "unknown_profile", "bad_move_code", "move_code_used"]


class ProfileRefused(ValueError):
    """A profile request the database refused: ``reason``, and the ``fields`` it is said with."""

    def __init__(self, reason: Refusal, **fields: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        self.fields = fields


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    kind: str  # "human" or "computer"


@dataclass(frozen=True)
class Holder:
    """A profile as its holder gets it: with the secret the browser keeps (shown to nobody else)."""

    profile: Profile
    secret: str


def _hash_code(code: str) -> str:
    return hashlib.sha256(("code:" + code.replace("-", "").replace(" ", "").upper()).encode()).hexdigest()


def _new_code() -> str:
    raw = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(_CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


class ProfileStore:
    """Profiles and move codes, on the server's database (``Store``'s engine)."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine

    # ------------------------------------------------------------------ profiles

    def create(self, name: str, now: datetime | None = None) -> Holder:
        """A new profile under ``name`` (already cleaned, as seat names are); ProfileRefused if the
        name is taken or kept for a computer player, whatever its case or look-alike letters
        (``names.name_key``)."""
        key = name_key(name)
        if key in _RESERVED_NAMES:
            raise ProfileRefused("name_for_computer", name=name)
        secret = secrets.token_urlsafe(24)
        profile = Profile(secrets.token_urlsafe(12), name, "human")
        row = {
            "id": profile.id,
            "name": name,
            "name_key": key,
            "kind": "human",
            "secret_hash": hash_secret(secret),
            "created_at": now or datetime.now(UTC),
        }
        try:
            with self.engine.begin() as c:
                c.execute(insert(profiles_table).values(**row))
        except IntegrityError:
            raise ProfileRefused("name_taken", name=name) from None
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return Holder(profile, secret)

    def check_seat_name(self, name: str) -> None:
        """A name a person sitting without a profile may take: ProfileRefused if it is, or looks
        like, a computer player's or a profile's name (nobody passes for a level or a player)."""
        key = name_key(name)
        if key in _RESERVED_NAMES:
            raise ProfileRefused("name_for_computer", name=name)
        try:
            with self.engine.connect() as c:
                found = c.execute(select(profiles_table.c.id).where(profiles_table.c.name_key == key))
                if found.first() is not None:
                    raise ProfileRefused("name_taken", name=name)
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc

    def rename(self, secret: str, name: str) -> Profile:
        """The holder's profile under a new ``name`` (cleaned as at creation), by the same rules:
        ProfileRefused if it is taken by another profile (whatever its case) or kept for a computer.
        The seats it played keep the name they were played under; its pages take the new one."""
        profile = self.holder(secret)
        key = name_key(name)
        if key in _RESERVED_NAMES:
            raise ProfileRefused("name_for_computer", name=name)
        try:
            with self.engine.begin() as c:
                done = c.execute(
                    update(profiles_table)
                    .where(profiles_table.c.id == profile.id, profiles_table.c.kind == "human")
                    .values(name=name, name_key=key)
                )
        except IntegrityError:
            raise ProfileRefused("name_taken", name=name) from None
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        if done.rowcount != 1:  # deleted or moved meanwhile
            raise ProfileRefused("unknown_profile")
        return Profile(profile.id, name, profile.kind)

    def delete(self, secret: str) -> Profile:
        """Delete the holder's profile: its name (free again), ratings, move code and its links to the
        games it played go (the database cascades them); the games, and every other profile's
        ratings and links to them, stay as they are. ProfileRefused if no profile has the secret."""
        profile = self.holder(secret)
        try:
            with self.engine.begin() as c:
                done = c.execute(
                    delete(profiles_table).where(
                        profiles_table.c.id == profile.id, profiles_table.c.secret_hash == hash_secret(secret)
                    )
                )
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        if done.rowcount != 1:  # moved or deleted meanwhile
            raise ProfileRefused("unknown_profile")
        return profile

    def by_secret(self, secret: str) -> Profile | None:
        return self._one(profiles_table.c.secret_hash == hash_secret(secret))

    def by_id(self, profile_id: str) -> Profile | None:
        return self._one(profiles_table.c.id == profile_id)

    def _one(self, where: Any) -> Profile | None:
        p = profiles_table.c
        try:
            with self.engine.connect() as c:
                row = c.execute(select(p.id, p.name, p.kind).where(where)).first()
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return Profile(row.id, row.name, row.kind) if row is not None else None

    def holder(self, secret: str) -> Profile:
        """The profile whose secret this is; ProfileRefused if none."""
        profile = self.by_secret(secret)
        if profile is None:
            raise ProfileRefused("unknown_profile")
        return profile

    def move_code(self, secret: str, now: datetime | None = None) -> tuple[str, datetime]:
        """A new one-time code that moves the profile to another browser, and when it stops working.
        An earlier code of the profile stops working now."""
        profile = self.holder(secret)
        code = _new_code()
        expires = (now or datetime.now(UTC)) + _CODE_LIFETIME
        try:
            with self.engine.begin() as c:
                c.execute(delete(profile_codes_table).where(profile_codes_table.c.profile_id == profile.id))
                c.execute(
                    insert(profile_codes_table).values(
                        code_hash=_hash_code(code), profile_id=profile.id, expires_at=expires
                    )
                )
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return code, expires

    def adopt(self, code: str, now: datetime | None = None) -> Holder:
        """The profile a move code was made for, with a new secret for the browser that typed it;
        the code is used up and the old browser's secret stops working (the profile moved)."""
        now = now or datetime.now(UTC)
        codes = profile_codes_table.c
        secret = secrets.token_urlsafe(24)
        try:
            with self.engine.begin() as c:
                row = c.execute(
                    select(codes.profile_id, codes.expires_at).where(codes.code_hash == _hash_code(code))
                ).first()
                if row is None or aware(row.expires_at) <= now:
                    raise ProfileRefused("bad_move_code")
                taken = c.execute(delete(profile_codes_table).where(codes.code_hash == _hash_code(code)))
                if taken.rowcount != 1:  # used meanwhile by another request
                    raise ProfileRefused("move_code_used")
                c.execute(
                    update(profiles_table)
                    .where(profiles_table.c.id == row.profile_id)
                    .values(secret_hash=hash_secret(secret))
                )
                found = c.execute(
                    select(profiles_table.c.name).where(profiles_table.c.id == row.profile_id)
                ).one()
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return Holder(Profile(row.profile_id, found.name, "human"), secret)

    # ------------------------------------------------------------------ reads for the pages

    def profile_page(self, profile_id: str) -> dict[str, Any] | None:
        """A profile's public page: ratings per variant, rating history, totals and latest games.
        Never its secret."""
        g = profile_games_table.c
        try:
            with self.engine.connect() as c:
                p = c.execute(select(profiles_table).where(profiles_table.c.id == profile_id)).first()
                if p is None:
                    return None
                ratings = [
                    {
                        "variant": r.variant,
                        "rating": Rating(r.mu, r.sigma).shown,
                        "mu": r.mu,
                        "sigma": r.sigma,
                        "games": r.games,
                    }
                    for r in c.execute(
                        select(ratings_table)
                        .where(ratings_table.c.profile_id == profile_id)
                        .order_by(ratings_table.c.variant)
                    )
                ]
                history = [  # one point per game (a computer level may have had two seats in it)
                    {
                        "variant": r.variant,
                        "table": r.table_id,
                        "at": aware(r.finished_at).isoformat(),
                        "rating": r.shown_after,
                    }
                    for r in c.execute(
                        select(g.variant, g.table_id, g.finished_at, g.shown_after)
                        .where(g.profile_id == profile_id, g.rated.is_(True))
                        .distinct()
                        .order_by(g.finished_at, g.table_id)
                    )
                ]
                totals: dict[str, dict[str, int]] = {}
                tables: dict[str, set[str]] = {}
                # summed per seat (hands and points per hand stay right for a level with two seats)
                for r in c.execute(
                    select(
                        g.variant, g.table_id, g.hands, g.points, g.bids_won, g.bids_made, g.bids_set
                    ).where(g.profile_id == profile_id)
                ):
                    t = totals.setdefault(
                        r.variant,
                        {"games": 0, "hands": 0, "points": 0, "bids_won": 0, "bids_made": 0, "bids_set": 0},
                    )
                    tables.setdefault(r.variant, set()).add(r.table_id)
                    t["games"] = len(tables[r.variant])
                    for key in ("hands", "points", "bids_won", "bids_made", "bids_set"):
                        t[key] += getattr(r, key)
                games = [
                    {
                        "table": r.table_id,
                        "title": r.title,
                        "variant": r.variant,
                        "seat": r.seat,
                        "at": aware(r.finished_at).isoformat(),
                        "place": r.place,
                        "sides": r.sides,
                        "hands": r.hands,
                        "points": r.points,
                        "bids_won": r.bids_won,
                        "bids_made": r.bids_made,
                        "bids_set": r.bids_set,
                        "rated": r.rated,
                        "before": r.shown_before,
                        "after": r.shown_after,
                    }
                    for r in c.execute(
                        select(
                            g.table_id,
                            tables_table.c.title,
                            g.variant,
                            g.seat,
                            g.finished_at,
                            g.place,
                            g.sides,
                            g.hands,
                            g.points,
                            g.bids_won,
                            g.bids_made,
                            g.bids_set,
                            g.rated,
                            g.shown_before,
                            g.shown_after,
                        )
                        .join(tables_table, tables_table.c.id == g.table_id)
                        .where(g.profile_id == profile_id)
                        .order_by(g.finished_at.desc(), g.table_id)
                        .limit(_PAGE_GAMES)
                    )
                ]
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return {
            "id": p.id,
            "name": p.name,
            "kind": p.kind,
            "created": aware(p.created_at).isoformat(),
            "ratings": ratings,
            "history": history,
            "totals": [{"variant": v} | t for v, t in sorted(totals.items())],
            "games": games,
        }

    def leaderboard(self, variant: str, limit: int = _BOARD_ROWS) -> list[dict[str, Any]]:
        """A variant's players by rating (openskill's ordinal, mu − 3 sigma), best first."""
        r = ratings_table.c
        shown = r.mu - 3 * r.sigma
        try:
            with self.engine.connect() as c:
                rows = c.execute(
                    select(r.profile_id, profiles_table.c.name, profiles_table.c.kind, r.mu, r.sigma, r.games)
                    .join(profiles_table, profiles_table.c.id == r.profile_id)
                    .where(r.variant == variant)
                    .order_by(shown.desc(), profiles_table.c.name_key)
                    .limit(limit)
                ).all()
        except SQLAlchemyError as exc:
            raise store_error(exc) from exc
        return [
            {
                "rank": rank,
                "profile": row.profile_id,
                "name": row.name,
                "kind": row.kind,
                "rating": Rating(row.mu, row.sigma).shown,
                "mu": row.mu,
                "sigma": row.sigma,
                "games": row.games,
            }
            for rank, row in enumerate(rows, start=1)
        ]
