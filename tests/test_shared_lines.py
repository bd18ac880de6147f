"""The lines two text lists share, or one lacks (assistant/loop/shared_lines.py).

Batch HZ at 4bb2504 (HZD): "Which names are in both team_a.txt and team_b.txt?" was
answered "Cleo" after a grep for Cleo alone, and called done; Anna is on both lists.
"""

from __future__ import annotations

import pytest

from assistant.events import Finished, Notice
from assistant.loop.shared_lines import shared_lines, shared_lines_wrong
from tools.files import FILE_TOOLS
from agent_helpers import call, scripted_agent

BOTH = "Which names are in both team_a.txt and team_b.txt?"


@pytest.fixture
def lists(tmp_path):
    (tmp_path / "team_a.txt").write_text("# Team A\nAnna\nBen\nCleo\nDan\n")
    (tmp_path / "team_b.txt").write_text("- Farid\n- Cleo\n- anna \n")
    return tmp_path


@pytest.mark.parametrize("goal, items", [
    (BOTH, ["Anna", "Cleo"]),  # a list marker, spaces and letter case aside; the heading is no name
    ("Which names appear in team_a.txt and in team_b.txt?", ["Anna", "Cleo"]),
    ("Who is in team_a.txt but not in team_b.txt?", ["Ben", "Dan"]),
    ("Which names of team_a.txt are missing from team_b.txt?", ["Ben", "Dan"]),
    ("Write the names in both team_a.txt and team_b.txt to both.txt.", None),  # a file asked for: not a question
    ("Which names are in both team_a.txt and team_c.txt?", None),  # no such file
])
def test_the_lines_two_files_share_or_one_lacks(lists, goal, items):
    found = shared_lines(goal, lists)
    assert (found.items if found else None) == items, found


@pytest.mark.parametrize("answer, doubted", [
    ("Cleo is in both.", "leaves out 'Anna'"),
    ("Anna and Cleo.", ""),
    ("ANNA and cleo", ""),
    ("Anna, Ben and Cleo.", "names 'Ben', which is not"),
])
def test_an_answer_that_leaves_a_shared_line_out_or_names_another_is_doubted(lists, answer, doubted):
    doubt = shared_lines_wrong(BOTH, answer, lists)
    assert (doubted in doubt) if doubted else doubt == "", doubt
    if doubted:
        assert doubt.endswith('the answer to copy: "Anna and Cleo are in both team_a.txt and team_b.txt."'), doubt


def test_the_agent_is_doubted_with_every_shared_name_and_finishes_with_them(assistant_home, tmp_path):
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("read_file", path="team_a.txt"), call("read_file", path="team_b.txt"),
        call("grep", pattern="Cleo", path="."), "The names in both team_a.txt and team_b.txt are Cleo.",
        "Anna and Cleo are in both team_a.txt and team_b.txt."], FILE_TOOLS, approve="all", preread=False)
    (ws / "team_a.txt").write_text("Anna\nBen\nCleo\n")
    (ws / "team_b.txt").write_text("Farid\nCleo\nAnna\n")
    events = list(agent.run(BOTH, workspace=ws))
    store.close()
    doubt = next(e.text for e in events if isinstance(e, Notice) and e.text.startswith("Finish check"))
    assert "the answer leaves out 'Anna'" in doubt, doubt
    assert isinstance(events[-1], Finished) and events[-1].answer.startswith("Anna and Cleo"), events[-1]
