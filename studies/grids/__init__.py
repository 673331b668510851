"""The grids: the sweep (one or two rule keys, or the player count, over a grid of
values) and the atlas (every preset against official at each player count). Both are
comparisons on the same deals whose variants are the points of a grid: their
dimensions, plays, results, charts, pages and files live here.
"""
