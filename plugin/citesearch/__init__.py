"""citesearch: Markdown to a static site with stable passage anchors and cited-snippet search."""

from .version import __version__
from .pipeline.build import BuildResult, assemble, build  # noqa: E402
from .markdown_ext.chunk import ChunkExtension  # noqa: E402
from .config import Config, load_config  # noqa: E402
from .errors import CitesearchError, ConfigError, ContentError, Problem, UsageError  # noqa: E402

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
