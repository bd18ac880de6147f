"""Everyone under a person in an org chart, directly or indirectly (hierarchy.py)."""

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.hierarchy import reports_under, reports_wrong

ORG = ("name,title,manager\nOlaf,CEO,\nMaria,Head of Product,Olaf\nSven,Head of Sales,Olaf\nTariq,Lead,Maria\n"
       "Uma,Designer,Maria\nVera,Developer,Tariq\nWim,Developer,Tariq\nXena,Intern,Vera\nYusuf,Sales,Sven\n")
GOAL = "How many people in org.csv work under Maria, directly or indirectly?"


def test_the_chain_is_followed_down_every_level(tmp_path):
    (tmp_path / "org.csv").write_text(ORG)
    found = reports_under(GOAL, tmp_path)
    assert found.direct == ["Tariq", "Uma"] and found.everyone == ["Tariq", "Uma", "Vera", "Wim", "Xena"]
    assert found.column == "manager"
    # only direct reports asked: not this check's
    assert reports_under("How many people in org.csv report to Maria?", tmp_path) is None
    assert reports_under("How many people in org.csv work under Nobody, directly or indirectly?", tmp_path) is None


def test_a_count_of_the_direct_reports_is_doubted_with_the_answer_to_copy(tmp_path):
    """Batch JZ at 02d32bb (JZG): "2 people in org.csv work under Maria, directly or indirectly." was done, the
    second query running the same one-level filter."""
    (tmp_path / "org.csv").write_text(ORG)
    doubt = reports_wrong(GOAL, "2 people in org.csv work under Maria, directly or indirectly.", tmp_path)
    assert "2 directly, 5 in all" in doubt
    assert 'answer to copy: "5 people work under Maria, directly or indirectly: Tariq, Uma, Vera, Wim, Xena."' in doubt
    assert reports_wrong(GOAL, "5 people: Tariq, Uma, Vera, Wim and Xena.", tmp_path) == ""
    who = "Who works under Maria in org.csv, directly or indirectly?"
    assert "leaves out 'Xena'" in reports_wrong(who, "Tariq, Uma, Vera and Wim.", tmp_path)
    assert reports_wrong(who, "Tariq, Uma, Vera, Wim and Xena.", tmp_path) == ""


def test_the_finish_check_runs_it(tmp_path):
    (tmp_path / "org.csv").write_text(ORG)
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[], touched=(), tool_names=["read_file", "finish"])
    assert any("5 in all" in p for p in finish_problems("2 people work under Maria.", ev))


def test_the_right_count_is_not_refused_by_the_one_level_count(tmp_path):
    """JZG replayed at 238dd43: the hierarchy doubt's answer to copy ("5 people ...") was given, then refused by the
    one-level count ("the rows of org.csv whose manager is 'Maria' number 2"), and the task was handed off."""
    from assistant.state.models import CallRecord

    (tmp_path / "org.csv").write_text(ORG)
    read = CallRecord(id="s1c0", step=1, turn_seq=1, name="read_file", arguments={"path": "org.csv"}, status="done",
                      result="org.csv (utf-8, 10 lines)\n" + ORG, risk="read")
    ev = Evidence(goal=GOAL, workspace=tmp_path, calls=[read], touched=(), tool_names=["read_file", "finish"])
    assert finish_problems("5 people work under Maria, directly or indirectly: Tariq, Uma, Vera, Wim, Xena.", ev) == []
