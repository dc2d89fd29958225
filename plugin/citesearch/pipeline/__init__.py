"""The standalone build, one module per stage: load, parse, check, render, index, write.

``build`` runs the stages in order; ``serve`` reuses ``build.assemble``.
"""
