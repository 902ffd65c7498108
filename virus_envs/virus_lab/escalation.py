"""Virus, Campaign mode: how the next play is made harder after a game the Heroes won.

"Following games. If the previous game has been won by Heroes, the next play must be increased in difficulty. You can
do that in several ways: - Increasing difficulty level. - Adding Legend Tiles. - Playing one of the three available
Scenario (or a your customized Scenario!) - Adding the Spy modality ... - Adding a player which plays as Boss (you can
repeat this point adding another player which plays as another Boss). - Adding the special Teleport-Drifting rooms and
the Morbo card. - Adding the Additional Final Attack element."

The ways are named as config keys ("key=value" sets a value, a later one replaces the one before; "+" joins the keys
of one element); `WAYS[i]` is option i of the players' choice (`slow option i`). Two readings (config
`campaign_escalation`, assumption 38):
- `"choice"` (default, the literal "You can do that in several ways"): after a won game the Lead player chooses one
  of the ways still open (`open_ways`);
- `"ladder"`: the campaign climbs a fixed order, the engine's (`default_order`: the level up to 3, then `ladder`) or
  the user's (config `campaign_ladder`, checked by `parse_order`).
"""
from __future__ import annotations

DIFFICULTY = "difficulty"           # "Increasing difficulty level" (by one, up to 3)
SPY_STEP, BOSS_STEPS = "spy", ("boss_players=1", "boss_players=2")
SPECIAL = "teleport_rooms+drifting_rooms+morbo"
SCENARIOS = ("scenario=reboot", "scenario=save_the_child", "scenario=captive")
# the engine's ladder after the level: the Additional Final Attack (the smallest change to a game), then the rest of
# the rulebook's list in its order
ESCALATION = ("final_attack", "legend") + SCENARIOS + (SPY_STEP,) + BOSS_STEPS + (SPECIAL,)
WAYS = (DIFFICULTY,) + ESCALATION
MODES = ("choice", "ladder")
LEAD = 0        # who chooses: the next game's first Lead player (the engine's setup gives the lead to seat 0)


def extra_config(extras) -> dict:
    """The config of the escalation's elements: `name` -> True, `name=value` -> value (a number for digits; the last
    one wins); "+" joins the keys of one element."""
    out = {}
    for e in extras:
        for part in e.split("+"):
            k, _, v = part.partition("=")
            out[k] = (int(v) if v.isdigit() else v) if v else True
    return out


def ladder(heroes: int, boss_seats: int, spy_on: bool = False, boss_from_start: bool = False,
           config: dict | None = None) -> tuple:
    """The escalation steps a campaign can take (its ways but the level): "Adding the Spy modality" with 2 Heroes or
    more (Spy Mode needs them) when its games are not in Spy Mode already; "Adding a player which plays as Boss" once
    per seat the campaign reserved for a Boss player (config `boss_players`) who joins by the escalation; no step
    whose element the campaign's config already has on (it would not make the next play harder)."""
    out = []
    for e in ESCALATION:
        if e == SPY_STEP and (heroes < 2 or spy_on):
            continue
        if e in BOSS_STEPS:
            if boss_from_start or BOSS_STEPS.index(e) >= boss_seats:
                continue
        elif config is not None and all(config.get(k) == v for k, v in extra_config([e]).items()):
            continue
        out.append(e)
    return tuple(out)


def default_order(difficulty: int, steps) -> tuple:
    """The engine's ladder: the difficulty level up to 3, then the steps (`ladder`) in their order."""
    return (DIFFICULTY,) * (3 - difficulty) + tuple(steps)


def parse_order(text: str, difficulty: int, steps) -> tuple:
    """Config `campaign_ladder`: comma-separated ways, climbed in that order ("" = `default_order`). ValueError naming
    the key and the step at fault: an unknown way, a way the campaign cannot take (not in `steps`), one given twice,
    "difficulty" more often than levels remain above `difficulty`, a second Boss player before the first."""
    if not text.strip():
        return default_order(difficulty, steps)
    out = []
    for w in (x.strip() for x in text.split(",")):
        if w not in WAYS:
            raise ValueError(f"config key 'campaign_ladder': unknown step {w!r} (known: {', '.join(WAYS)})")
        if w == DIFFICULTY:
            if out.count(DIFFICULTY) >= 3 - difficulty:
                raise ValueError(f"config key 'campaign_ladder': step {w!r} more than {3 - difficulty} time(s): "
                                 f"the level goes from {difficulty} up to 3")
        elif w not in steps:
            raise ValueError(f"config key 'campaign_ladder': step {w!r} is not a way this campaign can take (its "
                             f"steps: {', '.join(steps) or 'none'})")
        elif w in out:
            raise ValueError(f"config key 'campaign_ladder': step {w!r} given twice")
        elif w == BOSS_STEPS[1] and BOSS_STEPS[0] not in out:
            raise ValueError(f"config key 'campaign_ladder': step {w!r} before {BOSS_STEPS[0]!r}")
        out.append(w)
    return tuple(out)


def open_ways(difficulty: int, steps, chosen) -> list[str]:
    """The ways still open to the players' choice: "Increasing difficulty level" below 3; a step of the campaign's
    `steps` not yet chosen (a Scenario not yet played; the Spy once); "Adding a player which plays as Boss" while a
    reserved seat is free (the second Boss player after the first)."""
    out = [DIFFICULTY] if difficulty < 3 else []
    for e in steps:
        if e in chosen or (e == BOSS_STEPS[1] and BOSS_STEPS[0] not in chosen):
            continue
        out.append(e)
    return out


def next_rung(order, chosen) -> str | None:
    """The ladder's next step: the first of `order` not yet climbed (None: the top, the games stay as they are)."""
    return order[len(chosen)] if len(chosen) < len(order) else None


def configure(g) -> None:
    """Game set-up: `g.ladder` (the steps the campaign can take), `g.escalation`, `g.order` (the ladder climbed with
    `campaign_escalation="ladder"`; empty with `"choice"`)."""
    c = g.config
    g.ladder = ladder(g.num_heroes, c["boss_players"], bool(c["spy"]), c["campaign_boss_from"] == "start", c)
    g.escalation = c["campaign_escalation"]
    if c["campaign_ladder"].strip() and (not c["campaign_games"] or g.escalation != "ladder"):
        raise ValueError("config key 'campaign_ladder': an order of steps needs campaign_games > 0 and "
                         "campaign_escalation='ladder'")
    g.order = parse_order(c["campaign_ladder"], c["difficulty"], g.ladder) if g.escalation == "ladder" else ()
