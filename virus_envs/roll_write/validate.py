"""Checks of a Virus!: Roll & Write state dict before it is loaded (`RollWriteGame._validate_dict`).

Each check is a fact every reachable position keeps, so an edited or truncated dict is refused with
a ValueError naming the field instead of playing on from a position no game can reach: lengths
against the number of players, dice values 1-6, sheet boxes that exist on the sheet, counts not
negative, the dice of each seat conserved within the round, round and turn ranges, and wildcards
never used more often than circled.
"""
from __future__ import annotations

from ..core.validate import check_bool, check_int, check_ints, check_list, fail
from .sheet import WILDCARD


def check_state(g, d: dict) -> None:
    """Refuse a dict no game of `g` can reach (ValueError naming the field)."""
    env, n, sh = g.env_id, g.num_players, g.sheet
    L = g.num_lab_slots
    terminal = check_bool(env, "terminal", d["terminal"])
    truncated = check_bool(env, "truncated", d["truncated"])
    if truncated and not terminal:
        raise fail(env, "truncated", "is true but 'terminal' is false")
    check_bool(env, "prio_taken", d["prio_taken"])

    # "You will play 5 rounds if you are 2 players, 7 if you are 3 players, and 8 if you are 4"
    rnd = check_int(env, "rnd", d["rnd"], 0, g.rounds)
    if (rnd == g.rounds) != (terminal and not truncated):
        raise fail(env, "rnd", f"is {rnd} with terminal={terminal}, truncated={truncated}: it counts the rounds "
                               f"played and reaches {g.rounds} exactly when the last round ends the game")
    for k in ("priority", "starter"):
        check_int(env, k, d[k], 0, n - 1)
    turns = check_int(env, "turns", d["turns"], 0, g.config["max_turns"])
    if truncated and turns != g.config["max_turns"]:
        raise fail(env, "turns", f"is {turns}: a truncated game stopped at max_turns={g.config['max_turns']}")
    placed = check_int(env, "placed", d["placed"], 0, g.per_round)

    # the dice: counts per value 1-6 (index 0 unused), per seat
    for k in ("reserve", "contam"):
        check_list(env, k, d[k], n)
        for p, r in enumerate(d[k]):
            check_ints(env, f"{k}[{p}]", r, 7, 0, g.dice)
            if r[0]:
                raise fail(env, f"{k}[{p}][0]", "must be 0: dice show 1 to 6")
    _check_sheets(g, d, env, n, sh, rnd)
    table = _check_cards(g, d, env, n, L)

    # "Each player takes the 3 dice of one color" (6 with 2 players): no die appears or vanishes
    for p in range(n):
        held = sum(d["reserve"][p]) + table[p] + sum(d["contam"][p])
        if held != g.dice:
            raise fail(env, f"reserve[{p}]", f"with the dice of seat {p} on the cards and on the contaminated "
                                              f"samples card makes {held} dice; seat {p} has {g.dice}")
    out = g.per_round - sum(sum(r) for r in d["reserve"])
    pending = check_list(env, "pending", d["pending"])
    # a die leaves the reserve when placed; `placed` counts it once all it gave is crossed off
    # (decisions pend only from the placement being resolved)
    if placed + (1 if pending else 0) != out:
        raise fail(env, "placed", f"is {placed}, but {out} dice have left the reserves this round"
                                  f"{' (one placement still being resolved)' if pending else ''}")
    wild_die = check_int(env, "wild_die", d["wild_die"], 0, 6)
    _check_decisions(g, d, env, n, pending, wild_die)


def _check_cards(g, d, env, n, L) -> list[int]:
    """Trial and laboratory slots: a value 1-6 with its owner, or empty (0, -1). Dice per owner."""
    table = [0] * n
    for vals, owns, size in (("trial", "trial_own", 8), ("lab", "lab_own", L)):
        check_ints(env, vals, d[vals], size, 0, 6)
        check_ints(env, owns, d[owns], size, -1, n - 1)
        for j, (v, o) in enumerate(zip(d[vals], d[owns])):
            if (v == 0) != (o == -1):
                raise fail(env, f"{owns}[{j}]", f"is {o} for a slot holding {v}: an empty slot has owner -1, "
                                                "a die has its owner's seat")
            if v:
                table[o] += 1
    trial, town, grid = d["trial"], d["trial_own"], d["grid"]
    for c in range(4):
        a, b = trial[2 * c], trial[2 * c + 1]
        if b and not a:
            raise fail(env, f"trial[{2 * c + 1}]", "holds a die while the first slot of its card is empty")
        # "you must be able to cross off the resulting box": whoever placed a die has that box crossed
        for j, box in ((2 * c, a), (2 * c + 1, a + b)):
            if trial[j] and not grid[town[j]][c] >> box & 1:
                raise fail(env, f"trial[{j}]", f"holds the die of seat {town[j]}, whose grid lacks the box {box} "
                                               "that die crossed off")
    lab = d["lab"]
    for j in range(L):
        res, card = g.slot_result[j], g.lab_names[g.slot_card[j]]
        if g.slots == 1:
            if lab[j] and not res[lab[j]]:
                raise fail(env, f"lab[{j}]", f"holds {lab[j]}, which does not meet the condition of card {card}")
        elif j % 2 == 1 and lab[j - 1] and lab[j] and not res[lab[j - 1]][lab[j]]:
            # a first die on a double card may show anything; the pair must meet the condition
            raise fail(env, f"lab[{j - 1}]", f"and lab[{j}] hold {lab[j - 1]} (left) and {lab[j]} (right), which "
                                             f"do not meet the condition of card {card}")
    return table


def _check_sheets(g, d, env, n, sh, rnd) -> None:
    """Score sheets: boxes that exist, wildcard tube, virus tube, discovered cures."""
    check_list(env, "grid", d["grid"], n)
    for p in range(n):
        check_ints(env, f"grid[{p}]", d["grid"][p], 4, 0)
        for c in range(4):
            if d["grid"][p][c] & ~sh.full[c]:
                raise fail(env, f"grid[{p}][{c}]", f"crosses off a box the {('blue', 'red', 'green', 'yellow')[c]} "
                                                   "grid does not have")
    check_ints(env, "labrow", d["labrow"], n, 0)
    for p, m in enumerate(d["labrow"]):
        if m & ~sh.lab_full:
            raise fail(env, f"labrow[{p}]", "crosses off a box the laboratory row does not have")
    check_ints(env, "wild", d["wild"], n, 0)
    check_ints(env, "wused", d["wused"], n, 0)
    for p in range(n):
        circled = d["wild"][p] + d["wused"][p]          # every box ever circled, used or not
        if circled > sh.wildcard_boxes:
            raise fail(env, f"wild[{p}]", f"{d['wild'][p]} circled and {d['wused'][p]} used exceed the "
                                          f"{sh.wildcard_boxes} boxes of the wildcard tube")
        # "you start the game with one wildcard already circled"; more come only from wildcard boxes
        earned = sum(1 for v in sh.lab_values if sh.lab_advantage[v] == WILDCARD and d["labrow"][p] >> v & 1)
        if not sh.wildcards_at_start <= circled <= sh.wildcards_at_start + earned:
            raise fail(env, f"wused[{p}]", f"{d['wused'][p]} used and {d['wild'][p]} still circled: seat {p} "
                                           f"started with {sh.wildcards_at_start} and earned {earned}")
    check_list(env, "virus", d["virus"], n)
    for p in range(n):
        # "write the total in the first free box of the virus tube": one box per round played
        check_ints(env, f"virus[{p}]", d["virus"][p], rnd, 0, 6 * g.dice)
    check_list(env, "cure", d["cure"], n)
    for p in range(n):
        check_ints(env, f"cure[{p}]", d["cure"][p], 4, 0, 2)
    for c in range(4):
        marks = {d["cure"][p][c] for p in range(n)}
        # "All other players must immediately cross off that same box": open for all, or claimed
        if marks not in ({0}, {1}, {1, 2}):
            raise fail(env, "cure", f"colour {c}: marks {sorted(marks)}; a cure is open for all, or marked by its "
                                    "finders and crossed out for the others")
        for p in range(n):
            if d["cure"][p][c] == 1 and d["grid"][p][c] != sh.full[c]:
                raise fail(env, f"cure[{p}][{c}]", "marks a speed bonus for a grid that is not complete")


def _check_decisions(g, d, env, n, pending, wild_die) -> None:
    """Decisions waiting (extra cross-offs, circles), cures found, the die changed by a wildcard."""
    for i, x in enumerate(pending):
        check_ints(env, f"pending[{i}]", x, 3)
        check_int(env, f"pending[{i}][0]", x[0], 0, n - 1)
        kind = check_int(env, f"pending[{i}][1]", x[1], 0, 1)
        check_int(env, f"pending[{i}][2]", x[2], -1 if kind == 0 else 0, 3 if kind == 0 else 0)
    found = check_list(env, "found", d["found"])
    for i, x in enumerate(found):
        check_ints(env, f"found[{i}]", x, 2)
        check_int(env, f"found[{i}][0]", x[0], 0, n - 1)
        check_int(env, f"found[{i}][1]", x[1], 0, 3)
    if found and not pending:
        raise fail(env, "found", "lists cures while no decision is pending: they are claimed when the placement "
                                 "is resolved")
    if wild_die:
        p = (d["starter"] + d["placed"]) % n
        if pending:
            raise fail(env, "wild_die", "is set while an extra cross-off or circle is pending")
        if d["reserve"][p][wild_die] < 1:
            raise fail(env, "wild_die", f"is {wild_die}, but seat {p} holds no die showing it")
        if not g.wild_then_contaminate and not g._state_from_dict(d).legal_action_mask().any():
            raise fail(env, "wild_die", f"is {wild_die}: with wildcard_then_contaminate=False the changed die must "
                                        "go on a trial or laboratory card, and none takes it")
