"""What ``HERALD_DB`` names, and a PostgreSQL URL shown without its password.

The configuration, the command line, the health check and the storage read a location here; every
log line and message that names a PostgreSQL database shows it through :func:`redacted` or
:func:`scrubbed`, so the password in the URL is never written anywhere.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

URL_SCHEMES = ("postgresql://", "postgres://")
"""How ``HERALD_DB`` names a PostgreSQL database (anything else is a SQLite file path)."""


def is_postgres_url(location: str) -> bool:
    return location.strip().lower().startswith(URL_SCHEMES)


_SCHEME = re.compile(r"\s*(postgres(?:ql)?://)", re.IGNORECASE)
_PASSWORD_PARAM = re.compile(r"([?&;]password=)(.*)$", re.IGNORECASE | re.DOTALL)
"""A ``password=`` parameter and everything after it: an ``&`` may be part of the password."""

ENCODING_HINT = (
    "A password holding / # ? @ : % or a space must be percent-encoded in the URL (/ as %2F, # as %23, "
    "? as %3F, @ as %40, : as %3A, % as %25, a space as %20); "
    "python3 -c \"import getpass, urllib.parse; print(urllib.parse.quote(getpass.getpass(), safe=''))\" "
    "prints a password so encoded, without showing or storing it.")
"""What every refusal of a PostgreSQL URL adds: how to write a password that breaks the URL."""


def redacted(url: str) -> str:
    """The URL with its password hidden, whatever its shape: what logs and messages show.

    Read from the text itself, not from a parse: a password holding ``/``, ``#`` or ``?`` does not
    parse as one (``urlsplit`` puts part of it in the path or the fragment). Everything between the
    user's name and the *last* ``@`` is hidden, and every ``password=`` parameter; a URL that hides
    more than its password still names the user, host and database for the admin."""
    m = _SCHEME.match(url)
    if m is None:
        return url
    rest = url[m.end():]
    at = rest.rfind("@")
    if at >= 0:
        user, colon, _ = rest[:at].partition(":")
        if colon:
            rest = f"{user}:***{rest[at:]}"
        elif "/" in user or "?" in user or "#" in user:
            rest = f"***{rest[at:]}"  # no ':' before the '@' but a broken user part: hide it all
    rest = _PASSWORD_PARAM.sub(lambda p: p[1] + "***", rest)
    return m[1] + rest


def secrets_of(url: str) -> list[str]:
    """The password(s) a URL holds, as written and percent-decoded: what :func:`scrubbed` hides
    in other text (a driver's error may quote a password without the URL around it)."""
    m = _SCHEME.match(url)
    if m is None:
        return []
    rest = url[m.end():]
    found: list[str] = []
    at = rest.rfind("@")
    if at >= 0:
        user, colon, password = rest[:at].partition(":")
        if colon:
            found.append(password)
    found += [p[2] for p in _PASSWORD_PARAM.finditer(rest)]
    found += [unquote(f) for f in found]
    return sorted({f for f in found if len(f) >= 3}, key=len, reverse=True)


def scrubbed(text: str, url: str) -> str:
    """``text`` (a driver's error, a refusal) with the URL shown redacted and any password of
    the URL replaced by ``***`` wherever it appears (passwords shorter than three characters
    are only hidden inside the URL: replacing every "a" would make the text unreadable)."""
    text = text.replace(url, redacted(url))
    for secret in secrets_of(url):
        text = text.replace(secret, "***")
    return text


__all__ = ["ENCODING_HINT", "URL_SCHEMES", "is_postgres_url", "redacted", "scrubbed", "secrets_of"]
