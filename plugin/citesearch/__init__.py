"""citesearch: Markdown to a static site with stable passage anchors and cited-snippet search."""

__version__ = "0.1.0"

from .build import BuildResult, assemble, build  # noqa: E402
from .chunk import ChunkExtension  # noqa: E402
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
