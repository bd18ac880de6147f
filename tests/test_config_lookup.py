"""A setting looked up in an INI-style config file (assistant/loop/config_lookup.py)."""

from __future__ import annotations

from assistant.loop.config_lookup import setting_asked, setting_wrong
from assistant.loop.finish import Evidence, finish_problems

SETTINGS = ("; backend settings\n[database.production]\nhost = db01\nport = 5432\n\n[web.staging]\nhost = stage\n"
            "port = 8081\n\n[database.staging]\nhost = db-stage\nport = 6543\nmax_connections = 20\n\n"
            "[web.production]\nport = 443\n")
GOAL = "Which port does the staging database use, according to settings.ini?"


def test_the_section_whose_every_name_part_the_goal_says_is_the_one(tmp_path):
    (tmp_path / "settings.ini").write_text(SETTINGS)
    found = setting_asked(GOAL, tmp_path)
    assert (found.section, found.key, found.value) == ("database.staging", "port", "6543")
    found = setting_asked("What is the max connections setting of the staging databases in settings.ini?", tmp_path)
    assert (found.section, found.value) == ("database.staging", "20")
    assert setting_asked("Which port does staging use in settings.ini?", tmp_path) is None  # web or database?
    assert setting_asked("What is the host of the staging database in settings.ini?", tmp_path).value == "db-stage"
    assert setting_asked("Set the staging database port in settings.ini to 6000.", tmp_path) is None  # a change


def test_another_sections_value_is_doubted_with_the_answer_to_copy(tmp_path):
    """Batch KZ at 6a1c8bc (KZA): 8081, the port of [web.staging] (the first section named staging), answered."""
    (tmp_path / "settings.ini").write_text(SETTINGS)
    doubt = setting_wrong(GOAL, "The staging database uses port 8081 according to settings.ini.", tmp_path)
    assert 'the one the task names is [database.staging], the answer to copy: "In settings.ini, port in the ' \
           'section [database.staging] is 6543."' in doubt
    assert setting_wrong(GOAL, "Port 6543.", tmp_path) == ""
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], tool_names=["read_file", "finish"])
    assert any("[database.staging]" in p for p in finish_problems("It uses port 8081.", ev))


def test_a_file_that_is_no_config_is_left_alone(tmp_path):
    (tmp_path / "settings.ini").write_text("port 6543 for the database\n")  # no section
    assert setting_asked(GOAL, tmp_path) is None
