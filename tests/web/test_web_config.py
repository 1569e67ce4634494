"""``HERALD_WEB_URL`` and ``HERALD_WEB_BIND``: off unless the URL is set, every value checked up
front with one sentence naming the variable."""

from __future__ import annotations

import pytest

from bot.config import Config, ConfigError


def test_the_web_is_off_unless_its_address_is_set() -> None:
    config = Config.from_env({})
    assert config.web_url is None and config.web_bind == ("127.0.0.1", 8080)


@pytest.mark.parametrize(("raw", "url"), [
    ("https://herald.example.org", "https://herald.example.org"),
    ("  https://herald.example.org/  ", "https://herald.example.org"),
    ("http://localhost:8080/herald/", "http://localhost:8080/herald"),
])
def test_the_web_address_is_kept_without_its_trailing_slash(raw: str, url: str) -> None:
    assert Config.from_env({"HERALD_WEB_URL": raw}).web_url == url


@pytest.mark.parametrize("raw", ["herald.example.org", "ftp://herald.example.org",
                                 "https://herald.example.org/?a=1", "https://x/#top",
                                 "https://user:pw@herald.example.org", "https://",
                                 "https://herald example.org", "https://h:99999"])
def test_a_web_address_herald_cannot_give_out_is_refused(raw: str) -> None:
    with pytest.raises(ConfigError, match="HERALD_WEB_URL="):
        Config.from_env({"HERALD_WEB_URL": raw})


@pytest.mark.parametrize(("raw", "bind"), [
    ("0.0.0.0:9000", ("0.0.0.0", 9000)), ("[::1]:8081", ("::1", 8081)),
    ("herald-web:80", ("herald-web", 80)),
])
def test_the_web_server_listens_where_it_is_told(raw: str, bind: tuple[str, int]) -> None:
    env = {"HERALD_WEB_URL": "https://herald.example.org", "HERALD_WEB_BIND": raw}
    assert Config.from_env(env).web_bind == bind


@pytest.mark.parametrize("raw", ["8080", "localhost", "localhost:0", "localhost:70000",
                                 ":8080", "a b:80", "host:http"])
def test_an_address_to_listen_on_is_refused_when_unusable(raw: str) -> None:
    env = {"HERALD_WEB_URL": "https://herald.example.org", "HERALD_WEB_BIND": raw}
    with pytest.raises(ConfigError, match="HERALD_WEB_BIND="):
        Config.from_env(env)


def test_a_listening_address_without_a_web_address_is_refused() -> None:
    with pytest.raises(ConfigError, match="needs HERALD_WEB_URL"):
        Config.from_env({"HERALD_WEB_BIND": "127.0.0.1:8080"})
