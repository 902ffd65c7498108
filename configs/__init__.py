"""The default configs: the folder `configs/` of the repository installs as `virus_envs.configs`.

    from virus_envs import configs
    configs.path("tournaments", "default.yaml")      # what `virus-arena run` plays
    configs.path("train", "virus_cards.yaml")        # what `virus-arena train --game virus_cards_v0` reads

Its YAML files are package data, so the commands find their defaults from a wheel as from the checkout.
"""
from __future__ import annotations

if __name__ == "configs":  # imported from the checkout under its folder's name
    raise ImportError("import virus_envs.configs, not configs: the folder configs/ installs as virus_envs.configs "
                      "(see setup.py)")

import os

__all__ = ["ROOT", "path"]

#: the folder holding `tournaments/`, `train/`, `studies/`
ROOT = os.path.dirname(os.path.abspath(__file__))


def path(*parts: str) -> str:
    """Absolute path of a shipped config file, e.g. path("train", "virus_cards.yaml") (it may not exist)."""
    return os.path.join(ROOT, *parts)
