"""mkdocs-static-i18n: one MkDocs build per language, one merged search index.

The i18n plugin builds the default language, then, from its own
``on_post_build``, builds every other language into ``site/<lang>/`` with the
same config and plugin instances. Each of those builds ends in citesearch's
``on_post_build``, which once wrote ``site/search/`` with that language's pages
only: the last language won and the others became unsearchable. The plugin
now keeps the pages of every language built in this run and writes one
manifest holding them all (citesearch's manifests are multilingual: the widget
searches the reader's language and offers the others).

An untranslated page that i18n copies into another language (its fallback) is
indexed once, in its own language.
"""

from __future__ import annotations

from dataclasses import dataclass

from mkdocs.structure.files import File


@dataclass(frozen=True)
class LanguageBuild:
    language: str  # the i18n locale being built
    default: bool  # the default language's build, the first of a run
    languages: tuple[str, ...]  # every language this run builds


def i18n_build(config) -> LanguageBuild | None:
    """The language mkdocs-static-i18n is building now; None without that plugin."""
    plugin = config.plugins.get("i18n")
    language = getattr(plugin, "current_language", None)
    if not isinstance(language, str):
        return None
    languages = tuple(getattr(plugin, "build_languages", None) or (language,))
    return LanguageBuild(language, language == getattr(plugin, "default_language", language), languages)


def is_fallback(file: File, build: LanguageBuild | None) -> bool:
    """A page of another language that i18n copied into this language's build (no translation)."""
    locale = getattr(file, "locale", None)
    return build is not None and isinstance(locale, str) and locale != build.language
