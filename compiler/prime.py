"""A helper process that compiles part of the engine while the command compiles the
rest: ``python -m unosim.compiler.prime``.

Numba compiles on one core. On a first run of rounds the command starts this
process (compiling.first_use) with the path it compiles. For the plain round path
it compiles the rule steps ``apply_move`` calls (``STEPS``) into the shared cache,
while the command compiles its own share (``beside``: the kernels the strategies
call, the deal, the round's record and the folds of the records) and then waits
for this process to finish, so that its entry point finds every kernel it calls
in the cache and compiles only itself: without the wait the command reached the
rule steps before they were cached and compiled them a second time. The helper
then goes on with ``step_nb.apply_called`` (what a first search seat or plug-in
table steps with) until the command is done. For the other
round paths it compiles the round's record and ``step_nb.apply_called`` (the
steps behind a call, which a search seat steps with); on the search path it then
compiles the rollout (``SEARCH``: the opponent models and the leaf value) while
the command compiles the sampling of worlds and the candidates
(``beside_search``), and the command waits for it as on the plain path. On the
parametric paths the command does not wait. Either share only changes how soon
the cache is filled, never what is in it: a kernel missing from it compiles where
it is called, as on one core.
"""

from __future__ import annotations


def _types():  # type: ignore[no-untyped-def]
    from numba import types as T

    return (T, T.Array(T.int64, 1, "C"), T.Array(T.uint64, 1, "C"), T.int64)


#: the helper's share of the plain round path: the rule steps apply_move calls,
#: largest first (each compiles what it calls with it), by argument kinds: G the
#: game, R the generator, i int64, b bool
STEPS = (
    ("_house_decisions", "GRii"), ("_open_window", "GR"), ("_decide", "GRiii"),
    ("_hand_emptied", "GRii"), ("_offer_jump", "GR"), ("_leave_table", "GRii"),
    ("_give_chosen", "GRii"), ("_target_chosen", "GRii"), ("_uno_call", "GRi"),
    ("_penalty_answers", "Gi"), ("_challenge", "GRib"), ("_face_penalty", "GRi"),
    ("_end_round", "GRii"), ("_silent_twos", "GRi"), ("_take_back", "Gi"),
    ("_pass_turn", "Gi"), ("_reverse_deflect", "GRii"), ("cap_round", "G"),
    ("score_hands", "G"),
)


#: the line the helper prints when its share of the plain round path is cached
READY = "steps cached"
#: the command's share (``beside``) in the strategies and the rule steps
STRATEGIES = (("_choose_rest", "iGRii"), ("_with_colour", "iGiiR"),
              ("_attacker_colour", "GiiR"))
DEAL = (("deal", "GR"),)
#: the helper's share of the search path after the steps: the rollout, with every
#: built-in it may play the seats with (builtin_nb.choose_param) and the leaf value
SEARCH = (("_rollout", "GRiibi"),)
#: the command's share of the search path: what a decision does before it rolls out
SEARCH_BESIDE = (("candidates", "GR"), ("_unseen_pool", "Gi"), ("_sample_world", "GGRii"),
                 ("_copy_world", "Giii"), ("_seat_rollout_policies", "GGGii"),
                 ("_drop_worst", "Giii"))


def _compile_all(module: object, table: tuple[tuple[str, str], ...]) -> None:
    T, game, rng, i64 = _types()
    kinds = {"G": game, "R": rng, "i": i64, "b": T.boolean}
    for name, args in table:
        getattr(module, name).compile(tuple(kinds[a] for a in args))


def main(path: str = "rounds") -> None:
    """The helper's share: the rule steps (those of the plain round path; for the
    others everything behind ``step_nb.apply_called``, which they step with)."""
    import unosim  # noqa: F401 - sets the cache folder
    from unosim.compiler import inlining

    inlining.install()

    from unosim.simulate.round_nb import record_round
    from unosim.simulate.step_nb import apply_called

    T, game, rng, i64 = _types()
    if path == "rounds":
        from unosim.simulate import step_nb

        _compile_all(step_nb, STEPS)
        print(READY, flush=True)  # the command waits for this line (compiling._share)
        # then, beside the command's entry point: what a first search seat or plug-in
        # table steps with, so that it finds it cached; the command ends this process
        # when its entry point is compiled, done or not
        apply_called.compile((game, rng, i64))
        return
    record_round.compile((game, i64, T.Array(T.int32, 2, "C"), i64))
    apply_called.compile((game, rng, i64))
    if path == "rounds/search":
        from unosim.strategies import search_nb

        _compile_all(search_nb, SEARCH)
        print(READY, flush=True)


def beside() -> None:
    """The command's share while the helper runs (rounds of built-ins without
    parameters): the kernels the strategies' dispatch calls, the deal, the round's
    record and the folds of the records (aggregate.py), each with the types the
    round path calls it with."""
    from unosim.simulate import step_nb
    from unosim.simulate.fold_nb import fold_feel, fold_records
    from unosim.simulate.round_nb import record_round
    from unosim.strategies import builtin_nb

    T, game, rng, i64 = _types()
    _compile_all(builtin_nb, STRATEGIES)
    _compile_all(step_nb, DEAL)
    rec = T.Array(T.int32, 2, "C")
    i2 = T.Array(T.int64, 2, "C")
    record_round.compile((game, i64, rec, i64))
    fold_records.compile((rec, i64, game, T.Array(T.boolean, 1, "C"), i2, i2, i2, i2))
    fold_feel.compile((rec, i2, game))


def beside_search() -> None:
    """The command's share of the search path while the helper compiles the
    rollout."""
    from unosim.strategies import search_nb

    _compile_all(search_nb, SEARCH_BESIDE)


#: the command's share per path whose helper it waits for (compiling._share)
BESIDE = {"rounds": beside, "rounds/search": beside_search}


if __name__ == "__main__":
    import sys

    main(*sys.argv[1:2])
