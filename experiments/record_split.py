"""A model's deals, recorded after training: `virus-arena record-split` (issue 17).

A model trained since the split code carries `virus_meta["split"]` as `train` wrote it (`split_meta`,
experiments/train_eval.py): the training seed, the validation deals that chose its checkpoint and the test deals
that report it. A model trained before has none; which deals chose it and which report it is then known only
from what was stored afterwards (a choice on the validation deals in docs/results, a test report). This command
writes that history into the file, in the **recorded after training** form: `split_meta`'s keys (null where there
is no such thing, with the reason in `note`) and fields that say where each value comes from:

    {"train_seed": 0, "val_seed": 7000003, "val_games": 2000, "val_opponents": ["random", "heuristic"],
     "test_seed": 9000011, "test_games": 1000, "test_opponents": ["random", "heuristic", ...],
     "recorded": "after training (2026-12-04), from docs/results/roll_write_choice.json and ...",
     "training_eval_seed": 7000003,          # the seed of the run's own evaluations while it trained
     "chosen_at_training_on_seed": 2026,      # the seed of the games that made it the shipped model then
     "choice": "docs/results/roll_write_choice.json", "choice_model": "current", "chosen": true,
     "test_report": ["docs/results/roll_write_shipped_test.json"],
     "other_reports": [{"file": "docs/agents/roll_write.md", "seed": 2026, "what": "..."}],
     "note": "...", "weights_sha256": "<sha256 of the file's policy.pth>"}

The records come from one JSON file, `{"splits": {"<model path>": {...}, ...}}`
(docs/results/splits_recorded_after_training.json for the shipped files), so that what was written is
reviewable as text:

    virus-arena record-split docs/results/splits_recorded_after_training.json [MODEL.zip ...]

Each record is checked before anything is written, one line naming the file and the key for a mistake: every
key of `split_meta` present, no unknown key; `recorded` says "after training"; `train_seed` is the model's own
seed; the stored files it names exist; the choice JSON names this model (`choice_model`, its `git_commit`), has
its `val_seed`, and ships it exactly when `chosen` is true; a test report's `test_seed` is the split's;
`weights_sha256`, if given, is the file's. Only `virus_model.json` changes (`add_entry`): the weights and every
other entry stay byte for byte, and the command checks that they did. A split written at training time (one
without `recorded`) is never overwritten; one recorded after training is replaced only with `--replace`.
"""
from __future__ import annotations

import hashlib
import json
import os
import zipfile
from typing import Optional

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, field_validator

__all__ = ["RecordedSplit", "record_split", "read_splits", "entries_digest", "weights_sha256", "SPLIT_KEYS"]

#: the keys `train` writes (experiments/train_eval.py: split_meta); a recorded split has every one of them
SPLIT_KEYS = ("train_seed", "val_seed", "val_games", "val_opponents", "test_seed", "test_games", "test_opponents")


class OtherReport(BaseModel):
    """A stored table that reports the model on other deals than the split's (the first method's seed 2026)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    file: StrictStr
    seed: Optional[StrictInt]
    what: StrictStr = Field(min_length=1)


class RecordedSplit(BaseModel):
    """`virus_meta["split"]` written after training: split_meta's keys (nullable) and where each value comes from."""

    model_config = ConfigDict(extra="forbid", strict=True)

    train_seed: Optional[StrictInt]
    val_seed: Optional[StrictInt]
    val_games: Optional[StrictInt]
    val_opponents: Optional[list[StrictStr]]
    test_seed: Optional[StrictInt]
    test_games: Optional[StrictInt]
    test_opponents: Optional[list[StrictStr]]
    recorded: StrictStr
    """'after training (<date>), from <the stored files>'"""
    training_eval_seed: Optional[StrictInt] = None
    """the seed of the run's own evaluations while it trained (eval.csv)"""
    chosen_at_training_on_seed: Optional[StrictInt] = None
    """the seed of the games that made it the shipped model when it was trained"""
    choice: Optional[StrictStr] = None
    """the stored choice on the validation deals (a docs/results JSON)"""
    choice_model: Optional[StrictStr] = None
    """this model's key in the choice's `models`"""
    chosen: Optional[StrictBool] = None
    """whether that choice shipped it"""
    test_report: list[StrictStr] = Field(default_factory=list)
    """stored files with its figures on the test deals; test_games and test_opponents are the first one's"""
    other_reports: list[OtherReport] = Field(default_factory=list)
    note: StrictStr = Field(min_length=1)
    weights_sha256: Optional[StrictStr] = None
    """sha256 of the file's policy.pth (filled in when not given)"""

    @field_validator("recorded")
    @classmethod
    def _after_training(cls, v):
        if not v.startswith("after training"):
            raise ValueError("must begin with 'after training' (a split written at training time is train's to write)")
        return v

    @field_validator("val_games", "test_games")
    @classmethod
    def _positive(cls, v):
        if v is not None and v < 1:
            raise ValueError("must be at least 1 (or null)")
        return v


def weights_sha256(path: str) -> str:
    """sha256 of the zip's `policy.pth` (the network's weights)."""
    with zipfile.ZipFile(path) as z:
        return hashlib.sha256(z.read("policy.pth")).hexdigest()


def entries_digest(path: str) -> str:
    """One sha256 over every entry of the zip but `virus_model.json` (name and content, in name order): what
    recording a split must not change."""
    h = hashlib.sha256()
    with zipfile.ZipFile(path) as z:
        for name in sorted(z.namelist()):
            if name != "virus_model.json":
                h.update(name.encode() + b"\0" + hashlib.sha256(z.read(name)).digest())
    return h.hexdigest()


def read_splits(path: str) -> dict:
    """{model path: record} from a splits file `{"splits": {...}}` (plus an optional "about")."""
    try:
        with open(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ValueError(f"split file not found: {path}") from None
    except (OSError, ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"{path}: not a JSON file ({type(e).__name__}: {str(e).splitlines()[0][:120]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("splits"), dict) or set(data) - {"about", "splits"}:
        raise ValueError(f"{path}: must be a mapping {{\"about\": ..., \"splits\": {{model path: split}}}}")
    return data["splits"]


def _load_json(path: str, field: str, source: str):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        raise ValueError(f"{source}: key '{field}': {path} is not a JSON file") from None


def _check(split: RecordedSplit, meta: dict, digest: str, root: str, source: str) -> None:
    """The record's values against the model's own meta and the stored files it names; ValueError naming the field."""
    def bad(field, text):
        raise ValueError(f"{source}: key '{field}' {text}")

    def stored(field, rel):
        full = os.path.join(root, rel)
        if not os.path.isfile(full):
            bad(field, f"names {rel}, which is not a stored file (under {root})")
        return full

    own = meta.get("seed", (meta.get("config") or {}).get("seed"))
    if split.train_seed is not None and own is not None and split.train_seed != own:
        bad("train_seed", f"is {split.train_seed}, but the model's own virus_meta says seed {own}")
    if split.val_seed is not None and split.val_seed == split.test_seed:
        bad("test_seed", f"is the val_seed ({split.val_seed}): a choice and its report on the same deals is not a test")
    if split.weights_sha256 is not None and split.weights_sha256 != digest:
        bad("weights_sha256", f"is {split.weights_sha256[:12]}..., the file's policy.pth is {digest[:12]}...: "
                              f"this record is for other weights")
    if split.choice is None:
        if split.choice_model is not None or split.chosen is not None:
            bad("choice_model" if split.choice_model is not None else "chosen", "needs a 'choice' file")
    else:
        choice = _load_json(stored("choice", split.choice), "choice", source)
        if not isinstance(choice, dict):
            bad("choice", f"names {split.choice}, which is not a choice (a JSON mapping)")
        if "val_seed" in choice and choice["val_seed"] != split.val_seed:
            bad("val_seed", f"is {split.val_seed}, the choice {split.choice} was made on val_seed {choice['val_seed']}")
        never = choice.get("test_seed_never_used")
        if never is not None and split.test_seed is not None and never != split.test_seed:
            bad("test_seed", f"is {split.test_seed}, the choice {split.choice} kept test seed {never} aside")
        models = choice.get("models") or {}
        if split.choice_model is not None:
            if split.choice_model not in models:
                bad("choice_model", f"is {split.choice_model!r}, not a model of {split.choice} "
                                    f"(it has: {', '.join(models) or 'none'})")
            commit = models[split.choice_model].get("git_commit")
            if commit and meta.get("git_commit") and commit != meta["git_commit"]:
                bad("choice_model", f"is {split.choice_model!r}, trained on {commit[:7]} in {split.choice}, but this "
                                    f"model was trained on {meta['git_commit'][:7]}")
            ships = (choice.get("decision") or {}).get("ships")
            if ships is not None and split.chosen is not None and split.chosen != (ships == split.choice_model):
                bad("chosen", f"is {str(split.chosen).lower()}, but {split.choice} ships {ships!r}")
    for i, rel in enumerate(split.test_report):
        full = stored(f"test_report[{i}]", rel)
        if rel.endswith(".json") and split.test_seed is not None:
            data = _load_json(full, f"test_report[{i}]", source)
            seed = data.get("test_seed", data.get("seed")) if isinstance(data, dict) else None
            if seed is not None and int(seed) != split.test_seed:
                bad(f"test_report[{i}]", f"names {rel}, played on seed {seed}, not test_seed {split.test_seed}")
    for i, other in enumerate(split.other_reports):
        stored(f"other_reports[{i}].file", other.file)


def record_split(model: str, record: dict, root: str = ".", replace: bool = False, source: str | None = None) -> dict:
    """Write record (checked) as `virus_meta["split"]` of the model file; returns the split written.

    ValueError (one line) for a missing or unsafe file, a bad field, or a split that may not be replaced."""
    from virus_envs.agents.model_file import add_entry, read_entry
    from virus_envs.experiments import configfile

    source = source or model
    entry = read_entry(model)          # a missing file, a zip without virus_model.json: one line naming it
    meta = dict(entry.virus_meta)
    old = meta.get("split")
    if isinstance(old, dict) and "recorded" not in old:
        raise ValueError(f"{model}: refused: it carries a split written at training time (virus_meta['split'] "
                         f"without 'recorded'); that record is never overwritten")
    if old is not None and not replace:
        raise ValueError(f"{model}: already has a split recorded after training ({old.get('recorded')!r}); give "
                         f"--replace to write another")
    missing = [k for k in SPLIT_KEYS if k not in (record if isinstance(record, dict) else {})]
    if isinstance(record, dict) and missing:
        raise ValueError(f"{source}: key '{missing[0]}' is missing (a recorded split has every key of split_meta: "
                         f"{', '.join(SPLIT_KEYS)}; null where there is none)")
    split = configfile.validate(RecordedSplit, record, source)
    digest = weights_sha256(model)
    _check(split, meta, digest, root, source)
    written = split.model_dump()
    written["weights_sha256"] = digest
    before = entries_digest(model)
    data = entry.model_dump()
    data["virus_meta"] = dict(meta, split=written)
    add_entry(model, data)
    if entries_digest(model) != before:      # add_entry keeps them; this says so for every file written
        raise ValueError(f"{model}: an entry other than virus_model.json changed while recording the split")
    if read_entry(model).virus_meta.get("split") != written:
        raise ValueError(f"{model}: the split read back differs from the one written")
    return written


def _same(a: str, b: str) -> bool:
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(os.path.abspath(b))


def cmd_record_split(args, echo=print):
    """`virus-arena record-split SPLITS.json [MODEL.zip ...]`."""
    splits = read_splits(args.splits)
    root = args.root
    targets = args.models or [os.path.normpath(os.path.join(root, k)) for k in splits]
    for model in targets:
        key = next((k for k in splits if _same(os.path.join(root, k), model)), None)
        if key is None:
            raise ValueError(f"{args.splits} has no split for {model} (it has: {', '.join(splits) or 'none'})")
        written = record_split(model, splits[key], root=root, replace=args.replace,
                               source=f"{args.splits}: splits[{key!r}]")
        shown = ", ".join(f"{k} {written[k]}" for k in ("train_seed", "val_seed", "test_seed"))
        echo(f"{model}: split recorded after training ({shown}); virus_model.json rewritten, the weights and "
             f"every other entry unchanged (policy.pth sha256 {written['weights_sha256'][:12]}...)")


def register(sub):
    """Add `record-split` to virus-arena's sub-parsers."""
    r = sub.add_parser("record-split", help="write a model's validation/test split, recorded after training, into "
                                            "its virus_model.json (the weights unchanged)")
    r.add_argument("splits", metavar="SPLITS.json", help='{"splits": {"<model path>": {...}}}, e.g. '
                                                         "docs/results/splits_recorded_after_training.json")
    r.add_argument("models", nargs="*", metavar="MODEL.zip", help="the models to write (default: every one in the file)")
    r.add_argument("--root", default=".", help="the folder the paths of the file are relative to (default: .)")
    r.add_argument("--replace", action="store_true",
                   help="replace a split recorded after training (one written by train is never replaced)")
    r.set_defaults(func=cmd_record_split)
