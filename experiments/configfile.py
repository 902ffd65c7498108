"""Config files (tournament and training YAML) checked against pydantic models.

A mistake becomes one line naming the file and the key, before anything is written:

    configs/x.yaml: key 'tournaments[0].agents' must be a list, got 'heuristic'
    configs/x.yaml: unknown key 'wrokers'; known: games, seed, tournaments, workers
    configs/t.yaml: key 'learning_rate' must be greater than 0, got -0.1

The models declare the types strictly (no silent conversion: `seed: abc`, `workers: two`, `5.0`
for an integer and `1` for a bool are refused) except that a number may be written as YAML reads
`3e-4` (a string of a number).
"""
from __future__ import annotations

import math
from typing import Annotated, Any

from pydantic import BeforeValidator, ValidationError

__all__ = ["Number", "read", "validate", "one_line", "ValidationError"]


def _number(v):
    """A float field accepts a string of a number (YAML 1.1 reads `3e-4` as a string); nothing else converts."""
    if isinstance(v, str):
        try:
            x = float(v)
        except ValueError:
            return v                      # refused by the float type, naming the key
        return x if math.isfinite(x) else v
    return v


#: a float field that also accepts YAML's string `3e-4`
Number = Annotated[float, BeforeValidator(_number)]

_PHRASES = {
    "int_type": "must be an integer", "int_parsing": "must be an integer", "int_from_float": "must be an integer",
    "float_type": "must be a number", "float_parsing": "must be a number", "finite_number": "must be a finite number",
    "bool_type": "must be true or false", "bool_parsing": "must be true or false",
    "string_type": "must be a string", "list_type": "must be a list", "dict_type": "must be a mapping",
    "model_type": "must be a mapping", "dataclass_type": "must be a mapping", "missing": "is missing",
}


def _loc(loc) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "<top>"


def _known(model, loc) -> list[str]:
    """Field names of the (nested) model at loc, for an 'unknown key' message."""
    import dataclasses
    import typing

    t = model
    for part in loc:
        if isinstance(part, int):
            args = typing.get_args(t)
            t = args[0] if args else t
            continue
        fields = getattr(t, "model_fields", None) or getattr(t, "__pydantic_fields__", None)
        if not fields or part not in fields:
            return []
        t = fields[part].annotation
        args = [a for a in typing.get_args(t) if a is not type(None)]
        if typing.get_origin(t) is typing.Union and len(args) == 1:
            t = args[0]
    fields = getattr(t, "model_fields", None) or getattr(t, "__pydantic_fields__", None)
    if fields:
        return sorted(fields)
    return sorted(f.name for f in dataclasses.fields(t)) if dataclasses.is_dataclass(t) else []


def one_line(source: str, err: ValidationError, model=None) -> str:
    """'<source>: key '<a.b[0]>' <what is wrong>, got <value>' for the first error (and how many more)."""
    errors = err.errors()
    e = errors[0]
    kind, loc = e["type"], tuple(e["loc"])
    ctx = e.get("ctx") or {}
    if kind in ("extra_forbidden", "unexpected_keyword_argument"):
        known = _known(model, loc[:-1]) if model is not None else []
        text = f"unknown key '{_loc(loc)}'" + (f"; known: {', '.join(known)}" if known else "")
    else:
        if kind in _PHRASES:
            what = _PHRASES[kind]
        elif kind == "greater_than":
            what = "must be positive" if ctx["gt"] == 0 else f"must be greater than {ctx['gt']}"
        elif kind == "greater_than_equal":
            what = "must not be negative" if ctx["ge"] == 0 else f"must be at least {ctx['ge']}"
        elif kind == "less_than":
            what = f"must be less than {ctx['lt']}"
        elif kind == "less_than_equal":
            what = f"must be at most {ctx['le']}"
        elif kind == "literal_error":
            what = f"must be one of {ctx['expected']}"
        elif kind == "too_short":
            what = f"must have at least {ctx['min_length']} item(s)"
        elif kind == "value_error":
            what = str(ctx.get("error", e["msg"]))
        else:
            what = e["msg"][0].lower() + e["msg"][1:]
        text = f"key '{_loc(loc)}' {what}"
        if kind != "missing":
            text += f", got {e['input']!r}"
    more = len(errors) - 1
    return f"{source}: {text}" + (f" (and {more} more mistake{'s' * (more > 1)})" if more else "")


def validate(model, data: Any, source: str):
    """model(**data) checked; ValueError with one line naming source and key."""
    import dataclasses

    if not isinstance(data, dict):
        raise ValueError(f"{source}: key '<top>' must be a mapping of keys, got {type(data).__name__}")
    bad = [k for k in data if not isinstance(k, str)]
    if bad:
        raise ValueError(f"{source}: key {bad[0]!r} must be a name (a string)")
    try:
        return model(**data) if dataclasses.is_dataclass(model) else model.model_validate(data)
    except ValidationError as e:
        raise ValueError(one_line(source, e, model)) from None


def read(path: str, model):
    """Read a YAML file and check it against model (a pydantic model or dataclass)."""
    from virus_envs.core.data import load_yaml

    data = load_yaml(str(path), mapping=False)
    if data is None:
        data = {}
    return validate(model, data, str(path))
