"""Build cache: parse results of unchanged documents and the last search files, kept beside the output.

One module per concern: ``locations`` (where the cache lives: ``<out>.cache/``
for a build, the user's cache folder for ``serve``, never inside the content),
``keys`` (hashes of what each stage declares its output depends on),
``codec`` (parse results <-> JSON rows), ``store`` (the SQLite file and the
lock that makes builds take turns), ``parse_cache`` (what to reuse, what
changed), ``search_cache`` (the search files memo) and ``build_cache`` (one
build's use of all of them, which never fails the build).
"""

from .locations import LEGACY_DIR, check_location, for_output, for_preview


def __getattr__(name: str):
    # The build's cache imports the Markdown parser: loaded when a build asks for it, not by ``citesearch index``.
    if name == "BuildCache":
        from .build_cache import BuildCache

        return BuildCache
    if name == "Changes":
        from .parse_cache import Changes

        return Changes
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["BuildCache", "Changes", "LEGACY_DIR", "check_location", "for_output", "for_preview"]
