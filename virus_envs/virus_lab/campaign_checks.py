"""The loader's checks of a campaign (`campaign_games`): the campaign record carried between games, and the
per-game records a campaign adds to a game's state (a Hero's stats, kills, Boss kills, Skill cards gone).
Moved out of campaign.py, which holds the rules; the checks are the loader's (see checks.py)."""
from __future__ import annotations

from ..core.validate import check_int, check_ints, check_list, fail
from . import escalation as escalation_mod
from .campaign import Campaign, new_hero
from .escalation import DIFFICULTY, LEAD
from .skills import NUM_SKILLS


def validate_game(g, d) -> None:
    env, n = g.env_id, g.num_players
    for q, row in enumerate(check_list(env, "cstats", d["cstats"], n)):
        check_ints(env, f"cstats[{q}]", row, 3, 0, 2 * 64)
    kills = check_ints(env, "kills", d["kills"], n, 0)
    boss_xp = check_ints(env, "boss_xp", d["boss_xp"], n, 0)
    # "Each player keeps killed creature miniatures near their own player board", "All Heroes, which are in combat
    # in the same room of Boss when the Boss dies, gain 1": the kills of a Hero; a Boss player's seat (the last
    # `boss_players`) never had one (an infected Hero turned Boss keeps a Hero seat, and his kills)
    for q in range(g.num_heroes, n):
        for field, got in (("kills", kills[q]), ("boss_xp", boss_xp[q])):
            if got:
                raise fail(env, field, f"seat {q} is a Boss player, with no Hero to kill with: 0, got {got}")
    check_ints(env, "sk_gone", d["sk_gone"], None, 0, NUM_SKILLS - 1)


def validate_campaign(g, d) -> None:
    """The campaign record of a `campaign_games` state dict (the inner game is checked by its own loader)."""
    env, n = g.env_id, g.num_players
    c = d["campaign"]
    if not isinstance(c, dict):
        raise fail(env, "campaign", "must be a dict")
    for k in Campaign.KEYS:
        if k not in c:
            raise fail(env, f"campaign.{k}", "missing")
    check_int(env, "campaign.n", c["n"], n, n)
    check_int(env, "campaign.games", c["games"], g.config["campaign_games"], g.config["campaign_games"])
    check_int(env, "campaign.difficulty", c["difficulty"], 1, 3)
    b = g.config["boss_players"] if g.config["campaign_boss_from"] != "start" else 0
    check_int(env, "campaign.boss_seats", c["boss_seats"], b, b)
    if c["ladder"] != list(g.ladder):
        raise fail(env, "campaign.ladder", f"must be this campaign's ladder {list(g.ladder)}, got {c['ladder']!r}")
    if c["escalation"] != g.escalation:
        raise fail(env, "campaign.escalation", f"must be this campaign's {g.escalation!r}, got {c['escalation']!r}")
    if c["order"] != list(g.order):
        raise fail(env, "campaign.order", f"must be this campaign's order {list(g.order)}, got {c['order']!r}")
    chosen = check_list(env, "campaign.chosen", c["chosen"])
    if g.escalation == "ladder" and chosen != list(g.order[:len(chosen)]):
        raise fail(env, "campaign.chosen", f"must be the first steps of {list(g.order)}, got {chosen!r}")
    for i, w in enumerate(chosen):
        if w not in escalation_mod.open_ways(g.config["difficulty"] + chosen[:i].count(DIFFICULTY), g.ladder,
                                             chosen[:i]):
            raise fail(env, f"campaign.chosen[{i}]", f"{w!r} is not a way open after {chosen[:i]!r}")
    if c["difficulty"] != g.config["difficulty"] + chosen.count(DIFFICULTY):
        raise fail(env, "campaign.difficulty", "must be the first game's plus the levels chosen")
    ext = [w for w in chosen if w != DIFFICULTY]
    owned = []
    for q, h in enumerate(check_list(env, "campaign.heroes", c["heroes"], n)):
        if not isinstance(h, dict) or sorted(h) != sorted(new_hero()):
            raise fail(env, f"campaign.heroes[{q}]", f"must have the keys {sorted(new_hero())}")
        for k in ("xp", "knowledge", "stamina", "hit_points"):
            check_int(env, f"campaign.heroes[{q}].{k}", h[k], 0)
        owned += check_ints(env, f"campaign.heroes[{q}].skills", h["skills"], None, 0, NUM_SKILLS - 1)
    if len(owned) != len(set(owned)):
        raise fail(env, "campaign.heroes", "a Skill card owned twice")
    played = len(check_list(env, "campaign.results", c["results"]))
    if played > c["games"]:
        raise fail(env, "campaign.results", "more games than the campaign has")
    for k in ("xp_log", "returns_log"):
        if len(check_list(env, f"campaign.{k}", c[k])) != played:
            raise fail(env, f"campaign.{k}", "must hold one row per game played")
        for i, row in enumerate(c[k]):
            check_list(env, f"campaign.{k}[{i}]", row, n)
    if (d["inner"] is None) == (not c["pre"]) and not len(c["results"]) >= c["games"]:
        raise fail(env, "inner", "a campaign is either in a Pre-Play or in a game")
    if len(chosen) > sum(1 for r in c["results"] if r is True):
        raise fail(env, "campaign.chosen", "more ways chosen than games the Heroes won")
    if c["pre"] and c["pre"].get("step") == "raise" and (g.escalation != "choice" or not escalation_mod.open_ways(
            c["difficulty"], g.ladder, chosen) or c["pre"].get("seat") != LEAD):
        raise fail(env, "campaign.pre.step", "the choice of a way: only with campaign_escalation='choice', a way "
                                             "open, the Lead player to choose")
    if d["inner"] is not None:
        g.inner_game(c["difficulty"], ext).state_from_dict(d["inner"])
