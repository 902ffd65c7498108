"""Line and branch coverage per package, from the data `make coverage` collected (.coverage).

    python tools/coverage_table.py [--files]      # --files: every file, least covered first

Packages: virus_envs/core, each game under virus_envs/, virus_envs.agents (agents/) and
virus_envs.experiments (experiments/). Prints a Markdown table (docs/testing.md keeps the last one).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIELDS = ("num_statements", "covered_lines", "num_branches", "covered_branches")


def package_of(path: str) -> str:
    parts = Path(path).resolve().relative_to(ROOT).parts
    if parts[0] == "virus_envs":
        return "virus_envs" if len(parts) == 2 else f"virus_envs/{parts[1]}"
    return {"agents": "virus_envs.agents", "experiments": "virus_envs.experiments"}.get(parts[0], parts[0])


def pct(covered: int, total: int) -> str:
    return f"{100 * covered / total:.1f}%" if total else "n/a"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--files", action="store_true", help="also list every file, least covered first")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "coverage.json"
        r = subprocess.run([sys.executable, "-m", "coverage", "json", "-q", "-o", str(out)], cwd=ROOT)
        if r.returncode:
            raise SystemExit("coverage_table: no coverage data; run `make coverage` first")
        data = json.loads(out.read_text())
    totals = defaultdict(lambda: dict.fromkeys(FIELDS, 0))
    rows = []
    for path, f in data["files"].items():
        s = f["summary"]
        for k in FIELDS:
            totals[package_of(path)][k] += s[k]
            totals["total"][k] += s[k]
        rows.append((s["covered_lines"] / max(1, s["num_statements"]), path, s))
    print("| package | statements | line coverage | branches | branch coverage |")
    print("|---|---:|---:|---:|---:|")
    for name in sorted(totals, key=lambda n: (n == "total", n)):
        t = totals[name]
        label = "**total**" if name == "total" else f"`{name}`"
        print(f"| {label} | {t['num_statements']} | {pct(t['covered_lines'], t['num_statements'])} | "
              f"{t['num_branches']} | {pct(t['covered_branches'], t['num_branches'])} |")
    if a.files:
        print()
        for _, path, s in sorted(rows):
            print(f"{pct(s['covered_lines'], s['num_statements']):>7} lines "
                  f"{pct(s['covered_branches'], s['num_branches']):>7} branches  "
                  f"{Path(path).resolve().relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
