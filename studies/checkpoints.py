"""The studies' totals a checkpoint may hold; the format and the keeper are the run
layer's (``runs/checkpoint.py``), one for every command."""

from __future__ import annotations

from unosim.reports.atlas import AtlasPlayers, Effect
from unosim.reports.metrics import Moments, Paired
from unosim.reports.skill import SkillTotals
from unosim.reports.tournament import Totals
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
from unosim.studies.compare import CompareTotals

keepable(Moments, Paired, CompareTotals, SkillTotals, Totals, AtlasPlayers, Effect)
