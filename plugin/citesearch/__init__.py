"""citesearch: Markdown to a static site with stable passage anchors and cited-snippet search."""

from .version import __version__
from .errors import CitesearchError, ConfigError, ContentError, Problem, UsageError

# The build's names load on first use: `citesearch index`, `search` and the
# MkDocs plugin import this package too, and the build pipeline is a third of
# their start-up (PEP 562).
_LAZY = {
    "build": ".pipeline.build", "assemble": ".pipeline.build", "BuildResult": ".pipeline.build",
    "ChunkExtension": ".markdown_ext.chunk", "Config": ".config", "load_config": ".config",
}


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "__version__",
    "build",
    "assemble",
    "BuildResult",
    "ChunkExtension",
    "Config",
    "load_config",
    "CitesearchError",
    "ConfigError",
    "ContentError",
    "Problem",
    "UsageError",
]
