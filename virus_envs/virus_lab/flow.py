"""Virus: the decision (phase) codes, the queue steps of a turn and the rule constants shared by the rule mixins."""

__all__ = ["PH_NONE", "PH_EVENT", "PH_TRAP", "PH_ACT", "PH_ROLL", "PH_RESULT", "PH_SPEND", "PH_SHIELD", "PH_CLUE",
           "PH_GAIN", "PH_BUY", "PH_RESPAWN", "PH_FOUR", "PH_SLOW", "PH_WOUND", "PH_REFILL", "PH_FLIP", "PH_DISCARD",
           "PH_DEATH_FLIP", "PH_RESTORE", "PH_LATE", "PH_SKILL", "PH_SCENARIO", "PHASES", "NUM_PHASES", "Q_EVENT", "Q_TRAP", "Q_EXTRA",
           "Q_RT", "Q_END_RT", "Q_SLOW", "Q_PLACE", "Q_DAMAGE", "Q_DEEP", "Q_GAIN", "Q_RECOVER", "Q_RESPAWN",
           "Q_NEXT", "Q_FOUR", "Q_PLACE_P", "Q_REFILL", "Q_WOUNDS", "Q_RT_GO",
           "Q_DEEP_END", "Q_FINAL", "Q_LATE", "Q_SKILLS", "Q_PVP", "PH_BOSS", "Q_BOSS", "RET_QUEUE", "RET_RT",
           "START_CARD", "EXIT_CARD", "SCEN_CARD",
           "HP_BY_LEVEL", "BOSSES_BY_LEVEL",
           "RES_CAP", "CASH", "LAST_TURN", "MAX_FACE_DOWN"]

# decisions (phase codes) in the rulebook's words
(PH_NONE, PH_EVENT, PH_TRAP, PH_ACT, PH_ROLL, PH_RESULT, PH_SPEND, PH_SHIELD, PH_CLUE, PH_GAIN, PH_BUY,
 PH_RESPAWN, PH_FOUR, PH_SLOW, PH_WOUND, PH_REFILL, PH_FLIP, PH_DISCARD, PH_DEATH_FLIP,
 PH_RESTORE) = range(20)
PH_LATE = 20        # real_time=True (clock.py): declare a late start before the phase
PH_SKILL = 21       # skills on (skills.py): take a Skill card / place cubes on one / keep 2 of them
PH_SCENARIO = 22    # a scenario on (scenarios.py): the Lead player's count of the Room Positioning Method
PH_BOSS = 23        # Boss players (boss_actions.py): a Boss action in the Slow phase
PHASES = ("(automatic)", "event phase: keep or redraw the Event", "event phase: trap check", "real time phase",
          "combat: build the roll", "combat: check results", "combat: use Successes", "damage: spend Shields",
          "research lab: keep or redraw the Clue", "turn end: gain resources", "turn end: spend resources",
          "turn end: the dead Hero returns", "slow phase: use a Four-leaf token",
          "slow phase: a Creature choice", "wound: keep or redraw the Wound card",
          "keep or redraw the Room card just drawn (refill, Net)",
          "advantage: flip a face-up card of the Rooms display", "turn end: choose the display cards to discard",
          "death: flip room cards face down on the Rooms display",
          "advantage recovered: flip a used card of the Rooms display face up",
          "real time: declare a late start (15 s later: 1 Advantage recovered)",
          "setup: Skill cards (take one, bid Action cubes on one, keep two)",
          "scenario: the Room Positioning Method (count straight ahead, left or right)",
          "slow phase: a Boss player's action (activate, deactivate, movement, heal, transform, add minions)")
NUM_PHASES = len(PHASES)
# queue steps
(Q_EVENT, Q_TRAP, Q_EXTRA, Q_RT, Q_END_RT, Q_SLOW, Q_PLACE, Q_DAMAGE, Q_DEEP, Q_GAIN, Q_RECOVER, Q_RESPAWN,
 Q_NEXT, Q_FOUR, Q_PLACE_P, Q_REFILL, Q_WOUNDS, Q_RT_GO, Q_DEEP_END) = range(19)
Q_FINAL = 19        # the Additional Final Attack (final_attack.py), at the start of the Slow phase
Q_LATE = 20         # real_time=True: one player's late-start declaration
Q_SKILLS = 21       # skills on: the Skill assignment before the first Real Time phase
Q_PVP = 22          # pvp on (pvp.py): PvP Damage points and Dodges "applied at the beginning of the Slow phase"
Q_BOSS = 23         # Boss players: the infected Hero check and the Boss actions, at the start of the Slow phase
RET_QUEUE, RET_RT = 0, 1

START_CARD, EXIT_CARD = 144, 145
SCEN_CARD = 146     # the Scenario room (scenarios.py): a grey card outside the Room deck
HP_BY_LEVEL = {1: 8, 2: 7, 3: 6}
BOSSES_BY_LEVEL = {1: 0, 2: 1, 3: 2}
RES_CAP = 30
CASH = {2: 3, 3: 7, 4: 11}           # "3 resources (for a pair) or 7 (three of a kind) or 11 (four of a kind)"
LAST_TURN = 9
MAX_FACE_DOWN = 8
