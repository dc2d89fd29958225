"""YAML written by users (citesearch.yml, front matter): plain data only.

PyYAML's ``safe_load`` still expands anchors and aliases, so 461 bytes of
nested aliases ("billion laughs") become billions of list items the moment
anything walks or prints them; it keeps the last of two equal keys without a
word; and it composes nested collections recursively, so ``[[[[...`` ends in
a RecursionError. None of that belongs in a config file or front matter, so
this loader refuses all three (and dates that do not exist, which PyYAML lets
escape as a ValueError) with a located ``yaml.MarkedYAMLError`` that
callers already turn into ``path:line: message``.
"""

from __future__ import annotations

import yaml

# Deeper than any real config or front matter, far below Python's stack limit.
MAX_DEPTH = 50
# User values quoted in messages are cut to this many characters.
QUOTE_LIMIT = 60


class RejectedYAML(yaml.MarkedYAMLError):
    """Valid YAML that citesearch refuses; ``problem_mark`` locates it."""

    def __init__(self, problem: str, mark: yaml.Mark):
        super().__init__(problem=problem, problem_mark=mark)


class StrictLoader(yaml.SafeLoader):
    """SafeLoader without anchors, aliases, duplicate keys or deep nesting."""

    def __init__(self, stream, first_line: int = 1):
        super().__init__(stream)
        self._depth = 0
        self._first_line = first_line  # line of the stream's first line in its file, for messages

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise RejectedYAML(f"aliases ('*{brief(event.anchor, quoted=False)}') are not allowed; write the value out", event.start_mark)
        if getattr(event, "anchor", None) is not None:
            raise RejectedYAML(f"anchors ('&{brief(event.anchor, quoted=False)}') are not allowed; write the value out", event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise RejectedYAML(f"values nested more than {MAX_DEPTH} levels deep", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1

    def construct_mapping(self, node, deep=False):
        first_line: dict[object, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue  # '<<' merges are SafeLoader's; a list or mapping key is rejected later as a wrong type
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line + self._first_line
            if key in first_line:
                raise RejectedYAML(f"duplicate key {brief(key)} (also on line {first_line[key]})", key_node.start_mark)
            first_line[key] = line
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_int(self, node):
        try:
            return super().construct_yaml_int(node)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise RejectedYAML("number too large", node.start_mark) from None

    def construct_yaml_timestamp(self, node):
        try:
            return super().construct_yaml_timestamp(node)
        except ValueError as exc:  # shaped like a date but none: 2024-02-30, month 13, hour 25
            raise RejectedYAML(f"invalid date {brief(node.value)} ({exc}); quote it to keep it as text", node.start_mark) from None


StrictLoader.add_constructor("tag:yaml.org,2002:int", StrictLoader.construct_yaml_int)
StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", StrictLoader.construct_yaml_timestamp)


def load_strict(text: str, first_line: int = 1) -> object:
    """Parse ``text`` (line ``first_line`` of its file) with :class:`StrictLoader`; raises ``yaml.YAMLError``."""
    loader = StrictLoader(text, first_line)
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def brief(value: object, quoted: bool = True) -> str:
    """A user value for a message: ``'value'``, cut short so a huge value cannot flood the output."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, int) and abs(value) > 10**QUOTE_LIMIT:
        text = "<a very large number>"  # repr() of a huge int raises ValueError
    elif isinstance(value, bool):
        text = "true" if value else "false"  # as YAML spells it
    elif isinstance(value, (int, float, type(None))):
        text = repr(value)
    else:
        text = f"<{type(value).__name__}>"  # never repr() a container: it may be huge
    text = text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1] + "…"
    return f"'{text}'" if quoted else text
