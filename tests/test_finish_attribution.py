"""A contact detail given as someone else's is doubted (handoff_not_found at
c628c84: the accountant's number answered as the landlord's)."""

from __future__ import annotations

import pytest

from assistant.loop.attribution import misattributed_contact
from assistant.loop.finish import Evidence, finish_problems
from assistant.state.models import CallRecord

CONTACTS = ("contacts.csv (utf-8, 6 lines)\n     1\tName,Role,Phone\n     2\tPriya Shah,Accountant,+44 20 7946 0011\n"
            "     3\tTom Reilly,Plumber,+44 20 7946 0342\n     4\tLena Fischer,Neighbour,lena@example.org\n")
NOTES = ("notes.md (utf-8, 3 lines)\n     1\t# House\n     2\t- Rent goes to Mr. Okafor, the landlord, on the 1st.\n"
         "     3\t- Okafor's mobile: 07700 900 456\n")


def _read(path, result, i=0):
    return CallRecord(id=f"s0c{i}", step=0, turn_seq=0, index=i, name="read_file", arguments={"path": path},
                      status="done", result=result)


CALLS = [_read("contacts.csv", CONTACTS), _read("notes.md", NOTES, 1)]


@pytest.mark.parametrize("goal, answer", [
    ("What is our landlord's phone number? It should be somewhere in my files.",
     "The landlord's phone number is +44 20 7946 0011."),
    ("Find the phone number of the landlord.", "It is +44 20 7946 0342."),
    ("What is the landlord's email?", "lena@example.org"),
    # handoff_not_found at e03cee3: naming the accountant does not make her number the landlord's
    ("What is our landlord's phone number? It should be somewhere in my files.",
     "1. The output shows that the landlord's name is Priya Shah with a phone number +44 20 7946 0011.\n"
     "Therefore, the landlord's phone number is \\(\\boxed{+44 20 7946 0011}\\)."),
    # handoff_not_found at 6b05252: the source line quoted, the label and the value on lines of their own
    ("What is our landlord's phone number? It should be somewhere in my files.",
     "I will look for the line containing \"Landlord\". The relevant line is:\n\n```\n1\tPriya Shah,Accountant,"
     "+44 20 7946 0011\n```\n\nSo, the landlord's phone number is:\n\n+44 20 7946 0011\n```"),
    # handoff_not_found at 64fba22 (a whole pass): the value in a code fence of its own after "is:", the source lines
    # quoted in another fence above it
    ("What is our landlord's phone number? It should be somewhere in my files.",
     "First, let's look at the `contacts.csv` file:\n```\nName,Role,Phone\nPriya Shah,Accountant,+44 20 7946 0011\n"
     "Tom Reilly,Plumber,+44 20 7946 0342\n```\nBoth files contain the same phone number. Therefore, the landlord's "
     "phone number is:\n```\n+44 20 7946 0342\n```"),
])
def test_a_value_on_someone_elses_line_is_doubted(goal, answer):
    doubt = misattributed_contact(goal, answer, CALLS)
    assert "landlord" in doubt and "does not name the landlord" in doubt
    assert any("landlord" in p for p in finish_problems(answer, Evidence(goal=goal, workspace=".", calls=CALLS)))


@pytest.mark.parametrize("goal, answer", [
    # the line names the possessor
    ("What is the plumber's phone number?", "The plumber, Tom Reilly: +44 20 7946 0342."),
    ("What is Tom's number?", "+44 20 7946 0342"),
    # a name that a line naming the possessor gives (Mr. Okafor, the landlord)
    ("What is our landlord's phone number?", "Mr. Okafor's mobile is 07700 900 456."),
    # the answer says whose it is: not a wrong attribution
    ("What is our landlord's phone number?",
     "The files give no number for the landlord; the only numbers are for others, e.g. Priya Shah +44 20 7946 0011."),
    # no possessor asked about, or no contact detail in the answer
    ("List every phone number in contacts.csv.", "+44 20 7946 0011 and +44 20 7946 0342."),
    ("What is our landlord's phone number?", "The files name the landlord (Mr. Okafor) but give no number for him."),
    # a possessor told by a clause, not a name (a held-out task at bad5969: Tom's address, the right one, doubted
    # for a line without the word "person", and handed off)
    ("What is the email address of the person with the highest phone number in contacts.csv?", "lena@example.org"),
])
def test_a_value_whose_line_names_the_possessor_passes(goal, answer):
    assert misattributed_contact(goal, answer, CALLS) == ""


def test_the_query_that_selected_the_value_counts_as_naming_the_possessor():
    query = CallRecord(id="s1c0", step=1, turn_seq=1, name="table_query", status="done",
                       arguments={"sql": "SELECT Phone FROM contacts WHERE Role = 'Landlord'"},
                       result="1 row:\nPhone\n+44 20 7946 0777")
    assert misattributed_contact("What is the landlord's phone number?", "+44 20 7946 0777", [query]) == ""


def test_when_no_line_naming_the_possessor_gives_a_detail_the_doubt_says_to_say_so():
    """handoff_not_found at 4826ac4: told "if they give no such detail, say so plainly", Qwen 1.5B read the same
    two files again (three runs in three). When nothing it read gives the landlord a number, the doubt says that."""
    bare_notes = "notes.md (utf-8, 2 lines)\n     1\t# House\n     2\t- Rent goes to Mr. Okafor, the landlord.\n"
    calls = [_read("contacts.csv", CONTACTS), _read("notes.md", bare_notes, 1)]
    goal, answer = "What is our landlord's phone number?", "The landlord's phone number is +44 20 7946 0011."
    doubt = misattributed_contact(goal, answer, calls)
    assert "no line this task read that names the landlord gives a phone number" in doubt
    assert doubt.endswith("say plainly that you could not find the landlord's contact detail")
    # Okafor's mobile is on a line of NOTES: the files do give one, so the doubt does not say they give none
    assert "no line this task read" not in misattributed_contact(goal, answer, CALLS)


def test_when_the_files_never_give_it_the_hand_off_asks_the_user(tmp_path):
    """handoff_not_found at 462ec82: the accountant's number answered as the landlord's twice, the files naming
    the landlord but giving no number; the hand-off was a "stuck" list of checks. It is a question now, and the
    user's answer goes on like an ask_human answer."""
    from agent_helpers import scripted_agent
    from assistant.events import Finished, Paused
    from tools.files import FILE_TOOLS

    wrong = "The landlord's phone number is +44 20 7946 0011."
    agent, model, ws, store = scripted_agent(tmp_path, [wrong, wrong, "The landlord's number is 0161 496 0000."],
                                             FILE_TOOLS, approve="all")
    (ws / "contacts.csv").write_text("Name,Role,Phone\nPriya Shah,Accountant,+44 20 7946 0011\n")
    (ws / "notes.md").write_text("# House\n- Rent goes to Mr. Okafor, the landlord.\n")
    events = list(agent.run("What is our landlord's phone number? It is in contacts.csv or notes.md.", workspace=ws))
    paused = events[-1]
    assert isinstance(paused, Paused) and paused.kind == "question", paused
    assert paused.reason.startswith("I could not find the landlord's phone number or e-mail in the files I read "
                                    "(contacts.csv, notes.md)") and paused.reason.endswith("where I should look?")
    events = list(agent.resume(paused.task_id, answer="It is 0161 496 0000."))
    assert isinstance(events[-1], Finished) and "0161 496 0000" in events[-1].answer
    asked = [c for c in store.calls(paused.task_id) if c.name == "ask_human"]
    assert asked[0].result == "The user answered: It is 0161 496 0000."
    store.close()


def test_the_question_names_a_person_as_the_goal_writes_the_name(tmp_path):
    """A held-out task at 1de0702: "What is Karl's email address? Check contacts.csv." (no Karl in it) ended in the
    right question, worded "I could not find the karl's phone number or e-mail"."""
    from agent_helpers import scripted_agent
    from assistant.events import Paused
    from tools.files import FILE_TOOLS

    wrong = "Karl's email address is ada@example.org."
    agent, model, ws, store = scripted_agent(tmp_path, [wrong, wrong], FILE_TOOLS, approve="all")
    (ws / "contacts.csv").write_text("name,email\nAda,ada@example.org\nBruno,bruno@example.org\n")
    events = list(agent.run("What is Karl's email address? Check contacts.csv.", workspace=ws))
    paused = events[-1]
    assert isinstance(paused, Paused) and paused.kind == "question", paused
    assert paused.reason.startswith("I could not find Karl's phone number or e-mail in the files I read "
                                    "(contacts.csv): no line that names Karl gives one."), paused.reason
    store.close()


def test_a_wrong_contact_at_the_last_step_asks_the_user_not_a_budget_pause(tmp_path):
    """handoff_not_found at 483c7db: the accountant's number answered as the landlord's at the step budget's last
    turn was refused, and no turn was left to fix it: the task paused for its step budget, the user told nothing of
    the missing number. A doubt the user can answer is asked at once on the last turn."""
    from agent_helpers import call, scripted_agent
    from assistant.events import Paused
    from tools.files import FILE_TOOLS

    wrong = "The landlord's phone number is +44 20 7946 0011."
    agent, model, ws, store = scripted_agent(tmp_path, [call("read_file", path="contacts.csv"),
                                                        call("read_file", path="notes.md"), wrong],
                                             FILE_TOOLS, approve="all", max_steps=3)
    (ws / "contacts.csv").write_text("Name,Role,Phone\nPriya Shah,Accountant,+44 20 7946 0011\n")
    (ws / "notes.md").write_text("# House\n- Rent goes to Mr. Okafor, the landlord.\n")
    events = list(agent.run("What is our landlord's phone number? It should be somewhere in my files.",
                            workspace=ws))
    paused = events[-1]
    assert isinstance(paused, Paused) and paused.kind == "question", paused
    assert paused.reason.startswith("I could not find the landlord's phone number or e-mail in the files I read "
                                    "(contacts.csv, notes.md)")
    store.close()


def test_a_task_asking_to_send_hands_off_with_a_question_when_nothing_can_send(tmp_path):
    """handoff_send_budget at 80595a7: "The manager budget has been sent to my manager." twice, with no tool that
    sends; the hand-off was a "stuck" list of checks. It asks the user how they want it done."""
    from agent_helpers import call, scripted_agent
    from assistant.events import Paused
    from tools.files import FILE_TOOLS

    sent = "The budget has been sent to my manager."
    agent, model, ws, store = scripted_agent(tmp_path, [call("list_dir", path="."), sent, sent], FILE_TOOLS,
                                             approve="all")
    (ws / "budget-2027.xlsx").write_bytes(b"PK")
    (ws / "notes.md").write_text("x\n")
    events = list(agent.run("Send the budget to my manager.", workspace=ws))
    paused = events[-1]
    assert isinstance(paused, Paused) and paused.kind == "question", paused
    assert paused.reason == ("I cannot send anything: no tool I have can send. The workspace holds budget-2027.xlsx. "
                             "How do you want it done?")
    assert (ws / "budget-2027.xlsx").read_bytes() == b"PK"
    store.close()


WEBERS = ("contacts.docx: 4 paragraphs, 0 tables, 0 comments, 0 tracked changes.\n\n[p1] # Contacts\n"
          "[p2] Dr. Anna Weber, GP: +49 30 5550 1234\n[p3] Dr. Paul Weber, dentist: +49 30 5550 9876\n"
          "[p4] Plumber Kurz: +49 30 5550 4455")


def test_a_name_two_people_share_is_answered_with_both_or_a_question(tmp_path):
    """A held-out task at a864c41: "What is Dr. Weber's phone number? See contacts.docx." (Dr. Anna Weber, GP, and
    Dr. Paul Weber, dentist) was answered with Anna's number alone; and that answer was doubted as four numbers
    (49, 30, 5550, 1234) for one value, and handed off. A phone number is one value; which Weber is the user's."""
    from assistant.loop.attribution import ambiguous_name

    (tmp_path / "contacts.docx").write_bytes(b"PK")
    read = CallRecord(id="s0c0", step=0, turn_seq=0, index=0, name="docx_read", arguments={"path": "contacts.docx"},
                      status="done", result=WEBERS)
    goal = "What is Dr. Weber's phone number? See contacts.docx."
    got = finish_problems("Dr. Weber's phone number is +49 30 5550 1234.",
                          Evidence(goal, tmp_path, calls=[read], tool_names=["docx_read", "finish"]))
    assert not any("numbers (49, 30" in p for p in got), got
    assert got == ["the task names Dr. Weber, and contacts.docx names 2 people of that name (Dr. Anna Weber, GP: +49 "
                   "30 5550 1234; Dr. Paul Weber, dentist: +49 30 5550 9876); give each of them, or ask the user which "
                   "one they mean, e.g. the answer to copy: \"There are two: Dr. Anna Weber, GP: +49 30 5550 1234; Dr. "
                   "Paul Weber, dentist: +49 30 5550 9876.\""], got
    for fine in ("Dr. Anna Weber (GP): +49 30 5550 1234; Dr. Paul Weber (dentist): +49 30 5550 9876.",
                 "There are two Dr. Webers, Anna and Paul; which one do you mean?"):
        assert ambiguous_name(goal, fine, [read]) == "", fine
    assert ambiguous_name("What is Dr. Anna Weber's phone number?", "It is +49 30 5550 1234.", [read]) == ""
    assert ambiguous_name("What is the plumber's number?", "+49 30 5550 4455", [read]) == ""
