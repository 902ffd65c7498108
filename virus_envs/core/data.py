"""Data files: YAML read once, with an error that names the file (and the field, via `field_error`)."""
from __future__ import annotations

import yaml


def load_yaml(path: str, mapping: bool = True):
    """Parsed YAML of `path`; ValueError naming the file if it cannot be read, is not YAML, or (with
    `mapping`) is not a mapping at the top."""
    try:
        with open(path, encoding="utf-8") as f:
            data = yaml.safe_load(f)
    except OSError as e:
        raise ValueError(f"{path}: cannot read ({e.strerror or e})") from None
    except yaml.YAMLError as e:
        raise ValueError(f"{path}: not valid YAML ({e})") from None
    if mapping and not isinstance(data, dict):
        raise ValueError(f"{path}: field '<top>' must be a mapping")
    return data
