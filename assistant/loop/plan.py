"""The plan the harness holds: written by the first turn, shown every step.

A 1.5B model cannot be trusted to keep a multi-step plan in mind (issue 17;
Nanbeige's agent training centres on checkpoints that restate goal, facts and
constraints). So the harness keeps it:

- The first turn is constrained to one ``update_plan(steps)`` call (1-5 short
  steps; the grammar enforces the counts and lengths): a short, cheap turn.
- Every later prompt ends with a *context block* (:func:`context_block`): the
  plan with the steps that look done, the calls done, the files written, short
  excerpts of what tool results found, and "step n of max". It is one trailing
  user message rendered afresh each step and never stored, so the history
  before it is the same text every step and its KV cache is reused: only the
  last turn, its observations and the block itself are evaluated again.
- ``update_plan`` stays callable (risk class read, journaled like any call); it
  replaces the plan. The plan lives in ``Task.plan``, so a resumed task shows
  the same plan.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Sequence

from pydantic import BaseModel, Field

from model.types import Message
from tools.base import RiskClass, Tool, ToolContext, ToolResult

from ..state.models import CallRecord, Plan, Task
from .history import PATH_KEYS

__all__ = ["UPDATE_PLAN", "UpdatePlanParams", "plan_tool", "context_block", "context_message", "next_plan_step",
           "work_calls", "wants_plan_turn", "step_done", "steps_done", "BLOCK_CHARS", "MAX_PLAN_STEPS",
           "PLAN_TURN_TOKENS"]

MAX_PLAN_STEPS = 5
STEP_CHARS = 80  # one plan step, at most (the grammar enforces it)
BLOCK_CHARS = 1200  # the whole context block, at most (about 300 tokens)
PLAN_TURN_TOKENS = 256  # cap on the first (plan) turn's generated tokens
_FACTS = 4  # facts shown (the most recent)
_FACT_CHARS = 140
_DONE = 8  # calls listed as done (the most recent)
_NOT_WORK = ("update_plan", "finish", "use_tools")  # calls that are not steps of the work
#: the verbs of a plan step that changes a file: only a call that writes can do it
_CHANGE_WORDS = {"write", "save", "update", "change", "create", "add", "append", "edit", "rename", "move", "delete",
                 "remove", "copy", "replace", "insert", "convert", "overwrite", "make", "put", "fix", "sort", "merge"}


class UpdatePlanParams(BaseModel):
    steps: list[Annotated[str, Field(min_length=1, max_length=STEP_CHARS)]] = Field(
        min_length=1, max_length=MAX_PLAN_STEPS,
        description="The steps still to do, in order: one short action per line.")


def _unbound(ctx: ToolContext, params: UpdatePlanParams) -> ToolResult:
    # The loop runs a per-task copy from plan_tool(); this body runs only outside the loop.
    return ToolResult(text=f"Plan with {len(params.steps)} steps.")


UPDATE_PLAN = Tool(
    name="update_plan",
    description="Write or replace your short plan for the task (1-5 steps); it is shown to you at every step.",
    params=UpdatePlanParams,
    fn=_unbound,
    risk=RiskClass.READ,
)


def plan_tool(task: Task) -> Tool:
    """``update_plan`` bound to ``task``: a call replaces ``task.plan`` (the
    caller's commit of the call's result saves it in the same transaction).
    Its result never repeats the steps, so the model's own words never count
    as evidence for the finish checks."""

    def run(ctx: ToolContext, params: UpdatePlanParams) -> ToolResult:
        steps = [" ".join(s.split()) for s in params.steps if s.strip()][:MAX_PLAN_STEPS]
        if not steps:
            return ToolResult.fail("The plan is empty; give 1-5 short steps.")
        old = task.plan
        task.plan = Plan(steps=steps, step=task.usage.steps, revisions=(old.revisions + 1) if old else 0)
        what = "replaced" if old else "saved"
        return ToolResult(text=f"Plan {what} ({len(steps)} steps). It is shown after the history at every step; "
                               "now do its first step that is not done.")

    return Tool(name=UPDATE_PLAN.name, description=UPDATE_PLAN.description, params=UpdatePlanParams, fn=run,
                risk=RiskClass.READ)


def _example(goal: str) -> str:
    """A first step made from the goal's own file names ("; e.g. first \"Read sales.csv\""), or "".

    A small model copies an example's steps verbatim, so the example is never
    about files the task does not have.
    """
    from .toolgroups import named_files

    files = named_files(goal)
    return f"; e.g. first \"Read {files[0]}\"" if files else ""


def wants_plan_turn(task: Task, enabled: bool = True) -> bool:
    """True when the next turn should write the plan: planning is on, no
    model turn has run yet and there is no plan."""
    return enabled and task.usage.steps == 0 and task.plan is None


def work_calls(calls: Sequence[CallRecord]) -> list[CallRecord]:
    """The calls that did part of the work: finished without error, not a harness
    call (plan, finish, loading tools), not a repeat answered from the journal."""
    return [c for c in calls if c.status == "done" and not c.error and c.name not in _NOT_WORK
            and not (c.data or {}).get("repeat_of")]


def _paths(call: CallRecord) -> list[str]:
    return [v for k in PATH_KEYS if isinstance(v := call.arguments.get(k), str) and v.strip()]


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9_.\-]+", text.lower()))


def step_done(step: str, calls: Sequence[CallRecord]) -> bool:
    """Whether plan ``step`` looks done: a successful call of this task names,
    in its path arguments, a file or folder the step names ("Read notes.md"
    and ``read_file(path="notes.md")``), or is of a tool the step names. A step
    that changes a file ("Write ... to data.csv") is not done by a call that only reads."""
    words = _words(step)
    changes = bool(words & _CHANGE_WORDS)
    for c in work_calls(calls):
        if c.name in words:
            return True
        if changes and c.risk == RiskClass.READ.value:  # "Write the result to data.csv" is not done by its read
            continue
        for p in _paths(c):
            name = p.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1].lower()
            if name and (name in words or p.lower() in words):
                return True
    return False


def steps_done(steps: Sequence[str], calls: Sequence[CallRecord]) -> list[bool]:
    """For each of ``steps``, in order, whether it looks done: by itself
    (:func:`step_done`) or because a later step does (a step that names no file
    nor tool, "Change the separator to commas", comes before the write that did
    it). Batch DZ at a3c921a (DZE): data.csv was right at step 1, the plan made
    after it left that step "next", and the model read and wrote again for six steps."""
    done = [step_done(s, calls) for s in steps]
    return [any(done[i:]) for i in range(len(done))]


def next_plan_step(task: Task, calls: Sequence[CallRecord]) -> str:
    """The first plan step that does not look done (:func:`steps_done`), as "n. text"
    ("" when there is no plan or every step looks done)."""
    if task.plan is None:
        return ""
    for i, (s, done) in enumerate(zip(task.plan.steps, steps_done(task.plan.steps, calls)), 1):
        if not done:
            return f"{i}. {s}"
    return ""


def _excerpt(text: str, n: int = _FACT_CHARS) -> str:
    """One line of a tool result: fence lines and the data notice dropped,
    whitespace collapsed, cut to ``n`` characters."""
    lines = [ln for ln in text.splitlines() if not ln.startswith(("<<UNTRUSTED", "<<END_UNTRUSTED", "(The text below"))]
    one = " ".join(" ".join(lines).split())
    return one if len(one) <= n else one[: n - 1] + "…"


def _label(call: CallRecord) -> str:
    paths = _paths(call)
    return f"{call.name} {paths[0]}" if paths else call.name


def _facts(calls: Sequence[CallRecord]) -> list[str]:
    out = []
    for c in work_calls(calls):
        if c.risk == RiskClass.READ.value or c.name == "ask_human":
            text = _excerpt(c.result)
            if text:
                out.append(f'- {_label(c)}: "{text}"')
    return out[-_FACTS:]


def _written(calls: Sequence[CallRecord]) -> list[str]:
    out: list[str] = []
    for c in work_calls(calls):
        if c.risk and c.risk != RiskClass.READ.value:
            out += [p for p in _paths(c) if p not in out]
    return out


def context_block(task: Task, calls: Sequence[CallRecord], *, step: int | None = None,
                  enabled: bool = True) -> str:
    """The trailing context block for the next turn (at most :data:`BLOCK_CHARS` characters).

    Args:
        task: the task (its plan, budgets and usage).
        calls: the task's call journal.
        step: the number of the turn about to run (default ``task.usage.steps + 1``).
        enabled: planning is on (off: no request to write a plan).

    Returns:
        "Step n of max", the plan with "[done]" on the steps that look done
        (:func:`step_done`), the calls done, the files written and up to 4
        recent facts (excerpts of read results and the user's answers), then
        what to do next. The oldest facts, then the done list, are left out
        when the block would pass the cap.
    """
    n = step if step is not None else task.usage.steps + 1
    head = f"[Progress check: step {n} of {task.budgets.max_steps}]"
    if task.plan is None:
        if wants_plan_turn(task, enabled):
            return (f"{head}\nFirst write a short plan for this task: call update_plan with 1-5 short steps, "
                    f"one action each, ending with \"Finish with the answer\"{_example(task.goal)}.")
        plan_lines = []
    else:
        plan_lines = ["Plan:"] + [f"{i}. {'[done] ' if done else ''}{s}" for i, (s, done) in enumerate(
            zip(task.plan.steps, steps_done(task.plan.steps, calls)), 1)]
    work = work_calls(calls)
    done = [_label(c) for c in work if c.name != "ask_human"][-_DONE:]
    written = _written(calls)
    facts = _facts(calls)
    nxt = next_plan_step(task, calls)
    tail = (f"Next: {nxt}" if nxt else "Next: if the work is done, call finish with the answer.")
    tail += " To change the plan, call update_plan."

    def build() -> str:
        parts = [head, *plan_lines]
        if done:
            parts.append("Done: " + "; ".join(done))
        if written:
            parts.append("Files written: " + ", ".join(written[-8:]))
        if facts:
            parts += ["Facts found:", *facts]
        parts.append(tail)
        return "\n".join(parts)

    text = build()
    while len(text) > BLOCK_CHARS and (facts or done or written):
        if facts:
            facts.pop(0)
        elif done:
            done.pop(0)
        else:
            written.pop(0)
        text = build()
    return text[:BLOCK_CHARS]


def context_message(task: Task, calls: Sequence[CallRecord], **options: Any) -> Message:
    """:func:`context_block` as the trailing user message of a prompt (never stored)."""
    return Message(role="user", content=context_block(task, calls, **options))
