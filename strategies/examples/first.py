"""A first strategy in plain Python (docs: Write a strategy).

    unosim --strategy-file strategies/examples/first.py:keep_wilds --seat 0=keep_wilds
"""


def keep_wilds(view):
    """Play a coloured card when one fits, the highest first; a wild only when
    nothing else does; draw when nothing fits."""
    plays = [m for m in view.legal if m[0] in "rygb"]
    if plays:
        return max(plays, key=lambda m: m[1:])  # "skip" > "reverse" > "draw2" > 9 > .. > 0
    wilds = [m for m in view.legal if m.startswith("wild")]
    if wilds:
        colours = [c[0] for c in view.hand]
        return max(wilds, key=lambda m: colours.count(m.split(":")[1][0]))
    return view.legal[0]
