"""Cited-snippet search for a site another generator built: ``citesearch index SITE``.

A built HTML page becomes the same plain ``SearchPage`` and ``Chunk`` values a
Markdown document does (``reader``), cut by the same rules (``passages``
shares ``markdown_ext.chunk.cut``); the index stage never asks where a page
came from.  ``command`` walks the site, ``widget`` puts the box into pages.
"""
