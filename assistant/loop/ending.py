"""Ending a task: an answer (plain text or a ``finish`` call) is accepted only
after :func:`assistant.loop.finish.finish_problems` finds nothing doubtful.

The first doubtful answer is fed back to the model with the list of doubts
(a message starting :data:`FINISH_CHECK_PREFIX`); a second one since the
user's last note pauses the task for the human with that list (a hand-off
with reasons, pause kind "stuck": continue with a note, or stop), never a
wrong "done"; when every doubt gives the answer to copy, one last turn first,
which may only give that answer or ask the user (:data:`LAST_TRY`). When the reason is that the files do not hold what the goal asks
for, the pause is a question to the user instead (kind "question"; answering
it goes on like an ``ask_human`` answer).
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable, Iterator, Sequence

from ..events import Event, Notice
from ..state.models import CallRecord, StoredMessage
from ..state.session import TaskSession
from .ambiguity import ambiguous_goal
from .answer_form import ANSWER_TO_COPY, CANNED_REFUSAL, answer_to_copy
from .attribution import NOT_FOUND_TAIL
from .cross_check import MAX_COMPARED_ROWS, CrossCheck, cell_text, derived_by_the_harness, table_question_files
from .evidence import _NOT_DONE, Evidence, made_paths
from .finish import _QUOTED, FINISH, FINISH_CHECK_PREFIX, changed_nothing, finish_problems, gives_up, undoable_verb
from .period import pages_answer
from .recap import PENDING_CALL, call_to_copy, changed_so_far, found_so_far, next_call_to_copy

__all__ = ["end_with_answer", "evidence_of", "checks_failed_since_note", "touched_paths", "answer_to_give",
           "finish_giving"]

#: the line a finish check ends with when the next turn may only give the answer to copy or ask the user
LAST_TRY = "Last try: call finish with the answer to copy, or ask_human if it is not the answer."


def touched_paths(changes: Sequence[Any]) -> list[str]:
    """The workspace paths a task's change journal entries (oldest first) name: each
    change's ``path`` and, for moves and copies, its ``dest``."""
    return [str(ch.record[key]) for ch in changes for key in ("path", "dest") if ch.record.get(key)]


def evidence_of(sess: TaskSession, tool_names: Sequence[str], extra_texts: Sequence[str] = (),
                harness_extra: Sequence[str] = ()) -> Evidence:
    """What the task's answer may rest on: goal, the user's notes and answers,
    the call journal and the paths this task changed (from the change journal)."""
    task = sess.task
    user = [m.content for m in sess.messages if m.role == "user" and m.kind == "note"]
    changes = sess.store.changes(task.id)
    touched = touched_paths(changes)
    harness = [m.content for m in sess.messages if m.role == "user" and m.kind in ("format_error", "corrective")]
    # the harness's own results too: a repeat answered from the journal, a refused call (note_search: Qwen 1.5B
    # answered with the "Not run again: this exact note_search call ..." note, and the task finished)
    harness += [c.result for c in sess.calls
                if c.result and ((c.data or {}).get("repeat_of") or c.status in ("denied", "invalid"))]
    # and what the harness's own tools said (handoff_which_contract at 8282b36: "... now do its first step that is
    # not done.", update_plan's result, as the answer: taken as giving up, and handed off)
    harness += [c.result for c in sess.calls if c.result and c.name in ("update_plan", "use_tools")]
    harness += [t for t in harness_extra if t]  # e.g. the last step's closing note, which is never stored
    return Evidence(goal=task.goal, workspace=task.workspace, calls=list(sess.calls), touched=touched,
                    made=made_paths(ch.record for ch in changes),
                    written=[str(ch.record["path"]) for ch in changes if ch.record.get("op") in ("create", "write")],
                    user_texts=user, tool_names=list(tool_names), extra_texts=list(extra_texts),
                    harness_texts=harness)


def checks_failed_since_note(messages: Sequence[StoredMessage]) -> int:
    """Finish-check feedback given since the user's last note (or the goal)."""
    n = 0
    for m in messages:
        if m.role == "user" and m.kind in ("note", "goal"):
            n = 0
        elif m.kind in ("corrective", "observation") and m.content.startswith(FINISH_CHECK_PREFIX):
            n += 1
    return n


def _worked_since_last_check(sess: TaskSession) -> bool:
    """A tool call ran and succeeded, not as a repeat, after the last finish-check
    feedback: the second refused answer then gets one more try before the hand-off.
    xlsx_two_sheet_total at 42e28a8: Q1's sum refused as one sheet's, Q2's sum
    queried, Q1's sum answered again and handed off; the second doubt could give the
    SELECT adding both, and the model never saw it."""
    last = max((m.step for m in sess.messages if m.kind in ("corrective", "observation")
                and m.content.startswith(FINISH_CHECK_PREFIX)), default=None)
    return last is not None and any(
        c.step > last and c.status == "done" and not c.error and not (c.data or {}).get("repeat_of")
        and c.name not in ("finish", "ask_human") for c in sess.calls)


def _changed_after_every_check(sess: TaskSession) -> bool:
    """Every finish-check feedback since the user's last note was followed by a
    successful change (a write or destructive call, not a repeat) before the next
    answer: the model is doing the work between its early answers.
    files_organise at ab03949: "I could not find it" answered three times, each time
    after a right move of one kind of file, and handed off with the txt files left."""
    checks: list[int] = []
    for m in sess.messages:
        if m.role == "user" and m.kind in ("note", "goal"):
            checks = []
        elif m.kind in ("corrective", "observation") and m.content.startswith(FINISH_CHECK_PREFIX):
            checks.append(m.step)
    changes = [c.step for c in sess.calls if c.status == "done" and not c.error and (c.risk or "read") != "read"
               and not (c.data or {}).get("repeat_of") and c.name not in ("finish", "ask_human")]
    ends = [*checks[1:], float("inf")]
    return bool(checks) and all(any(a < c < b for c in changes) for a, b in zip(checks, ends))


def _refused_the_copy(answer: str, problems: Sequence[str]) -> bool:
    """True when ``answer`` is a canned refusal and a doubt gives the answer to copy:
    the second refused answer then gets one more try before the hand-off.
    calendar_list_day at 07558e8: the day's two events listed, the answer to copy
    given, and "I'm sorry, but I can't assist with that request." handed off."""
    return bool(CANNED_REFUSAL.match(answer)) and any(ANSWER_TO_COPY.search(p) for p in problems)


def _copy_left(problems: Sequence[str], messages: Sequence[StoredMessage]) -> bool:
    """True when every doubt gives the answer to copy and no last try was given since the
    user's last note: the hand-off then waits for one turn that may only give that answer
    (``finish``, its answer fixed by the grammar) or ask the user. calendar_list_day at
    4f7db1e, twice in three runs: the day's two events listed, the answer to copy given,
    and "I could not find the calendar list events" or a canned refusal sent again."""
    if not problems or not all(ANSWER_TO_COPY.search(p) for p in problems):
        return False
    for m in reversed(messages):
        if m.role == "user" and m.kind in ("note", "goal"):
            return True
        if m.kind in ("corrective", "observation") and m.content.startswith(FINISH_CHECK_PREFIX) \
                and m.content.rstrip().endswith(LAST_TRY):
            return False
    return True


def answer_to_give(messages: Sequence[StoredMessage]) -> str:
    """The answer to copy when the last message is a finish check ending in
    :data:`LAST_TRY` (the next turn may give only it, or ask the user); "" otherwise."""
    last = messages[-1] if messages else None
    if last is None or not last.content.startswith(FINISH_CHECK_PREFIX) or not last.content.rstrip().endswith(LAST_TRY):
        return ""
    m = ANSWER_TO_COPY.search(last.content)
    return m.group(0)[len('the answer to copy: "'):-1] if m else ""


def finish_giving(answer: str) -> dict[str, Any]:
    """The ``finish`` tool schema whose ``answer`` can only be ``answer`` (an enum of one:
    the grammar writes it whole)."""
    schema = json.loads(json.dumps(FINISH.schema()))
    schema["function"]["parameters"]["properties"]["answer"] = {"type": "string", "enum": [answer]}
    return schema


def _ask_user(sess: TaskSession, msg: StoredMessage, question: str, finish_call: CallRecord | None,
              refusal: str) -> Iterator[Event]:
    """Pause the task on ``question`` to the user, as an ``ask_human`` call the
    harness makes; a ``finish_call`` is recorded refused with ``refusal`` (or, when
    that is "", as handed off)."""
    ask = CallRecord(id=f"s{msg.step}q", step=msg.step, turn_seq=msg.seq, index=9, name="ask_human",
                     arguments={"question": question}, risk="read", status="awaiting_answer")
    extra, calls = [], [ask]
    if finish_call is not None:
        if refusal:
            finish_call.status, finish_call.result, finish_call.error = "invalid", refusal, True
        else:
            finish_call.status, finish_call.result = "done", "Handed off to the user."
        sess.task.usage.tool_calls += 1
        extra.append(_observation(sess, msg, finish_call))
        calls.insert(0, finish_call)
    sess.task.usage.tool_calls += 1
    yield sess.pause("question", question, [], call_id=ask.id, messages=[msg, *extra], calls=calls)


def _cannot_question(answer: str, ev: Evidence) -> str:
    """The question for the user when ``answer`` says plainly it could not do work no
    tool can do (``undoable_verb``: "send"): the answer's first sentence saying so,
    then "No tool here can send; how do you want it done?"; "" otherwise. Such a task
    cannot be done right, so it ends in a hand-off, not "done" (handoff_send_budget at
    66187ce: "I cannot send the budget to your manager. Please ask how they want it
    done." finished the task)."""
    verb = undoable_verb(ev.goal, ev.tool_names)
    if not verb:
        return ""
    said = next((x.strip() for x in re.split(r"(?<=[.!?])\s+", answer) if _NOT_DONE.search(x)), "")
    if not said:
        return ""
    said = said if said.endswith((".", "!", "?")) else f"{said}."
    return f"{said} No tool here can {verb}; how do you want it done?"


def _hand_off(sess: TaskSession, msg: StoredMessage, reason: str, finish_call: CallRecord | None) -> Event:
    """The "stuck" pause of a hand-off with ``reason`` (continue with a note, or stop);
    a ``finish_call`` is recorded as handed off."""
    extra = []
    if finish_call is not None:
        finish_call.status, finish_call.result = "done", "Handed off to the user."
        sess.task.usage.tool_calls += 1
        extra.append(_observation(sess, msg, finish_call))
    return sess.pause("stuck", reason, ["continue", "stop"], messages=[msg, *extra],
                      calls=[finish_call] if finish_call else [])


def _second_query_reason(answer: str, found: CrossCheck) -> str:
    """The hand-off reason when the second query (:mod:`.cross_check`) disagrees with ``answer``."""
    head = " | ".join(found.columns)
    rows = "\n".join("  " + " | ".join(cell_text(v) for v in r) for r in found.rows[:MAX_COMPARED_ROWS])
    result = (f"The second query: {found.sql}\nIts result ({found.total} row{'s' if found.total != 1 else ''}"
              f"{', the first shown' if found.total > len(found.rows) else ''}):\n  {head}\n{rows}\n")
    return (f"Hand-off: a second query over the table does not give this answer, and the harness cannot tell which "
            f"is right (the answer leaves out: {found.why}).\nIts answer: {answer[:500]}\n{result}"
            "Check which is right; add a note and continue, or stop.")


def end_with_answer(sess: TaskSession, msg: StoredMessage, answer: str, ev: Evidence,
                    finish_call: CallRecord | None = None,
                    cross_check: Callable[[str, Evidence], CrossCheck | None] | None = None) -> Iterator[Event]:
    """Finish the task with ``answer`` (the text of ``msg``, or the argument of
    its ``finish_call``) when the checks pass and ``cross_check`` (the second query of
    :mod:`.cross_check`; None: none) does not disagree; otherwise feed the doubts back
    once (twice when a tool call succeeded between the two refused answers; up to
    four times while a change followed every doubt and a call to copy is still
    pending), then pause for the human; a second query that disagrees pauses at once.
    Returns True when the task ended or paused."""
    problems = finish_problems(answer, ev)
    also = all(p.startswith("the task also asks") for p in problems)  # the part left out: what was it?
    dropped = dropped_finding(answer, _refused_answers(sess), ev) if also else ""
    problems = [dropped] if dropped else problems
    why = "" if problems else gives_up(answer, ev)
    pending = next_call_to_copy(ev.calls) if why and not checks_failed_since_note(sess.messages) else ""
    if pending:  # files_rename_pattern at 1c5fa31: rename_many's error gave the call to copy, and the next turn
        # said "I couldn't find any file named like IMG_0042.jpg" and was handed off; one more try, with the call
        why, problems = "", [f"the answer says it could not be done, but the call that does it was given and not "
                             f"made yet ({pending})"]
    # a change never made, whatever the doubt or give-up, where "the contract" fits several files (handoff_which_
    # contract at 8282b36: update_plan's result echoed): which one is the user's to say (the ask_human call to copy
    # below, then the question)
    which = ambiguous_goal(ev.goal, ev.workspace) if (why or problems) and changed_nothing(ev) else None
    if why and which:
        why, problems = "", ["the answer says it could not be done, and which file the task means is not known yet"]
    if why:  # an honest "could not": the user decides what next
        yield _hand_off(sess, msg, f"Hand-off: {why}.\nIts answer: {answer[:500]}\nAdd a note and continue, or stop.",
                        finish_call)
        return True
    cannot = "" if problems or why else _cannot_question(answer, ev)
    if cannot:  # handoff_send_budget at 66187ce: "I cannot send the budget ... Please ask how they want it done."
        yield from _ask_user(sess, msg, cannot, finish_call, "")  # finished the task; the user is asked instead
        return True
    derived = derived_by_the_harness(ev.goal, ev.workspace) if not problems and cross_check is not None and \
        table_question_files(ev.goal) else ""
    if derived:  # the finish checks held the answer to the harness's own finding: no query overrules it
        yield Notice(f"No second query: the harness worked out {derived} itself, and the answer gives it")
    elif not problems and cross_check is not None and table_question_files(ev.goal):
        yield Notice("Checking the answer with a second query over the table")
        found = cross_check(answer, ev)
        if found is not None and found.verdict == "disagrees":
            yield _hand_off(sess, msg, _second_query_reason(answer, found), finish_call)
            return True
        if found is not None:  # what it found, for the user to see (batch GZ at 833d98d: GZC's wrong 2025 let
            # through by a second query as wrong as the answer, and nothing said which)
            said = "agrees with the answer" if found.verdict == "agrees" else "settles nothing"
            yield Notice(f"The second query {said}: {found.sql or '(no SQL in the reply)'}")
    if not problems:
        msg.kind = "answer"
        sess.task.call_expected = False
        if finish_call is not None:
            finish_call.status, finish_call.result = "done", "Finished."
            sess.task.usage.tool_calls += 1
            sess.commit(calls=[finish_call])
        yield sess.finish(answer, messages=[msg])
        return True
    if which:  # handoff_which_contract at 1c5fa31: "updated" claimed three times, no change tried, never asked
        phrase, files = which
        question = f'The task says "{phrase}", and {len(files)} files could be it: {", ".join(files)}. Which one?'
        problems = [*problems, f"only the user knows which file \"{phrase}\" is ({', '.join(files)}): "
                    + call_to_copy("ask_human", {"question": question})]
    listed = "\n".join(f"- {p}" for p in problems)
    # on the step budget's last turn no turn is left to fix a doubt: the user is asked at once (handoff_not_found at
    # 483c7db: the accountant's number refused on the last turn paused for its budget, the missing number untold)
    last_turn = sess.task.usage.steps >= sess.task.budgets.max_steps
    question = _question_for_the_user(problems, ev) if checks_failed_since_note(sess.messages) >= 1 or last_turn \
        else ""
    if question:  # handoff_not_found at 462ec82: the files name the landlord and give no number
        yield from _ask_user(sess, msg, question, finish_call, f"{FINISH_CHECK_PREFIX} {listed}")
        return True
    failed = checks_failed_since_note(sess.messages)
    last_try = failed >= 1 and _copy_left(problems, sess.messages)
    if failed >= 1 and not (failed == 1 and (_worked_since_last_check(sess) or _refused_the_copy(answer, problems))) \
            and not (failed <= 3 and _changed_after_every_check(sess) and next_call_to_copy(ev.calls, sess.messages)) \
            and not last_try:
        times = "twice" if failed == 1 else "three times"
        reason = (f"Hand-off: the agent's answer did not pass the finish checks {times}:\n{listed}\n"
                  f"Its answer: {answer[:300]}\nAdd a note and continue, or stop.")
        extra = []
        if finish_call is not None:
            finish_call.status, finish_call.result, finish_call.error = "invalid", f"{FINISH_CHECK_PREFIX} {listed}", True
            sess.task.usage.tool_calls += 1
            extra.append(_observation(sess, msg, finish_call))
        yield sess.pause("stuck", reason, ["continue", "stop"], messages=[msg, *extra],
                         calls=[finish_call] if finish_call else [])
        return True
    text = (f"{FINISH_CHECK_PREFIX} the answer was not accepted:\n{listed}\n"
            "Fix this with tool calls, then finish again. If something cannot be done, say plainly what and why.")
    found = found_so_far(ev.goal, ev.calls, sess.task.marker)
    if found:  # where a small model looks: note_search, calendar_list_day (see recap.py)
        text += f"\nWhat your calls found that bears on the task (answer from it where it answers the task):\n{found}"
    changed = changed_so_far(ev.calls)
    if changed:  # files_rename_pattern at f000187: the work done, the answer a copy of an earlier turn
        text += f"\nWhat your calls changed so far (say what was done from this, if it is the task done):\n{changed}"
    pending = next_call_to_copy(ev.calls)
    if pending:  # xlsx_summary_sheet at f000187: the call that does the work was spelled out, never made
        text += f"\n{PENDING_CALL} (harness note at {pending})."
    if last_try:
        text += f"\n{LAST_TRY}"
    if finish_call is not None:
        finish_call.status, finish_call.result, finish_call.error = "invalid", text, True
        sess.task.usage.tool_calls += 1
        sess.commit(messages=[msg, _observation(sess, msg, finish_call)], calls=[finish_call])
    else:
        note = StoredMessage(seq=msg.seq + 1, step=msg.step, role="user", kind="corrective", content=text)
        sess.commit(messages=[msg, note])
    yield Notice(f"Finish check: {'; '.join(problems)}")
    return False


#: a goal of two questions: "How many pages ..., and what is the title ...?"
_TWO_QUESTIONS = re.compile(r"\b(how many|how much|what|which|who|when|where)\b[^?]*\band\s+(how many|how much|what|"
                            r"which|who|when|where)\b", re.IGNORECASE)


def _refused_answers(sess: TaskSession) -> list[tuple[str, str]]:
    """``(answer, doubts)`` for each answer of this task that a finish check refused,
    oldest first: plain-text answers and ``finish`` calls alike."""
    out: list[tuple[str, str]] = []
    prev: StoredMessage | None = None
    for m in sess.messages:
        if m.role == "assistant":
            prev = m
        elif prev is not None and m.kind in ("corrective", "observation") \
                and m.content.startswith(FINISH_CHECK_PREFIX):
            call = next((c for c in sess.calls if c.id == m.tool_call_id), None) if m.kind == "observation" else None
            out.append((str((call.arguments or {}).get("answer", "")) if call else prev.content, m.content))
    return out


def dropped_finding(answer: str, refused: Sequence[tuple[str, str]], ev: Evidence) -> str:
    """The doubt when the goal asks two questions and ``answer`` leaves out a phrase
    that a refused earlier answer quoted from a tool result of this task, the refusal
    not about that phrase ("" otherwise), with the answer and that sentence to copy.
    pdf_page_count at db466c8: "The title ... is "Solar Lamp X2 User Guide"." was
    refused for giving no page count; the next answer gave the count alone, and the
    task finished with half its question answered."""
    if not refused or not _TWO_QUESTIONS.search(ev.goal):
        return ""
    results = "\n".join(c.result or "" for c in ev.calls if c.status == "done" and not c.error).lower()
    for earlier, doubts in reversed(refused):
        doubts = "\n".join(ln for ln in doubts.splitlines() if ln.startswith("- "))  # not the results it quotes
        for m in _QUOTED.finditer(earlier):
            phrase = (m.group(1) or m.group(2)).strip()
            low = phrase.lower()
            # a table's cell quoted alone is no finding: a held-out task at 02c0aa3 was told to give "Amount" back
            # ('The "Amount" column shows the expenses.'), with a muddled answer to copy
            cell = " " not in low and any(low in ln and "|" in ln for ln in results.splitlines())
            if low in results and low not in answer.lower() and low not in doubts.lower() \
                    and low not in ev.goal.lower() and not cell:
                start = max(earlier.rfind(". ", 0, m.start()) + 1, earlier.rfind("\n", 0, m.start()) + 1, 0)
                end = earlier.find(". ", m.end())
                sentence = earlier[start:end + 1 if end != -1 else len(earlier)].strip()
                # pdf_page_count at 6b49cef: the answer built on ("The user's request was not fully completed ...
                # The final answer is: ...") finished the task; the harness's own answer from the reads is cleaner
                built = pages_answer(ev.goal, ev.calls)
                whole = built if low in built.lower() else f"{answer.strip()} {sentence}"
                return (f"the answer leaves out \"{phrase}\", which an earlier answer gave from the tools' results, "
                        f"and the task asks two things; give both: {answer_to_copy(whole)}")
    return ""


def _question_for_the_user(problems: Sequence[str], ev: Evidence) -> str:
    """The question the harness asks the user itself when an answer failed the
    checks twice because the files do not hold what the goal asks for (a contact
    detail no line read gives); "" otherwise, and when this task changed files.
    The user can answer it like an ``ask_human`` question, and the task goes on."""
    if ev.touched:
        return ""
    for p in problems:
        m = re.match(r"only the user knows which file .* call ask_human with (\{.*\})$", p)
        if m:  # the second answer that claims the change "the contract" needs: ask which one
            return str(json.loads(m.group(1))["question"])
        m = re.search(rf"could not find the (.+?){re.escape(NOT_FOUND_TAIL)}$", p)
        if m:
            read = sorted({str(c.arguments.get("path")) for c in ev.calls if c.status == "done" and not c.error
                           and isinstance(c.arguments.get("path"), str) and (c.risk or "read") == "read"})
            where = f" in the files I read ({', '.join(read[:6])})" if read else ""
            said = re.search(rf"(?<!\w){re.escape(m.group(1))}(?!\w)", ev.goal, re.IGNORECASE)
            # a name as the goal writes it ("Karl's email address"; a held-out task at 1de0702 was asked about "the
            # karl"), a role with "the"
            who = said.group(0) if said and said.group(0)[:1].isupper() and said.start() > 0 else f"the {m.group(1)}"
            return (f"I could not find {who}'s phone number or e-mail{where}: no line that names {who} gives one. "
                    "Do you know it, or where I should look?")
        m = re.match(r"the task asks to (\w+), and no tool here can \1\b", p)
        if m:  # handoff_send_budget at 80595a7: "The manager budget has been sent to my manager." twice
            return (f"I cannot {m.group(1)} anything: no tool I have can {m.group(1)}.{_files_about(ev)} "
                    f"How do you want it done?")
    return ""


def _files_about(ev: Evidence, limit: int = 3) -> str:
    """" The workspace holds budget-2027.xlsx." for the workspace's files (top level)
    whose names share a word with the goal; "" when none does."""
    from pathlib import Path

    words = {w for w in re.findall(r"[a-z]{3,}", ev.goal.lower())} - {"the", "and", "for", "send", "this", "that"}
    try:
        names = sorted(p.name for p in Path(ev.workspace).iterdir() if p.is_file() and not p.name.startswith("."))
    except OSError:
        return ""
    found = [n for n in names if words & set(re.findall(r"[a-z]{3,}", n.lower()))][:limit]
    return f" The workspace holds {', '.join(found)}." if found else ""


def _observation(sess: TaskSession, msg: StoredMessage, call: CallRecord) -> StoredMessage:
    return StoredMessage(seq=msg.seq + 1, step=msg.step, role="tool", kind="observation", content=call.result,
                         name=call.name, tool_call_id=call.id)
