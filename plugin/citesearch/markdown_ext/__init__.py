"""Python-Markdown extensions that know nothing of citesearch's site model.

``chunk`` cuts a document into passages with stable anchors, ``links`` rewrites
links between Markdown sources, ``text`` reads an element's plain text.  Any
Python-Markdown user (the standalone build, an MkDocs plugin) can add them.
"""
