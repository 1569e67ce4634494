"""``HERALD_SHARD_COUNT`` and ``HERALD_SHARDS``: which of Discord's shards a process runs, every
unusable value refused with a sentence naming the variable."""

from __future__ import annotations

import pytest

from bot.config import MAX_SHARDS, Config, ConfigError


def shards(**env: str) -> tuple[int | None, tuple[int, ...] | None]:
    config = Config.from_env({f"HERALD_{k.upper()}": v for k, v in env.items()})
    return config.shard_count, config.shard_ids


def test_unsharded_by_default_and_all_shards_without_a_list() -> None:
    assert shards() == (None, None)
    assert shards(shard_count=" ", shards="") == (None, None)
    assert shards(shard_count="4") == (4, None)


@pytest.mark.parametrize(("given", "ids"), [("0-1", (0, 1)), ("2,3", (2, 3)), ("3", (3,)),
                                            ("3, 0-1", (0, 1, 3)), ("0-3", (0, 1, 2, 3))])
def test_lists_and_ranges(given: str, ids: tuple[int, ...]) -> None:
    assert shards(shard_count="4", shards=given) == (4, ids)


@pytest.mark.parametrize(("env", "words"), [
    ({"shards": "0-1"}, "needs HERALD_SHARD_COUNT"),
    ({"shard_count": "0"}, "from 1 to"),
    ({"shard_count": "four"}, "not a shard count"),
    ({"shard_count": str(MAX_SHARDS + 1)}, "not a shard count"),
    ({"shard_count": "4", "shards": "4"}, "outside 0-3"),
    ({"shard_count": "4", "shards": "3-1"}, "like 1-3"),
    ({"shard_count": "4", "shards": "a-b"}, "not a list of shards"),
    ({"shard_count": "4", "shards": "1,,2"}, "not a list of shards"),
    ({"shard_count": "4", "shards": "0-2,2"}, "twice"),
])
def test_unusable_values_are_refused_by_name(env: dict[str, str], words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        shards(**env)
    assert words in str(caught.value)
    assert "HERALD_SHARD" in str(caught.value)


def test_the_repr_shows_the_shards_never_the_token() -> None:
    config = Config.from_env({"HERALD_SHARD_COUNT": "4", "HERALD_SHARDS": "2-3", "DISCORD_TOKEN": "secret"})
    assert "(2, 3)/4" in repr(config) and "secret" not in repr(config)
