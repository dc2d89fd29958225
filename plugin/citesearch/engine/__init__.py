"""The Python half of the search contract: analyzer, query, quote and site search.

Each module mirrors its JavaScript twin in ``theme/static/`` (``analyzer.js``,
``query.js``, ``quote.js``); the shared vectors in ``tests/vectors/`` hold both
to the same answers.
"""
