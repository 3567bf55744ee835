"""Duplicate tournaments over HTTP (docs/server.md, "Duplicate tournaments").

``POST /api/tournaments`` creates one (its link and its director's secret), ``GET
/api/tournaments/{id}`` is what everyone may see, ``POST /api/tournaments/{id}/seats`` takes a
free seat, ``POST /api/tournaments/{id}/me`` says where a player plays now, and ``POST
/api/tournaments/{id}/director`` lists every deal's table for the director.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from pedro.server.http.request_body import MAX_NAME_CHARS, client_address, read_body
from pedro.server.tournaments.requests import CreateTournament, JoinTournament, Secret
from pedro.server.tournaments.running import Tournaments
from pedro.server.tournaments.standings import summary


class TournamentRoutes:
    """The tournaments' endpoints."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/tournaments", self.create, methods=["POST"]),
            Route("/api/tournaments/{tournament}", self.tournament),
            Route("/api/tournaments/{tournament}/seats", self.join, methods=["POST"]),
            Route("/api/tournaments/{tournament}/me", self.me, methods=["POST"]),
            Route("/api/tournaments/{tournament}/director", self.director, methods=["POST"]),
        ]

    async def create(self, request: Request) -> Response:
        """``POST /api/tournaments``: a new tournament, its link and its director's secret."""
        tournaments = self.tournaments
        spec = await read_body(request, CreateTournament, 'see docs/server.md, "Duplicate tournaments"')
        row, director = tournaments.new(spec)
        tournaments.check_limits(client_address(request), row)
        await tournaments.create(row)
        created = await tournaments.load(row.id)
        body = {"tournament": row.id, "director_secret": director, "url": f"/d/{row.id}"}
        return JSONResponse(body | {"summary": summary(created)}, status_code=201)

    async def tournament(self, request: Request) -> Response:
        """``GET /api/tournaments/{id}``: the public view (the standings as they are now)."""
        tournament_id = request.path_params["tournament"]
        row = await self.tournaments.load(tournament_id)
        if not row.finished:
            await self.tournaments.advance(tournament_id)  # a result missed (a crash) is picked up here
            row = await self.tournaments.load(tournament_id)
        return JSONResponse(summary(row))

    async def join(self, request: Request) -> Response:
        """``POST /api/tournaments/{id}/seats``: take a free seat; the secret opens every deal's table."""
        claim = await read_body(
            request,
            JoinTournament,
            f'send {{"table": T, "seat": S, "name": "..."}} (names: 1 to {MAX_NAME_CHARS} characters)',
        )
        tournament_id = request.path_params["tournament"]
        secret = await self.tournaments.join(tournament_id, claim)
        row = await self.tournaments.load(tournament_id)
        seat = {"table": claim.table, "seat": claim.seat, "secret": secret}
        return JSONResponse(seat | self.tournaments.player(row, secret))

    async def me(self, request: Request) -> Response:
        """``POST /api/tournaments/{id}/me``: where the player with this secret plays now."""
        asked = await read_body(request, Secret, 'send {"secret": "..."}')
        row = await self.tournaments.load(request.path_params["tournament"])
        return JSONResponse(self.tournaments.player(row, asked.secret))

    async def director(self, request: Request) -> Response:
        """``POST /api/tournaments/{id}/director``: every deal table, playing or played."""
        asked = await read_body(request, Secret, 'send {"secret": "..."}')
        row = await self.tournaments.load(request.path_params["tournament"])
        return JSONResponse(self.tournaments.director(row, asked.secret))
