"""In a real browser (headless Chromium): a replay page stepped through, and a whole game played in the
serve app by clicking. Screenshots are written to the test's tmp folder and checked for content.

Skipped (with the reason) only where no Chromium is installed; `.ci/run` installs it, so CI runs them."""
from __future__ import annotations

import numpy as np
import pytest

import virus_envs
from virus_envs.experiments.cli import main
from virus_envs.experiments.play import in_words, load_game_records, replay_states

from .browser import chromium_page, need_browser, served
from .records import tournament


def _screenshot_has_a_table(page, path):
    from PIL import Image

    page.screenshot(path=str(path))
    img = np.asarray(Image.open(path).convert("RGB"))
    assert img.shape[0] > 500 and len(np.unique(img.reshape(-1, 3), axis=0)) > 50


@pytest.fixture(autouse=True)
def _browser():
    need_browser()


@pytest.mark.parametrize("env_id", virus_envs.ENV_IDS)
def test_replay_page_steps_through_a_tournament_game(env_id, tmp_path):
    """Load the page, step forward and back, jump with the keys and the slider, switch to a seat's view."""
    path = tournament(env_id, tmp_path)
    html = tmp_path / "replay.html"
    main(["replay", path, "--game-index", "0", "--html", "-o", str(html)])
    [rec] = [r for r in load_game_records(path) if r.get("index") == 0]
    words = [m[2] for _, m in replay_states(rec) if m]
    with chromium_page() as page:
        page.goto(html.as_uri())
        page.wait_for_selector("body[data-ready='1']", timeout=30_000)
        assert "full table" in page.inner_html("#picture")
        assert page.inner_text("#stepno") == f"decision 0 / {len(rec['actions'])}"
        for _ in range(3):
            page.click("#fwd")
        page.click("#back")
        assert page.inner_text("#stepno") == f"decision 2 / {len(rec['actions'])}"
        assert words[1] in page.inner_text("#move")
        page.select_option("#view", "0")
        assert "seen by player_0" in page.inner_html("#picture")
        page.keyboard.press("End")
        assert page.inner_text("#stepno").startswith(f"decision {len(rec['actions'])} /")
        assert "game over" in page.inner_text("#move")
        page.fill("#slider", "1")
        page.dispatch_event("#slider", "input")
        assert page.inner_text("#stepno").startswith("decision 1 /")
        assert page.locator("#chart polyline").count() == rec["num_players"]
        _screenshot_has_a_table(page, tmp_path / "replay.png")
        assert page.outside == [] and page.errors == []


def test_play_a_whole_game_by_clicking(tmp_path):
    """Roll & Write, 2 players, against the heuristic: click the first legal action until the game is over."""
    from virus_envs.experiments.serve import Table, create_app

    record = tmp_path / "games.jsonl"
    table = Table("roll_write_v0", 2, 0, ["heuristic"], {}, str(record), seed=5)
    with served(create_app(table)) as url, chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_selector("#actions button.act")
        assert "seen by player_0" in page.inner_html("#picture")
        clicks = 0
        while page.get_attribute("body", "data-over") != "1":
            n = page.get_attribute("body", "data-decisions")
            label = page.inner_text("#actions button.act >> nth=0")
            page.click("#actions button.act >> nth=0")
            page.wait_for_function(f"document.body.dataset.decisions !== '{n}'")
            assert f"player_0 (human): {label}" in page.inner_text("#log") or page.get_attribute("body", "data-over") == "1"
            clicks += 1
            assert clicks < 200
        assert "game over" in page.inner_text("#status")
        _screenshot_has_a_table(page, tmp_path / "serve.png")
        # the filter narrows the buttons of a new game
        page.click("#new")
        page.wait_for_selector("#actions button.act")
        page.fill("#filter", "blue trial")
        labels = page.locator("#actions button.act").all_inner_texts()
        assert labels and all("blue trial" in x for x in labels)
        assert page.outside == [] and page.errors == []
    [rec] = load_game_records(str(record))[:1]
    assert rec["complete"] and rec["seats"] == ["human", "heuristic"] and len(rec["actions"]) > clicks
    s = virus_envs.game("roll_write_v0", num_players=2).new_initial_state(seed=5)
    assert in_words(s, rec["actions"][0])
