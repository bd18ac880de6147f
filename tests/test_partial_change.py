"""A change asked of every cell of a column, made to some (assistant/loop/partial_change.py)."""

from __future__ import annotations

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.partial_change import cell_form, column_partly_changed
from assistant.state.models import CallRecord

PAYMENTS = ('date,payer,amount\n2026-11-03,Müller GmbH,"1.234,50 €"\n2026-11-07,Anna Schmidt,"89,90 €"\n'
            '2026-11-12,Becker & Söhne,"12.000,00 €"\n2026-11-27,Klara Roth,"2.075,10 €"\n')
GOAL = ("The amounts in payments.csv are in German format, like 1.234,50 €. Change every amount to a plain number "
        "with a decimal point (1234.50). Leave the other columns as they are.")


def _evidence(tmp_path, goal, before, now):
    (tmp_path / "payments.csv").write_text(now)
    read = CallRecord(id="s0c0", step=0, turn_seq=1, name="read_file", arguments={"path": "payments.csv"},
                      status="done", result=f"payments.csv (utf-8, {before.count(chr(10))} lines)\n" + "".join(
                          f"{i:>6}\t{line}\n" for i, line in enumerate(before.splitlines(), start=1)),
                      risk="read")
    return Evidence(goal=goal, workspace=tmp_path, calls=[read], touched=("payments.csv",),
                    tool_names=["read_file", "write_file", "finish"])


def test_a_cell_left_in_the_form_a_changed_one_had_is_doubted(tmp_path):
    """Batch KZ at 6a1c8bc (KZG): "1.234,50 €" rewritten as 1234.50, "2.075,10 €" and "12.000,00 €" left, and the
    answer said the file already had plain numbers."""
    assert cell_form("1.234,50 €") == cell_form("2.075,10 €") == "9.9,9 €"
    ev = _evidence(tmp_path, GOAL, PAYMENTS, PAYMENTS.replace('"1.234,50 €"', "1234.50"))
    doubt = column_partly_changed(ev)
    assert doubt.startswith("the task asks every amount of payments.csv changed, and 2 of them are as before")
    assert "'12.000,00 €', '2.075,10 €'" in doubt
    assert any(p == doubt for p in finish_problems("The amounts are plain numbers now.", ev))
    done = PAYMENTS.replace('"1.234,50 €"', "1234.50").replace('"89,90 €"', "89.90").replace(
        '"12.000,00 €"', "12000.00").replace('"2.075,10 €"', "2075.10")
    assert column_partly_changed(_evidence(tmp_path, GOAL, PAYMENTS, done)) == ""


def test_a_change_limited_to_some_rows_or_left_whole_is_not_its(tmp_path):
    half = PAYMENTS.replace('"1.234,50 €"', "1234.50")
    assert column_partly_changed(_evidence(tmp_path, GOAL.replace("every amount", "every amount over 1000"),
                                           PAYMENTS, half)) == ""
    assert column_partly_changed(_evidence(tmp_path, GOAL, PAYMENTS, PAYMENTS)) == ""  # nothing changed: others see it
    assert column_partly_changed(_evidence(tmp_path, "Which amount in payments.csv is the largest?", PAYMENTS,
                                           half)) == ""
