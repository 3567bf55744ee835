"""The engine's draws must equal the standard library's: seeded games and players rely on it."""

from __future__ import annotations

import random

import pytest

from pedro.engine.draws import below, sample, shuffle, weighted_index


def test_shuffle_equals_random_shuffle_and_leaves_the_generator_where_it_would() -> None:
    """Same order and the same generator state after (the players' rollouts go on drawing from it)."""
    for seed in range(2000):
        for size in (0, 1, 2, 3, 24, 52, 53, 54):
            mine, theirs = list(range(size)), list(range(size))
            mine_rng, their_rng = random.Random(seed), random.Random(seed)
            shuffle(mine_rng, mine)
            their_rng.shuffle(theirs)
            assert mine == theirs
            assert mine_rng.getstate() == their_rng.getstate()


def test_below_equals_randrange() -> None:
    for seed in range(20):
        mine_rng, their_rng = random.Random(seed), random.Random(seed)
        for n in (1, 2, 3, 5, 8, 31, 32, 33, 1000):
            assert below(mine_rng, n) == their_rng.randrange(n)


@pytest.mark.parametrize("n", [0, 1, 5, 14, 21, 22, 30, 45, 56])
def test_sample_equals_random_sample_in_both_of_its_ways(n: int) -> None:
    """Up to 21 members (more for big samples) the library draws from a shrinking pool, beyond
    that from the whole population with redraws: both ways, every size."""
    population = [3 * c + 1 for c in range(n)]
    for k in range(n + 1):
        for seed in range(10):
            mine_rng, their_rng = random.Random(seed), random.Random(seed)
            assert sample(mine_rng, population, k) == their_rng.sample(population, k)
            assert mine_rng.getstate() == their_rng.getstate()


def test_sample_refuses_more_than_the_population() -> None:
    with pytest.raises(ValueError, match="Sample larger than population"):
        sample(random.Random(0), [1, 2], 3)


@pytest.mark.parametrize(
    "weights", [[1], [1, 1], [1, 5, 10], [0, 3], [4, 0, 0, 1], [1, 1, 1, 120, 45, 210, 252]]
)
def test_weighted_index_equals_random_choices(weights: list[int]) -> None:
    for seed in range(30):
        mine_rng, their_rng = random.Random(seed), random.Random(seed)
        mine = [weighted_index(mine_rng, weights) for _ in range(20)]
        theirs = [their_rng.choices(range(len(weights)), weights)[0] for _ in range(20)]
        assert mine == theirs
        assert mine_rng.getstate() == their_rng.getstate()
