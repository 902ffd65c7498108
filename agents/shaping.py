"""Potential functions for the shaping of agents/sb3_env.py (`potential: "virus_envs.agents.shaping:<name>"` in a train config).

A potential Phi(state, seat) only redistributes credit in time: the env adds gamma * Phi(s') - Phi(s)
and Phi = 0 at the end, so the shaped rewards of an episode add up to the return minus Phi at the first
decision and the best policy for the return is unchanged (Ng, Harada & Russell 1999). Each reads only
what `view(seat)` shows.
"""
from __future__ import annotations

__all__ = ["virus_lab_progress"]


def virus_lab_progress(state, seat: int) -> float:
    """The co-operative `virus_lab_v0`: the team's steps towards the win, from the seat's view.

    exit open 1; each Research Lab used 1; each Clue on the table 0.5; the Antidote placed 1, carried by
    a Hero 1 more. (A win is +1 and a loss -1 for every seat; with shaping c the whole ladder is worth
    about c x 4.5.)
    """
    v = state.view(seat)
    phi = 1.0 if v["exit_open"] else 0.0
    phi += len(v["labs_used"]) + 0.5 * len(v["clues"])
    if v["antidote_cell"] >= 0 or v["antidote_holder"] >= 0:
        phi += 1.0
    if v["antidote_holder"] >= 0:
        phi += 1.0
    return phi
