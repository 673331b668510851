"""The studies' totals a checkpoint may hold; the format and the keeper are the run
layer's (``runs/checkpoint.py``), one for every command."""

from __future__ import annotations

from unosim.runs.checkpoint import (  # noqa: F401 - the names the commands use
    FILE_NAME,
    Keeper,
    decode,
    digest,
    encode,
    keepable,
    load,
    path_in,
    save,
    unfinished,
)
from unosim.studies.compare.totals import CompareTotals, Moments, Paired
from unosim.studies.grids.atlas import AtlasPlayers, Effect
from unosim.studies.lineups.skill_edge import SkillTotals
from unosim.studies.lineups.tournament_totals import Totals

keepable(Moments, Paired, CompareTotals, SkillTotals, Totals, AtlasPlayers, Effect)
