"""An account's balance from an opening balance and a ledger (assistant/loop/balance.py)."""

from __future__ import annotations

import decimal

from assistant.events import Finished, Notice
from assistant.loop.balance import balance_asked, balance_wrong
from tools.files import FILE_TOOLS
from tools.tables import TABLE_TOOLS
from agent_helpers import call, scripted_agent

LEDGER = ("date,description,type,amount\n2026-11-02,Salary,credit,2850.00\n2026-11-03,Rent,debit,950.00\n"
          "2026-11-12,Refund,credit,39.99\n2026-11-28,Supermarket,debit,112.64\n2026-12-01,Rent,debit,950.00\n")
GOAL = ("My account had an opening balance of 1,250.00 on 1 November 2026. ledger.csv lists its movements: credit "
        "rows add money, debit rows take money out. What was the balance at the end of November 2026?")


def test_money_in_is_added_and_money_out_taken_away_up_to_the_day(tmp_path):
    (tmp_path / "ledger.csv").write_text(LEDGER)
    found = balance_asked(GOAL, tmp_path)
    # 1250 + 2850 - 950 + 39.99 - 112.64; the rent of 1 December is after the day asked
    assert found.balance == decimal.Decimal("3077.35") and found.rows == 4 and str(found.day) == "2026-11-30"
    assert balance_asked(GOAL.replace("at the end of November 2026", "on 3 November 2026"), tmp_path).balance == \
        decimal.Decimal("3150.00")
    assert balance_asked("What is the total of debit rows in ledger.csv?", tmp_path) is None
    (tmp_path / "ledger.csv").write_text(LEDGER + "2026-11-30,Gift,transfer,20\n")  # a type it cannot read
    assert balance_asked(GOAL, tmp_path) is None


def test_another_figure_is_doubted_and_the_right_one_can_be_copied(assistant_home, tmp_path):
    """Batch KZ at 6a1c8bc (KZB): every amount up to 20 November added, debits too and no opening balance."""
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "ledger.csv").write_text(LEDGER)
    doubt = balance_wrong(GOAL, "The balance was 4064.14.", tmp_path / "x")
    assert 'answer to copy: "The balance on 2026-11-30 was 3077.35."' in doubt
    assert balance_wrong(GOAL, "It was 3,077.35 at the end of November.", tmp_path / "x") == ""
    sql = "SELECT SUM(amount) FROM ledger"
    run = scripted_agent(tmp_path, [call("table_query", sql=sql), "The balance was 4902.63.",
                                    "The balance on 2026-11-30 was 3077.35."],
                         [*FILE_TOOLS, *TABLE_TOOLS], approve="all", preread=False)
    (run.ws / "ledger.csv").write_text(LEDGER)
    events = list(run.agent.run(GOAL, workspace=run.ws))
    run.store.close()
    assert any(isinstance(e, Notice) and "the harness added the 4 movements" in e.text for e in events)
    assert [e.answer for e in events if isinstance(e, Finished)] == ["The balance on 2026-11-30 was 3077.35."]


def test_a_verb_whose_subject_is_the_data_asks_no_change():
    """KZB's goal was not counted as a question ("credit rows add money"), so no second query was asked."""
    from assistant.loop.evidence import asks_only_a_question

    assert asks_only_a_question(GOAL)
    assert not asks_only_a_question("Which rows of ledger.csv are debits? Add them to debits.csv.")
