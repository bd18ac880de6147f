"""A figure given for another period than the goal asks about is doubted
(pdf_number_lookup at 0ed7096: last year's 4.1 days answered for "this year")."""

from __future__ import annotations

import pytest

from assistant.loop.finish import Evidence, finish_problems
from assistant.loop.period import wrong_page, wrong_period
from assistant.state.models import CallRecord

REVIEW = ("logistics-review.pdf (3 pages)\n--- page 1 ---\nLogistics review 2026\n"
          "Last year the average delivery time was 4.1 days across 18,200 orders.\n--- page 2 ---\n"
          "Orders shipped this year: 21,450.\nAverage delivery time this year: 3.4 days.\n"
          "Late deliveries: 6.2 percent of orders.\n--- page 3 ---\nBring the average delivery time down to 2.9 days.")
CALLS = [CallRecord(id="s0c0", step=0, turn_seq=0, name="pdf_read", arguments={"path": "logistics-review.pdf"},
                    status="done", result=REVIEW)]
GOAL = "What was our average delivery time this year? It is in logistics-review.pdf."


@pytest.mark.parametrize("answer", [
    "The average delivery time this year was 4.1 days.",
    "4.1 days",
    "Across 18,200 orders the average was 4.1 days.",
])
def test_a_figure_found_only_on_another_periods_line_is_doubted(answer):
    doubt = wrong_period(GOAL, answer, CALLS)
    assert "about last year" in doubt and "asks about this year" in doubt and "4.1" in doubt
    assert any("about last year" in p for p in finish_problems(answer, Evidence(goal=GOAL, workspace=".",
                                                                               calls=CALLS)))


@pytest.mark.parametrize("goal, answer", [
    (GOAL, "The average delivery time this year was 3.4 days (page 2)."),
    (GOAL, "This year it was 3.4 days, down from 4.1 days last year."),  # the answer says 4.1 is last year's
    ("What was the average delivery time last year?", "4.1 days across 18,200 orders."),
    ("Compare this year and last year.", "4.1 days last year, 3.4 days this year."),  # two periods: no check
    ("How many orders were shipped?", "21,450 orders, against 18,200 last year."),  # no period in the goal
    (GOAL, "It was 5.5 days."),  # from no tool at all: the number check speaks to that
])
def test_a_figure_on_a_line_of_the_goals_period_or_of_no_period_passes(goal, answer):
    assert wrong_period(goal, answer, CALLS) == ""


@pytest.mark.parametrize("answer", ["The average delivery time this year is 2.9 days.", "The target is 2.9 days."])
def test_a_figure_of_a_line_of_no_period_beside_the_goals_own_line_is_doubted(answer):
    """pdf_number_lookup at 61738e2: "The average delivery time this year is 2.9 days." finished, the figure of "Bring
    the average delivery time down to 2.9 days." (under "Targets for 2027"); page 2 says "Average delivery time this
    year: 3.4 days."."""
    doubt = wrong_period(GOAL, answer, CALLS)
    assert doubt.startswith("the answer gives 2.9, which no line about this year holds; the task asks about this "
                            "year: answer with the figure for this year, e.g. the answer to copy:") and "3.4" in doubt


def test_a_failed_call_is_not_a_source():
    failed = CallRecord(id="s0c1", step=0, turn_seq=0, name="read_file", arguments={"path": "x"}, status="done",
                        error=True, result="Last year: 4.1 days")
    assert wrong_period(GOAL, "4.1 days", [failed]) == ""


REPORT = ("q3-report.pdf: 4 pages.\n--- page 1 ---\nQ3 Report - Northwind Bakery Co-op\n"
          "Last quarter (Q2) total revenue: 6.10 million EUR.\n--- page 2 ---\nEurope revenue: 2.40 million EUR.\n"
          "--- page 3 ---\nFinancial summary\nQ3 total revenue: 7.85 million EUR.\n--- page 4 ---\nOutlook")
PDF_CALLS = [CallRecord(id="s0c0", step=0, turn_seq=0, name="pdf_read", arguments={"path": "q3-report.pdf"},
                        status="done", result=REPORT)]
PAGE_GOAL = "What total revenue figure is reported on page 3 of q3-report.pdf?"


@pytest.mark.parametrize("answer", ["6.10", "The total revenue is 6.10 million EUR."])
def test_a_figure_found_only_on_another_page_than_the_goal_names_is_doubted(answer):
    """pdf_find_figure at 4826ac4: "6.10", page 1's last-quarter figure, answered for page 3."""
    doubt = wrong_page(PAGE_GOAL, answer, PDF_CALLS)
    assert "only on page 1" in doubt and "asks about page 3" in doubt and "6.1" in doubt
    assert any("only on page 1" in p for p in finish_problems(answer, Evidence(goal=PAGE_GOAL, workspace=".",
                                                                               calls=PDF_CALLS)))


@pytest.mark.parametrize("goal, answer", [
    (PAGE_GOAL, "7.85 million EUR."),
    (PAGE_GOAL, "Page 3 gives 7.85 million; page 1 gives last quarter's 6.10."),  # says where 6.10 is from
    ("What is the total revenue in q3-report.pdf?", "6.10 million"),  # no page in the goal
    ("Compare page 1 and page 3.", "6.10 against 7.85"),  # two pages: no check
    (PAGE_GOAL, "It was 9.99 million."),  # from no tool: the number check speaks to that
])
def test_a_figure_on_the_page_asked_about_or_no_page_asked_is_not_doubted(goal, answer):
    assert wrong_page(goal, answer, PDF_CALLS) == ""


def test_the_doubt_gives_the_line_of_the_goals_period_or_page_to_copy():
    """pdf_number_lookup at 4f7db1e: "The average delivery time for 2026 was 4.1 days, and this year it was 3.4
    days." refused twice for last year's 4.1, with no line to copy, and handed off. The doubt now gives the line of
    the goal's period (or page) that shares the goal's words, as the answer to copy."""
    doubt = wrong_period(GOAL, "4.1 days", CALLS)
    assert doubt.endswith(', e.g. the answer to copy: "Average delivery time this year: 3.4 days."'), doubt
    doubt = wrong_page(PAGE_GOAL, "6.10", PDF_CALLS)
    assert doubt.endswith(', e.g. the answer to copy: "Q3 total revenue: 7.85 million EUR."'), doubt
    # no line of the goal's period shares two of its words: nothing to copy, and the plain "say so" stays
    goal = "What was our return rate this year? It is in logistics-review.pdf."
    calls = [CallRecord(id="s0c0", step=0, turn_seq=0, name="pdf_read", arguments={"path": "r.pdf"}, status="done",
                        result="Last year the return rate was 4.1 percent.\nOrders shipped this year: 21,450.")]
    assert wrong_period(goal, "4.1 percent", calls).endswith("(if the files give none, say so plainly)")


def test_an_answer_that_gives_only_another_periods_figure_is_doubted():
    """pdf_number_lookup at 7b217b1: "The average delivery time last year was 4.1 days across 18,200 orders."
    finished for "this year": the answer says its period, and does not answer the question. With this year's figure
    beside it, it passes."""
    answer = "The average delivery time last year was 4.1 days across 18,200 orders."
    doubt = wrong_period(GOAL, answer, CALLS)
    assert doubt.startswith("the answer gives only last year's figure (4.1); the task asks about this year"), doubt
    assert doubt.endswith('the answer to copy: "Average delivery time this year: 3.4 days."')
    assert wrong_period(GOAL, "This year it was 3.4 days, down from 4.1 days last year.", CALLS) == ""
    # the same run's third try: last year's line quoted, then 4.1 called this year's
    quoted = ('The text states: "Last year the average delivery time was 4.1 days across 18,200 orders."\n'
              "Therefore, the average delivery time this year was **4.1 days**.")
    assert wrong_period(GOAL, quoted, CALLS).startswith("the answer gives only last year's figure (4.1)")
