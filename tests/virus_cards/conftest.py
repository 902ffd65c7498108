"""Fixtures shared by the VIRUS! tests."""
import pytest

#: a deck small enough to name every card of it in a scenario (15 cards)
SMALL_DECK = """presets:
  published:
    organ:     {red: 2, green: 2, blue: 1, yellow: 1}
    virus:     {red: 1, green: 1, blue: 1, multi: 1}
    medicine:  {green: 1, blue: 1, multi: 1}
    treatment: {transplant: 1, organ_thief: 1}
"""


@pytest.fixture
def small_deck(tmp_path):
    """Path of a deck file holding SMALL_DECK (pass it as deck_file=...)."""
    p = tmp_path / "small.yaml"
    p.write_text(SMALL_DECK)
    return str(p)
