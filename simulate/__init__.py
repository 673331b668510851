"""The simulation engine: rules, compiled step functions and the batch runner.

Compiled kernels live in the ``*_nb`` modules; everything else is the Python side.
"""
