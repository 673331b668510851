"""Reinforcement-learning environments of UNO: a PettingZoo AEC environment
(``aec_env``) over any preset or rule values, with the action and observation layouts
(``actions``, ``observation``) that every unosim environment shares."""

from unosim.env.actions import LAYOUT as ACTION_LAYOUT
from unosim.env.actions import N_ACTIONS
from unosim.env.aec import IllegalAction, UnoAEC, aec_env
from unosim.env.observation import OBS, OBS_SIZE

__all__ = ["ACTION_LAYOUT", "N_ACTIONS", "OBS", "OBS_SIZE", "IllegalAction", "UnoAEC",
           "aec_env"]
