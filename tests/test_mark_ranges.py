"""The analyzer's combining-mark class comes from a shipped table: it must be this Python's Unicode database."""

from __future__ import annotations

import unicodedata

import pytest

from citesearch.engine import mark_ranges


@pytest.mark.skipif(unicodedata.unidata_version != mark_ranges.UNIDATA_VERSION, reason="another Unicode version: scanned")
def test_shipped_ranges_are_the_scanned_ones():
    assert list(mark_ranges.RANGES) == mark_ranges.scanned()


def test_another_unicode_version_is_scanned(monkeypatch):
    monkeypatch.setattr(mark_ranges, "UNIDATA_VERSION", "0.0.0")
    monkeypatch.setattr(mark_ranges, "RANGES", ((0x300, 0x300),))
    assert mark_ranges.mark_ranges() == mark_ranges.scanned()
