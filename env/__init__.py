"""Reinforcement-learning environments of UNO: a PettingZoo AEC environment
(``aec_env``) and a natively batched Gymnasium vector environment (``vector_env``)
over any preset or rule values, with the action and observation layouts
(``actions``, ``observation``) that every unosim environment shares, and RLCard's
encoding as an option of the AEC one (``rlcard_encoding``)."""

#: what an import without the extra says, as ``unosim play`` and Parquet do
EXTRA = 'unosim.env needs the extra \'rl\' (PettingZoo and Gymnasium): pip install "unosim[rl]"'

try:
    import gymnasium  # noqa: F401
    import pettingzoo  # noqa: F401
except ModuleNotFoundError as e:
    # only the extra's own packages: any other missing module is a real error
    if (e.name or "").partition(".")[0] not in ("gymnasium", "pettingzoo"):
        raise
    raise ModuleNotFoundError(f"{EXTRA} ({e.name} is missing)", name=e.name) from None

from unosim.env.actions import LAYOUT as ACTION_LAYOUT  # noqa: E402
from unosim.env.actions import N_ACTIONS  # noqa: E402
from unosim.env.aec import IllegalAction, UnoAEC, aec_env  # noqa: E402
from unosim.env.observation import OBS, OBS_SIZE  # noqa: E402
from unosim.env.rlcard_encoding import RULES as RLCARD_RULES  # noqa: E402
from unosim.env.vector import UnoVectorEnv, vector_env  # noqa: E402

__all__ = ["ACTION_LAYOUT", "N_ACTIONS", "OBS", "OBS_SIZE", "RLCARD_RULES", "IllegalAction",
           "UnoAEC", "UnoVectorEnv", "aec_env", "vector_env"]
