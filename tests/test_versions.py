"""The newest (oldest) version number in a file (assistant/loop/versions.py)."""

from __future__ import annotations

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.versions import version_asked, version_wrong

VERSIONS = "Release notes\n- v1.9.2 (March)\n- 1.10.1 (June): fixes\n- 1.2.0 (January)\n- 1.10 (May)\n"


def test_versions_compare_part_by_part(tmp_path):
    (tmp_path / "versions.txt").write_text(VERSIONS)
    assert version_asked("Which is the newest version in versions.txt?", tmp_path) == ("newest", "1.10.1",
                                                                                       "versions.txt")
    assert version_asked("What is the oldest release listed in versions.txt?", tmp_path) == ("oldest", "1.2.0",
                                                                                             "versions.txt")
    assert version_asked("Sort versions.txt with the newest version first.", tmp_path) is None  # a change
    (tmp_path / "one.txt").write_text("version 2.0 only\n")
    assert version_asked("Which is the newest version in one.txt?", tmp_path) is None  # nothing to compare


def test_an_answer_without_the_newest_version_is_doubted(tmp_path):
    """Batch IZ at 2081e47 (IZG): the newest version of versions.txt looked for on the web; as text or as a decimal
    1.9.2 sorts after 1.10.1."""
    (tmp_path / "versions.txt").write_text(VERSIONS)
    goal = "Which is the newest version in versions.txt?"
    doubt = version_wrong(goal, "The newest version is 1.9.2.", tmp_path)
    assert 'answer to copy: "The newest version in versions.txt is 1.10.1."' in doubt
    assert version_wrong(goal, "Version v1.10.1 (June) is the newest.", tmp_path) == ""
    assert version_wrong(goal, "1.10", tmp_path) != ""  # 1.10 is not 1.10.1
    ev = Evidence(goal=goal, workspace=tmp_path, calls=[], tool_names=["read_file", "finish"])
    assert any("part by part" in p for p in finish_problems("The newest version is 1.9.2.", ev))
