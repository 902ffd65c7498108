"""VIRUS! (Tranjis), the build-a-body card game: env id virus_cards_v0."""
