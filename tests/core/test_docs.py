"""The docs stay true: every env has its page (PettingZoo's style) whose spaces are the engine's, and the
README and docs link only files that are in the repository."""
import re
from pathlib import Path

import pytest

import virus_envs

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _page(env_id: str) -> Path:
    return ROOT / "docs" / "envs" / f"{env_id.rsplit('_v', 1)[0]}.md"


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_each_env_has_a_page_with_the_engines_spaces(env_id):
    text = _page(env_id).read_text()
    cls = virus_envs.game_class(env_id)
    rows = {int(n): (int(k), tuple(int(x) for x in shape.split(",") if x.strip()))
            for n, k, shape in re.findall(r"^\| (\d+) \| Discrete\((\d+)\) \| \(([\d, ]+)\) \|$", text, re.M)}
    assert set(rows) == set(range(cls.min_players, cls.max_players + 1)), "one row per player count"
    for n, (k, shape) in rows.items():
        g = virus_envs.game(env_id, num_players=n)
        assert (k, shape) == (g.num_actions, tuple(g.observation_shape)), f"{n} players"
    assert f'virus_envs.env("{env_id}"' in text                   # the import line
    assert "| Parallel API | No |" in text and "## Parallel API: no" in text
    assert f"Number of agents | {cls.min_players}-{cls.max_players} (default {cls.default_players})" in text
    for section in ("## Observation space", "## Action space", "## Rewards", "## Arguments"):
        assert section in text
    assert f"- `{env_id}`" in text.split("## Version history", 1)[1]
    for key in cls.DEFAULTS:                                        # every config key is listed
        assert f"`{key}`" in text, key


def test_the_readme_links_every_env_page_and_the_contract():
    readme = (ROOT / "README.md").read_text()
    links = set(LINK.findall(readme))
    assert "docs/contract.md" in links
    for env_id in virus_envs.ENV_IDS:
        assert str(_page(env_id).relative_to(ROOT)) in links, env_id


def _markdown_files():
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_link_only_files_in_the_repository(path):
    text = path.read_text()
    if path.name == "README.md" or path.parent.name == "envs" or path.name == "contract.md":
        assert "shared/" not in text, "the shared folder is not in the repository"
    for target in LINK.findall(text):
        if re.match(r"[a-z]+://|#|mailto:", target):
            continue
        file = (path.parent / target.split("#", 1)[0]).resolve()
        assert file.exists() and ROOT in file.parents, f"{path.name} links {target}, not a file of the repository"


def _anchors(path: Path) -> set[str]:
    """GitHub's ids of a page's headings: lower case, punctuation dropped, spaces to hyphens, -1, -2 ... on repeats."""
    seen: dict[str, int] = {}
    fence = False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} (.+?)#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            seen[slug] = seen.get(slug, -1) + 1
            if seen[slug]:
                seen[f"{slug}-{seen[slug]}"] = 0
    return set(seen)


@pytest.mark.parametrize("path", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_docs_anchors_name_a_heading_of_the_page_they_link(path):
    """A link `page.md#part` (or `#part` on the same page) names a heading that page has: when a page is split or a
    heading renamed, the links to it follow."""
    for target in LINK.findall(path.read_text()):
        if re.match(r"[a-z]+://|mailto:", target) or "#" not in target:
            continue
        page, anchor = target.split("#", 1)
        file = (path.parent / page).resolve() if page else path
        if file.suffix == ".md" and file.exists():
            assert anchor in _anchors(file), f"{path.name} links {target}: {file.name} has no such heading"
