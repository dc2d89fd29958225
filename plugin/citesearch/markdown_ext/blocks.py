"""Blocks: Python-Markdown's block parser, without testing processors that cannot apply.

For every block, Python-Markdown asks each block processor in turn whether it
applies; several answer by searching the whole block with a regular
expression (is there a heading line, a rule, a quote, a table row?).  A
block without a ``#`` holds no heading, one without ``|`` no table row.
``BlockExtension`` gives the parser a ``parseBlocks`` that skips a processor
when the block lacks a character every block it applies to contains, which
is what its failed test would do: the tree is the same.

Only the processors listed here, with the regular expressions checked
against Python-Markdown's own, are ever skipped.
"""

from __future__ import annotations

import types
from typing import Callable

from markdown import Markdown, blockparser, blockprocessors
from markdown.extensions import Extension
from markdown.extensions.tables import TableProcessor

# (processor class, its regular expression) -> whether a block holds what the processor needs.
_CAN_APPLY: dict[tuple[type, str | None], Callable[[str], bool]] = {
    (blockprocessors.HashHeaderProcessor,
     r'(?:^|\n)(?P<level>#{1,6})(?P<header>(?:\\.|[^\\#]|#+(?=[^#\n]))*?)#*(?:\n|$)'): lambda block: "#" in block,
    (blockprocessors.HRProcessor,
     r'^[ ]{0,3}(?=(?P<atomicgroup>(-+[ ]{0,2}){3,}|(_+[ ]{0,2}){3,}|(\*+[ ]{0,2}){3,}))(?P=atomicgroup)[ ]*$'):
        lambda block: "-" in block or "_" in block or "*" in block,
    (blockprocessors.BlockQuoteProcessor, r'(^|\n)[ ]{0,3}>[ ]?(.*)'): lambda block: ">" in block,
    # Its test is always true; its run gives the block back and returns False unless a definition matches.
    (blockprocessors.ReferenceProcessor,
     r'''^[ ]{0,3}\[([^\[\]]*)\]:[ ]*(?:\n[ ]*)?([^\s]+)[ ]*(?:\n[ ]*)?((["\'])(.*)\4[ ]*|\((.*)\)[ ]*)?$'''):
        lambda block: "]:" in block,
    # A table's first line has a '|': cells split at one, or the border is one.
    (TableProcessor, None): lambda block: "|" in block,
}


def can_apply_test(processor: blockprocessors.BlockProcessor) -> Callable[[str], bool] | None:
    """A quick test that is false only for blocks the processor leaves alone; None to always ask it."""
    regex = getattr(processor, "SEARCH_RE", None) or getattr(processor, "RE", None)
    return _CAN_APPLY.get((type(processor), getattr(regex, "pattern", None)))


def _parse_document(self: blockparser.BlockParser, lines: list[str]):
    # The processors to try, found once per document (parseBlocks runs once per nested block).
    self.citesearch_tries = _tries(self)
    try:
        return blockparser.BlockParser.parseDocument(self, lines)
    finally:
        del self.citesearch_tries


def _tries(parser: blockparser.BlockParser) -> list[tuple[blockprocessors.BlockProcessor, Callable[[str], bool] | None]]:
    return [(processor, can_apply_test(processor)) for processor in parser.blockprocessors]


def _parse_blocks(self: blockparser.BlockParser, parent, blocks: list[str]) -> None:
    # BlockParser.parseBlocks, plus the ``can_apply`` test before asking each processor.
    tries = getattr(self, "citesearch_tries", None) or _tries(self)
    while blocks:
        for processor, can_apply in tries:
            if can_apply is not None and not can_apply(blocks[0]):
                continue
            if processor.test(parent, blocks[0]):
                if processor.run(parent, blocks) is not False:
                    break


class BlockExtension(Extension):
    """Python-Markdown extension: the same block parsing, faster (see the module's docstring)."""

    def extendMarkdown(self, md: Markdown) -> None:
        md.parser.parseDocument = types.MethodType(_parse_document, md.parser)
        md.parser.parseBlocks = types.MethodType(_parse_blocks, md.parser)
