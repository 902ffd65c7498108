"""The decisions (phases) of Virus & Co and the rulebook's numbers, below the engine, its encoding and
its checks (game.py, encoding.py and validate.py import them from here)."""

# phases (the decision being taken), in the rulebook's words
(PH_TURN, PH_PASS, PH_WARD, PH_PAY, PH_SYRINGE, PH_RISK_TARGET, PH_RISK_OFFER, PH_RISK_BACK, PH_PAY_PHARM,
 PH_RISK_PASS, PH_INFECTION, PH_NURSE, PH_DIAG, PH_PLAGUE, PH_GIVE_PILL, PH_GIVE_TO, PH_RETURN_PILL,
 PH_GUINEA, PH_FEE) = range(19)
PHASES = (
    "turn: take, circulate or play a risk card",
    "circulation: pass the card on",
    "circulation: keep or ward off",
    "circulation: put up pills",
    "syringe: choose the virus",
    "risk card: choose a fellow player",
    "risk card: keep or pay one pill",
    "risk card returned: keep or pay pills of value 2",
    "risk card returned: pay the pharmacy",
    "risk card: pass it on",
    "infection: take a virus",
    "nurse: choose a patient",
    "diagnosis: name the candidate for intensive care",
    "plague: choose a player",
    "pharmaceutical trial: choose a pill",
    "pharmaceutical trial: choose a player",
    "return a pill to the pharmacy",
    "guinea pig: choose whom to take the pill from",
    "Mr. Doctor: pay him a pill",
)
NUM_PHASES = len(PHASES)

ICU_POINTS = -13
ICU_ILLNESS = 12      # "more than 12 illness points"
ICU_SYRINGES = 3      # "or 3 syringes (including injections)"
RISK_MIN_ILLNESS = 4  # "only allowed once you have 4 illness points"

# EFF[value][syringes on it]: "The first syringe on a virus halves its value, rounding up. The second ... ZERO."
EFF = [[v, (v + 1) // 2, 0] for v in range(10)]
