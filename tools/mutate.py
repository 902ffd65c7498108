"""Mutation testing of one game's rules with mutmut 3 (`make mutate GAME=<game>`).

    python tools/mutate.py run GAME [--max-children N]   # mutate, test, report
    python tools/mutate.py run GAME --sample 60 --seed 1  # a uniform random sample of the mutants: an estimate
                                                          # of the score with its 95% interval, in a fraction
                                                          # of the time
    python tools/mutate.py report GAME                   # the last run's report again
    python tools/mutate.py show GAME MUTANT              # the diff of one mutant

What is mutated and which tests run come from tools/mutation_targets.yaml. Each game gets its own
mutmut project folder, mutants/<game>/ (git-ignored): a generated pyproject.toml, a copy of
virus_envs/ in which the functions not listed carry mutmut's `no mutate` pragma, and a link to
tests/. mutmut copies them into mutants/<game>/mutants/, mutates the listed functions there and runs
pytest in that folder, so the results of one game never mix with another's. docs/testing.md
explains the figures.
"""
from __future__ import annotations

import argparse
import ast
import fnmatch
import json
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
TARGETS = ROOT / "tools" / "mutation_targets.yaml"
# what mutmut's folder must not get as a link to the repository's: its own copies and config, and
# what would make it look like the repository to git or pip
NOT_LINKED = {"virus_envs", "tests", "mutants", "pyproject.toml", "setup.py", "build"}
SEP = "ǁ"   # mutmut's separator in a method's mangled name: x<SEP>Class<SEP>method
# mutmut's exit codes (mutmut.stats.status_by_exit_code), grouped: a crash or a hang is a kill
KILLED = {"killed", "timeout", "segfault", "caught by type check"}


def load_targets(game: str) -> tuple[dict, list[str]]:
    """The game's section of the targets file, and the tests every run leaves out."""
    with open(TARGETS) as f:
        targets = yaml.safe_load(f)
    skip_tests = targets.pop("skip_tests", None) or []
    if game not in targets:
        raise SystemExit(f"mutate: unknown game {game!r} (games in {TARGETS.name}: {', '.join(targets)})")
    t = targets[game]
    for key in ("tests", "functions"):
        if not t.get(key):
            raise SystemExit(f"mutate: {TARGETS.name}: {game}.{key} is empty")
    for p in t["functions"]:
        if "::" not in p:
            raise SystemExit(f"mutate: {TARGETS.name}: {game}: {p!r} is not FILE::NAME")
    t["equivalent"] = t.get("equivalent") or []
    return t, skip_tests


def mutmut_glob(pattern: str) -> str:
    """'g/game.py::State.f' -> mutmut's mutant-name glob 'virus_envs.g.game.xǁStateǁf__mutmut_*'."""
    file, name = pattern.split("::")
    module = "virus_envs." + file.removesuffix(".py").replace("/", ".")
    if "." in name:
        cls, fn = name.split(".")
        mangled = f"x{SEP}{cls}{SEP}{fn}"
    else:
        mangled = f"x_{name}"
    return f"{module}.{mangled}__mutmut_*"


def readable(mutant: str) -> str:
    """'virus_envs.g.game.xǁStateǁf__mutmut_3' -> 'g/game.py::State.f' (the targets file's spelling)."""
    head, _, _ = mutant.rpartition("__mutmut_")
    module, _, mangled = head.rpartition(".")
    file = module.split(".", 1)[1].replace(".", "/") + ".py"
    if mangled.startswith("x" + SEP):
        _, cls, fn = mangled.split(SEP)
        return f"{file}::{cls}.{fn}"
    return f"{file}::{mangled[2:]}"


def name_matches(name: str, pattern_name: str) -> bool:
    """'f' patterns match module functions only, 'C.m' patterns methods only ('*' is not '*.*')."""
    return ("." in name) == ("." in pattern_name) and fnmatch.fnmatchcase(name, pattern_name)


def functions_matching(pattern: str) -> list[str]:
    """Functions and methods (Class.method) of the source files a pattern names that its NAME matches."""
    file_glob, name_glob = pattern.split("::")
    found = []
    for path in sorted((ROOT / "virus_envs").rglob("*.py")):
        rel = path.relative_to(ROOT / "virus_envs").as_posix()
        if not fnmatch.fnmatchcase(rel, file_glob):
            continue
        for node in ast.parse(path.read_text()).body:
            names = []
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                names = [node.name]
            elif isinstance(node, ast.ClassDef):
                names = [f"{node.name}.{f.name}" for f in node.body
                         if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
            found += [f"{rel}::{n}" for n in names if name_matches(n, name_glob)]
    return found


def project_dir(game: str) -> Path:
    return ROOT / "mutants" / game


PRAGMA = "# pragma: no mutate block"
CACHES = {"cache", "lru_cache"}     # functools decorators that change no result


def pin_other_functions(code: str, rel: str, patterns: list[str]) -> str:
    """The module with mutmut's `no mutate` pragma on the header of every function it should leave alone.

    mutmut mutates every function of a file it mutates and routes each call through a trampoline,
    which slows the hot paths the tests run (masks, current_player) for mutants no one asked for.
    A pragma after the colon of a `def` makes mutmut leave that function as written. Only comments
    change: line numbers, and so the diffs `show` prints, are those of the real file."""
    import libcst as cst

    def keep(name):
        return any(fnmatch.fnmatchcase(rel, p.split("::")[0]) and name_matches(name, p.split("::")[1])
                   for p in patterns)

    def uncache(fn):
        """mutmut 3 leaves decorated functions alone; a cache changes no result, so a listed function
        loses its @cache/@lru_cache here, the line kept as a comment (the numbering stays)."""
        keep_decorators, removed = [], []
        for d in fn.decorators:
            target = d.decorator.func if isinstance(d.decorator, cst.Call) else d.decorator
            name = target.attr.value if isinstance(target, cst.Attribute) else getattr(target, "value", "")
            (removed if name in CACHES else keep_decorators).append(d)
        if not removed:
            return fn
        notes = [cst.EmptyLine(comment=cst.Comment(f"# {cst.Module([]).code_for_node(d.decorator)}: "
                                                     "removed for mutation testing")) for d in removed]
        return fn.with_changes(decorators=keep_decorators, leading_lines=[*fn.leading_lines, *notes])

    def pin(fn, name):
        if isinstance(fn, cst.FunctionDef) and keep(name):
            return uncache(fn)
        if not isinstance(fn, cst.FunctionDef) or not isinstance(fn.body, cst.IndentedBlock):
            return fn
        h = fn.body.header
        text = PRAGMA + (f"  {h.comment.value}" if h.comment else "")
        header = h.with_changes(whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(text))
        return fn.with_changes(body=fn.body.with_changes(header=header))

    module = cst.parse_module(code)
    body = []
    for st in module.body:
        if isinstance(st, cst.FunctionDef):
            st = pin(st, st.name.value)
        elif isinstance(st, cst.ClassDef) and isinstance(st.body, cst.IndentedBlock):
            methods = [pin(m, f"{st.name.value}.{m.name.value}") if isinstance(m, cst.FunctionDef) else m
                       for m in st.body.body]
            st = st.with_changes(body=st.body.with_changes(body=methods))
        body.append(st)
    return module.with_changes(body=body).code


def sync_sources(dst: Path, patterns: list[str]) -> None:
    """dst mirrors virus_envs/, the files to mutate with their other functions pinned.

    A file is rewritten only when its content changes: mutmut regenerates a file's mutants, and
    forgets their results, when the source is newer than its copy."""
    src = ROOT / "virus_envs"
    if dst.is_symlink():
        dst.unlink()
    wanted = set()
    for path in sorted(src.rglob("*")):
        if "__pycache__" in path.parts or not path.is_file():
            continue
        rel = path.relative_to(src).as_posix()
        wanted.add(rel)
        data = path.read_bytes()
        if path.suffix == ".py" and any(fnmatch.fnmatchcase(rel, p.split("::")[0]) for p in patterns):
            data = pin_other_functions(data.decode(), rel, patterns).encode()
        target = dst / rel
        if not target.exists() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    for path in list(dst.rglob("*")):
        if path.is_file() and path.relative_to(dst).as_posix() not in wanted:
            path.unlink()


def prune_copy(out: Path) -> None:
    """mutmut adds files to its copy but never removes or refreshes data files: drop what changed."""
    shutil.rmtree(out / "tests", ignore_errors=True)
    src = out / "virus_envs"
    if not src.exists():
        return
    for path in list(src.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(src).as_posix()
        orig = ROOT / "virus_envs" / rel.removesuffix(".meta")
        if not orig.exists() or (path.suffix not in (".py", ".meta") and
                                 path.read_bytes() != orig.read_bytes()):
            path.unlink()


def prepare(game: str, t: dict, skip_tests: list[str]) -> Path:
    """The per-game mutmut project: generated config, a pinned copy of virus_envs/, links to the rest."""
    d = project_dir(game)
    out = d / "mutants"
    out.mkdir(parents=True, exist_ok=True)
    # mutmut keeps its map of which tests reach which function (mutmut-stats.json) from one run to the next
    # and re-measures it only around the functions whose code changed: a test that reaches a function moved
    # since then is missing from the map, and that function's mutants survive the tests that kill them (the
    # ranking, moved from game.py to labs.py, met none of the ranking tests). Each run measures the map afresh.
    (out / "mutmut-stats.json").unlink(missing_ok=True)
    if not (d / "tests").is_symlink():
        (d / "tests").symlink_to(ROOT / "tests")
    # tests read files by path from the repository's root (docs/rules, configs, models, README.md...)
    for entry in ROOT.iterdir():
        link = out / entry.name
        if entry.name not in NOT_LINKED and not entry.name.startswith(".") and not link.is_symlink():
            link.symlink_to(entry)
    sync_sources(d / "virus_envs", t["functions"])
    prune_copy(out)
    files = sorted({f"virus_envs/{p.split('::')[0]}" for p in t["functions"]})
    pytest_args = ["-p", "no:xdist", "-p", "no:cacheprovider"]
    for test in skip_tests:
        pytest_args += ["--deselect", test]
    conf = "\n".join([
        "# generated by tools/mutate.py from tools/mutation_targets.yaml: edit those, not this",
        "[tool.mutmut]",
        'source_paths = ["virus_envs"]',
        f"only_mutate = {json.dumps(files)}",
        f"pytest_add_cli_args_test_selection = {json.dumps(t['tests'])}",
        # one process per mutant is mutmut's parallelism (no xdist)
        f"pytest_add_cli_args = {json.dumps(pytest_args)}",
        # fork each mutant from a server that has only imported the tests: forking the process that ran
        # them (mutmut's default) copies locks held by their threads (torch, tqdm, the tournament's
        # pools) and the children hang in futex waits with no CPU time, so no timeout ever fires
        'process_isolation = "forkserver"',
        "",
        "[tool.pytest.ini_options]",
        'testpaths = ["tests"]',
        "",
    ])
    (d / "pyproject.toml").write_text(conf)
    return d


def results(game: str) -> dict:
    """{mutant name: status} of every mutant mutmut generated for the game's files."""
    from mutmut.stats import status_by_exit_code

    out = {}
    for meta in (project_dir(game) / "mutants" / "virus_envs").rglob("*.py.meta"):
        data = json.loads(meta.read_text())
        for name, code in data["exit_code_by_key"].items():
            out[name] = status_by_exit_code[code]
    return out


def report(game: str, t: dict, seconds: float | None = None, cpu: float | None = None, echo=print,
           only: list[str] | None = None, seed: int | None = None) -> dict:
    """The score by function; `only`: the mutants of a sampled run (the score is then an estimate, with its
    95% Wilson interval, of the score over every mutant of the listed functions)."""
    status = every = results(game)
    if only is not None:
        status = {m: s for m, s in every.items() if m in set(only)}
    selected = {}
    unmatched = []
    for p in t["functions"]:
        hits = [m for m in status if fnmatch.fnmatchcase(m, mutmut_glob(p))]
        if not hits and only is not None and any(fnmatch.fnmatchcase(m, mutmut_glob(p)) for m in every):
            continue                        # it has mutants; the sample drew none of them
            unmatched.append(p if functions_matching(p) else p + " (no such function)")
        for m in hits:
            selected[m] = status[m]
    if not selected:
        raise SystemExit(f"mutate: no results for {game}; run `make mutate GAME={game}` first")
    equivalent = {e["mutant"]: e for e in t["equivalent"]}
    by_fn = {}
    for m, s in sorted(selected.items(), key=lambda kv: (readable(kv[0]), int(kv[0].rpartition("_")[2]))):
        c = by_fn.setdefault(readable(m), Counter())
        c["total"] += 1
        c["killed" if s in KILLED else "equivalent" if m in equivalent else s] += 1
    total = len(selected)
    killed = sum(1 for s in selected.values() if s in KILLED)
    equiv = [m for m in selected if m in equivalent and selected[m] not in KILLED]
    survivors = [m for m in selected if selected[m] not in KILLED and m not in equivalent]
    echo(f"\nmutation score of {game}: {killed}/{total} killed ({100 * killed / total:.1f}%)"
         + (f", {killed}/{total - len(equiv)} ({100 * killed / max(1, total - len(equiv)):.1f}%) "
            f"without the {len(equiv)} equivalent mutants" if equiv else "")
         + (f", {seconds / 60:.1f} min wall, {cpu / 60:.1f} CPU-min" if seconds else ""))
    if only is not None:
        lo, hi = wilson_interval(killed, total)
        echo(f"a uniform random sample of {total} mutants (seed {seed}) of the {len(only_population(game, t))} "
             f"generated: the score over all of them lies in [{100 * lo:.1f}%, {100 * hi:.1f}%] (95% Wilson)")
    echo(f"tests: {' '.join(t['tests'])}\n")
    echo(f"{'function':<52} {'killed':>7} {'total':>6} {'rate':>7}  not killed")
    for fn, c in by_fn.items():
        rest = ", ".join(f"{c[k]} {k}" for k in sorted(c) if k not in ("total", "killed") and c[k])
        echo(f"{fn:<52} {c['killed']:>7} {c['total']:>6} {100 * c['killed'] / c['total']:>6.1f}%  {rest}")
    for p in unmatched:
        if p.endswith("(no such function)"):
            echo(f"{p.split()[0]:<52} no such function (renamed, or not written yet?): "
                 "fix tools/mutation_targets.yaml")
        else:
            echo(f"{p:<52} no mutants: nothing mutmut can change, or decorated (mutmut 3 skips "
                 "decorated functions other than @staticmethod, @classmethod and, here, caches)")
    stale = [] if only is not None else [e for m, e in equivalent.items() if m not in selected]
    for e in stale:
        echo(f"equivalent entry {e['mutant']} names no mutant of the listed functions: remove it")
    if survivors:
        echo(f"\n{len(survivors)} survivors (not killed by {' '.join(t['tests'])}); see each diff with")
        echo(f"  .venv/bin/python tools/mutate.py show {game} MUTANT\n")
        for m in sorted(survivors, key=lambda m: (readable(m), int(m.rpartition("_")[2]))):
            echo(f"  {selected[m]:<10} {m}")
    if equiv:
        echo(f"\n{len(equiv)} equivalent mutants (tools/mutation_targets.yaml):")
        for m in sorted(equiv):
            echo(f"  {m}: {equivalent[m]['reason']}")
    summary = {"game": game, "killed": killed, "total": total, "equivalent": len(equiv),
               "sample": None if only is None else {"seed": seed, "population": len(only_population(game, t)),
                                                    "ci95": list(wilson_interval(killed, total))},
               "seconds": round(seconds) if seconds else None, "cpu_seconds": round(cpu) if cpu else None,
               "tests": t["tests"],
               "by_function": {fn: dict(c) for fn, c in by_fn.items()}, "survivors": sorted(survivors),
               "unmatched": unmatched}
    if seconds:
        name = "summary.json" if only is None else f"summary-sample-{seed}.json"
        (project_dir(game) / name).write_text(json.dumps(summary, indent=1))
    return summary


def wilson_interval(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n (no dependency beyond the standard library)."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def only_population(game: str, t: dict) -> list[str]:
    """Every generated mutant of the listed functions (the population a sample is drawn from)."""
    globs = [mutmut_glob(p) for p in t["functions"]]
    return sorted(m for m in results(game) if any(fnmatch.fnmatchcase(m, g) for g in globs))


def draw_sample(population: list[str], k: int, seed: int) -> list[str]:
    """k mutants drawn uniformly without replacement, reproducibly from the seed (all of them if k >= N)."""
    import random
    if k >= len(population):
        return list(population)
    return sorted(random.Random(seed).sample(sorted(population), k))


def check_equivalents(game: str, t: dict, echo=print) -> None:
    """An equivalent entry must still describe its mutant: its quoted line must be in the mutant's diff."""
    for e in t["equivalent"]:
        diff = show(game, e["mutant"], capture=True)
        added = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
        if e["line"].strip() not in added:
            echo(f"equivalent entry {e['mutant']} is stale: the mutant no longer adds {e['line']!r}")


def mutmut_bin() -> str:
    return str(Path(sys.executable).parent / "mutmut")


def show(game: str, mutant: str, capture: bool = False) -> str:
    r = subprocess.run([mutmut_bin(), "show", mutant], cwd=project_dir(game), capture_output=capture, text=True)
    if r.returncode:
        raise SystemExit(f"mutate: mutmut show {mutant} failed{': ' + r.stderr.strip() if capture else ''}")
    return r.stdout if capture else ""


def run(game: str, max_children: int, sample: int | None = None, seed: int = 0) -> None:
    t, skip_tests = load_targets(game)
    d = prepare(game, t, skip_tests)
    globs = [mutmut_glob(p) for p in t["functions"]]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    start, before = time.monotonic(), os.times()
    chosen = None
    if sample is not None:
        # mutmut generates every mutant and measures which tests reach which function (its stats) before it
        # tests the mutants it is asked for: a name that matches no mutant does only that, then stops on its
        # "nothing matches" assertion (so its exit code says nothing; an empty population below does)
        subprocess.run([mutmut_bin(), "run", "--max-children", str(max_children), "virus_envs.no_such_mutant"],
                       cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        chosen = draw_sample(only_population(game, t), sample, seed)
        if not chosen:
            raise SystemExit(f"mutate: no mutant generated for {game}: check tools/mutation_targets.yaml")
        globs = chosen
    r = subprocess.run([mutmut_bin(), "run", "--max-children", str(max_children), *globs], cwd=d, env=env)
    seconds = time.monotonic() - start
    after = os.times()      # every process of the run was waited for: its CPU time is counted here
    cpu = after.children_user + after.children_system - before.children_user - before.children_system
    if r.returncode:
        raise SystemExit(f"mutate: mutmut run failed (exit {r.returncode}); see its output above")
    report(game, t, seconds, cpu, only=chosen, seed=seed if chosen is not None else None)
    check_equivalents(game, t)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="tools/mutate.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("game")
    r.add_argument("--max-children", type=int, default=2, help="mutants tested at once (default 2)")
    r.add_argument("--sample", type=int, default=None, metavar="N",
                   help="test N mutants drawn uniformly at random: an estimate of the score with its 95%% interval")
    r.add_argument("--seed", type=int, default=0, help="the sample's seed (default 0)")
    sub.add_parser("report").add_argument("game")
    s = sub.add_parser("show")
    s.add_argument("game")
    s.add_argument("mutant")
    a = ap.parse_args(argv)
    if a.cmd == "run":
        if a.sample is not None and a.sample < 1:
            ap.error(f"--sample must be a positive number of mutants, got {a.sample}")
        run(a.game, a.max_children, a.sample, a.seed)
    elif a.cmd == "report":
        report(a.game, load_targets(a.game)[0])
    else:
        load_targets(a.game)
        show(a.game, a.mutant)
    return 0


if __name__ == "__main__":
    sys.exit(main())
