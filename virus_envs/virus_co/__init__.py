"""Virus & Co (Zoch, 2002): pill-bidding card game for 3 to 6 players. Env id `virus_co_v0`."""
