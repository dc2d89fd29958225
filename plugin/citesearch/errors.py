"""Errors the library raises; the CLI is the only place that prints them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One content error or warning, located at ``path:line``."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class CitesearchError(Exception):
    """Base class: every error the library raises formats its own message."""

    exit_code = 1


class ContentError(CitesearchError):
    """The content has errors; every one of them is listed, none is fatal alone."""

    exit_code = 1

    def __init__(self, problems: list[Problem], warnings: list[Problem] | tuple[Problem, ...] = ()):
        self.problems = sorted(problems)
        self.warnings = sorted(warnings)
        super().__init__("\n".join(str(p) for p in self.problems))


class ConfigError(CitesearchError):
    """citesearch.yml or the command line is wrong: exit 2."""

    exit_code = 2


class UsageError(CitesearchError):
    exit_code = 2
