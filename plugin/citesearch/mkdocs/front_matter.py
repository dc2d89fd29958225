"""Front matter as MkDocs reads it, and refusal of any MkDocs would silently ignore.

MkDocs (``mkdocs.utils.meta.get_data``) drops front matter it cannot parse and
publishes the whole file, front matter included, as page text: YAML errors
(``title: Q3: plan``, a tab, ``date: 2024-02-30``), a non-mapping, a block not
on line 1 or never closed on a line of its own. A draft's ``visibility:
editor`` would then be published with it. In a citesearch build each of these
is an error naming the file and line, and so is a key given twice (YAML keeps
the last one, so ``visibility: editor`` could be overridden silently).
"""

from __future__ import annotations

import re

import yaml
from mkdocs.exceptions import PluginError
from mkdocs.utils.meta import YAML_RE, SafeLoader, get_data

_OPENING = re.compile(r"-{3}[ \t]*$")
_PUBLISHED = "MkDocs would publish it as page text"


def front_matter(source: str, src_uri: str) -> dict:
    """The page's front matter, the same keys ``page.meta`` will have; unreadable front matter is a ``PluginError``."""
    first_line = source.split("\n", 1)[0]
    if not _OPENING.match(first_line):
        stripped = source.lstrip(" \t\n")
        if _OPENING.match(stripped.split("\n", 1)[0]) and stripped != source:
            line = source[: len(source) - len(stripped)].count("\n") + 1
            raise PluginError(f"{src_uri}:{line}: front matter must start on line 1 (blank lines before its '---'); {_PUBLISHED}")
        return get_data(source)[1]  # no YAML block: MultiMarkdown-style meta, or none
    match = YAML_RE.match(source)
    if match is None:
        raise PluginError(f"{src_uri}:1: front matter opened by '---' is not closed by '---' or '...' on a line "
                          f"of its own followed by a line break; {_PUBLISHED}")
    try:
        data = yaml.load(match.group(1), SafeLoader)
        yaml.load(match.group(1), _NoDuplicateKeys)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 2 if mark else 1  # the YAML starts on line 2
        raise PluginError(f"{src_uri}:{line}: front matter is not valid YAML ({exc.problem or exc.context}); {_PUBLISHED}") from None
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:  # dates like 2024-02-30
        raise PluginError(f"{src_uri}:1: front matter is not valid YAML ({exc}); {_PUBLISHED}") from None
    if not isinstance(data, dict):
        raise PluginError(f"{src_uri}:1: front matter must be a mapping of keys to values, got a {type(data).__name__}; {_PUBLISHED}")
    return data


class _NoDuplicateKeys(yaml.SafeLoader):
    def construct_mapping(self, node, deep=False):
        seen: dict[object, int] = {}
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key = self.construct_object(key_node, deep=True)
                if key in seen:
                    raise yaml.MarkedYAMLError(problem=f"key '{key}' given twice, also on line {seen[key]}",
                                               problem_mark=key_node.start_mark)
                seen[key] = key_node.start_mark.line + 2
        return super().construct_mapping(node, deep=deep)
