"""Parts of the MkDocs plugin (``citesearch.mkdocs_plugin``), one job per module."""
