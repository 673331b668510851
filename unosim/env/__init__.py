"""Reinforcement-learning environments of UNO: a PettingZoo AEC environment
(``aec_env``) and a natively batched Gymnasium vector environment (``vector_env``)
over any preset or rule values, with the action and observation layouts
(``actions``, ``observation``) that every unosim environment shares, and RLCard's
encoding as an option of the AEC one (``rlcard_encoding``)."""

from unosim.env.actions import LAYOUT as ACTION_LAYOUT
from unosim.env.actions import N_ACTIONS
from unosim.env.aec import IllegalAction, UnoAEC, aec_env
from unosim.env.observation import OBS, OBS_SIZE
from unosim.env.rlcard_encoding import RULES as RLCARD_RULES
from unosim.env.vector import UnoVectorEnv, vector_env

__all__ = ["ACTION_LAYOUT", "N_ACTIONS", "OBS", "OBS_SIZE", "RLCARD_RULES", "IllegalAction",
           "UnoAEC", "UnoVectorEnv", "aec_env", "vector_env"]
