"""Review work is bounded: reviews wait their turn, an address and the server may have only so many,
a long game is refused, an upload is answered at once, and one that leaves memory is not made.

The reviews run in threads of the test's process (``review_processes=0``) with a review function
that waits for the test's word, so a review stays under way as long as a test needs it to.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.client_helpers import running_server
from tests.server.test_limits import from_address
from tests.server.test_reviews import PATIENCE, PLAYER, finished_game, until_done

from pedro.server.reviews import routes as reviews_module
from pedro.server.reviews.compute import HandJob
from pedro.server.reviews.queue import Progress, ReviewQueue
from pedro.server.settings import Limits


class HeldReviews:
    """A review function that makes each hand only when let (``let``), counting what it made."""

    def __init__(self) -> None:
        self.made: list[tuple[int, int]] = []
        self.started: list[tuple[int, int]] = []
        self._let = threading.Semaphore(0)

    def __call__(self, job: HandJob) -> dict[str, Any]:
        self.started.append((job.seat, job.hand))
        assert self._let.acquire(timeout=PATIENCE)
        self.made.append((job.seat, job.hand))
        return {"hand": job.hand, "player": job.player, "entries": [], "lost": {}}

    def let(self, hands: int = 1000) -> None:
        for _ in range(hands):
            self._let.release()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldReviews]:
    reviews = HeldReviews()
    monkeypatch.setattr(reviews_module, "review_hand", reviews)
    yield reviews
    reviews.let()  # nothing left waiting when the server stops


def serve(tmp_path: Path, **limits: Any) -> contextlib.AbstractContextManager[TestClient]:
    return running_server(tmp_path, review_processes=0, review_player=PLAYER, limits=Limits(**limits))


def review_url(table: str, seat: int) -> str:
    return f"/api/tables/{table}/review/{seat}"


def wait_for(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.01)


# ---------------------------------------------------------------------------- the queue


def test_reviews_are_made_one_at_a_time_in_order_and_each_says_its_place(
    tmp_path: Path, held: HeldReviews
) -> None:
    table, _ = finished_game(tmp_path)
    with serve(tmp_path, reviews_per_client=4) as client:
        answers = [client.get(review_url(table, seat)).json() for seat in range(3)]
        assert [(a["status"], a["place"]) for a in answers] == [("working", 0), ("queued", 1), ("queued", 2)]
        wait_for(lambda: len(held.started) == 1)
        assert held.started == [(0, 1)]  # only the first review's first hand: one worker, one review
        total = answers[0]["total"]
        held.let(total)  # seat 0's review is made: seat 1's turn
        wait_for(lambda: client.get(review_url(table, 0)).status_code == 200)
        assert client.get(review_url(table, 1)).json()["place"] == 0
        assert client.get(review_url(table, 2)).json() | {"done": 0} == answers[2] | {"place": 1}
        held.let()
        until_done(lambda: client.get(review_url(table, 2)))
    assert [seat for seat, _ in held.made] == [0] * total + [1] * total + [2] * total


def test_an_address_may_have_a_few_reviews_waiting_and_the_server_a_few_more(
    tmp_path: Path, held: HeldReviews
) -> None:
    table, _ = finished_game(tmp_path)
    with serve(tmp_path, reviews_per_client=2, reviews_queued=3) as client:
        assert client.get(review_url(table, 0)).status_code == 202
        assert client.get(review_url(table, 1)).status_code == 202
        refused = client.get(review_url(table, 2))
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_reviews"
        fields = refused.json()["fields"]
        assert fields["limit"] == 2 and int(refused.headers["Retry-After"]) == fields["wait"] >= 1
        assert "you have 2 reviews waiting or under way" in refused.json()["error"]
        # a review asked for again is the same review: no new one, no refusal
        assert client.get(review_url(table, 1)).status_code == 202
        with from_address(client, "10.0.0.2"):
            assert client.get(review_url(table, 2)).status_code == 202  # another address: its own
            busy = client.get(review_url(table, 3))
        assert busy.status_code == 429 and busy.json()["code"] == "reviews_busy"
        assert busy.json()["fields"]["limit"] == 3 and "Retry-After" in busy.headers
        held.let()
        for seat in range(3):
            until_done(lambda seat=seat: client.get(review_url(table, seat)))  # type: ignore[misc]
        # the reviews are made: room again
        assert client.get(review_url(table, 3)).status_code == 202


def test_a_game_longer_than_the_limit_is_refused_with_its_length(tmp_path: Path, held: HeldReviews) -> None:
    table, _ = finished_game(tmp_path)
    with serve(tmp_path, review_max_hands=1) as client:
        record = client.get(f"/api/tables/{table}/record").json()
        hands = len(record["hands"])
        assert hands > 1
        for refused in (
            client.get(review_url(table, 0)),
            client.post("/api/review", json={"record": record, "seat": 0}),
        ):
            assert refused.status_code == 422, refused.text
            assert refused.json()["code"] == "too_long"
            assert refused.json()["fields"] == {"hands": hands, "limit": 1}
            assert "pedro analyze" in refused.json()["error"]
    assert held.started == []


# ---------------------------------------------------------------------------- uploads


def test_an_upload_is_answered_at_once_with_its_place_and_read_by_its_id(
    tmp_path: Path, held: HeldReviews
) -> None:
    table, _ = finished_game(tmp_path)
    with serve(tmp_path) as client:
        record = client.get(f"/api/tables/{table}/record").json()
        assert client.get(review_url(table, 0)).status_code == 202  # the worker is busy with this
        wait_for(lambda: len(held.started) == 1)
        start = time.monotonic()
        answer = client.post("/api/review", json={"record": record, "seat": 1})
        assert time.monotonic() - start < PATIENCE / 10
        body = answer.json()
        assert answer.status_code == 202 and body["status"] == "queued" and body["place"] == 1
        assert (
            body["done"] == 0 and body["total"] == len(record["hands"]) and body["names"] == record["names"]
        )
        poll = f"/api/review/{body['id']}/1"
        assert client.get(poll).json() == body
        held.let()
        _, review = until_done(lambda: client.get(poll))
        assert review["table"] is None and len(review["hands"]) == len(record["hands"])
        # the same record sent again is the same review, made already
        assert client.post("/api/review", json={"record": record, "seat": 1}).json() == review
        gone = client.get(f"/api/review/{'0' * 64}/1")
        assert gone.status_code == 404 and gone.json()["code"] == "upload_gone"
        assert client.get(f"/api/review/{body['id']}/{'9' * 5000}").status_code == 404


def test_an_upload_that_leaves_memory_takes_its_unmade_review_with_it(
    tmp_path: Path, held: HeldReviews, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviews_module, "KEPT_UPLOADS", 2)
    table, _ = finished_game(tmp_path)
    with serve(tmp_path, reviews_per_client=10) as client:
        record = client.get(f"/api/tables/{table}/record").json()
        upload = client.post("/api/review", json={"record": record, "seat": 0}).json()["id"]
        wait_for(lambda: held.started == [(0, 1)])
        for seat in (1, 2):
            assert client.post("/api/review", json={"record": record, "seat": seat}).json()["id"] == upload
        # three uploads' reviews, two kept: the first (under way) is dropped, its other hands unmade,
        # and the next one's turn comes
        assert client.get(f"/api/review/{upload}/0").json()["code"] == "upload_gone"
        wait_for(lambda: held.started == [(0, 1), (1, 1)])
        assert client.get(f"/api/review/{upload}/1").json()["place"] == 0
        held.let()
        for seat in (1, 2):
            until_done(lambda seat=seat: client.get(f"/api/review/{upload}/{seat}"))  # type: ignore[misc]
    assert [seat for seat, _ in held.made].count(0) <= 1


def test_a_bad_seat_in_a_path_is_refused_however_it_is_written(tmp_path: Path) -> None:
    table, _ = finished_game(tmp_path)
    with serve(tmp_path) as client:
        for seat in ("²", "-1", "x"):
            refused = client.get(review_url(table, seat))  # type: ignore[arg-type]
            assert refused.status_code == 400 and refused.json()["code"] == "seat_not_number"
        refused = client.get(f"/api/tables/{table}/review/{'9' * 5000}")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_seat"


# ---------------------------------------------------------------------------- the queue alone


def test_the_queue_estimates_the_wait_from_the_hands_before_and_the_time_a_hand_takes() -> None:
    async def scenario() -> None:
        queue = ReviewQueue(slots=1, per_client=2, total=3)
        queue.join(("table", "a", 0), "ann", Progress(10, done=4))
        queue.join(("table", "a", 1), "ann", Progress(5))
        queue.seconds_per_hand = 2.0
        refusal = queue.refusal("ann")
        assert refusal is not None and refusal.code == "too_many_reviews" and refusal.wait == 12  # 6 hands
        assert queue.refusal("bo") is None
        queue.join(("table", "a", 2), "bo", Progress(1))
        refusal = queue.refusal("cy")
        assert refusal is not None and refusal.code == "reviews_busy" and refusal.wait == 12
        assert [queue.place(("table", "a", s)) for s in range(3)] == [0, 1, 2]
        turn = asyncio.ensure_future(queue.wait_turn(("table", "a", 1)))
        await asyncio.sleep(0)
        assert not turn.done()
        queue.leave(("table", "a", 0))
        await asyncio.wait_for(turn, 1)
        queue.timed(4.0)
        assert queue.seconds_per_hand == pytest.approx(2.4)

    asyncio.run(scenario())
