"""The agent loop: an iterator of typed events over a checkpointed task.

Each step: render (history -> messages, folding old turns to fit) -> generate
(streamed) -> parse -> for each call: validate -> policy -> journal "started"
-> execute -> journal "done" -> observe -> checkpoint. A turn without a tool
call ends the task unless it looks like a failed call (then the format is fed
back; on repeats the next turn is constrained). The task also pauses for a
human on approvals, ``ask_human``, spent budgets, a detected loop, in-flight
calls found after a crash, cancellation and model errors; :meth:`Agent.resume`
continues every one of them (and tasks left "running" by a crash) the same way.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator

from model.types import ChatModel, Message, ModelError, ToolCall, TurnOutput
from tools.base import ToolContext, ToolRegistry
from tools.untrusted import new_marker

from ..infra import faults, paths
from ..config import Settings
from ..events import (ErrorEvent, Event, Finished, Metrics, Notice, ReasoningDelta, StepStarted, TaskStarted,
                      TextDelta, ToolCallFinished)
from ..infra.locks import TaskLock
from ..state.models import APPROVE_MODES, Budgets, CallRecord, StoredMessage, Summary, Task, new_task_id
from ..state.session import TaskSession
from ..state.store import Store
from ..infra.secret_cache import read_secret
from .ambiguity import AMBIGUOUS_KEY
from .answer_form import not_an_answer, unwrap_answer, without_tool_asides
from .arguments import call_record, storable_text
from .calls import FAILED_AGAIN_KEY, NOTHING_NEW_KEY, OTHER_TOOL_KEY, QUESTION_ONLY_KEY, CallRunner, \
    changing_tools
from .cross_check import CrossCheck, run_cross_check
from .ending import answer_to_give, end_with_answer, evidence_of, finish_giving, touched_paths
from .evidence import Evidence
from .evidence import asks_only_a_question
from .finish import FINISH, FINISH_CHECK_PREFIX
from .history import fit_prompt, to_model_messages
from .named_files import left_out_output
from .plan import PLAN_TURN_TOKENS, UPDATE_PLAN, context_message, next_plan_step, plan_tool, wants_plan_turn
from .preread import PREREAD_STEP, preread_calls
from .prompt import format_error_note, plugin_prompt, system_prompt, today_line
from .recap import offered_calls
from .resolve import apply_resume
from .stuck import check_budget, check_stuck
from .toolgroups import initial_groups, loaded_schemas_note, turn_tools, unloaded_hint
from .turns import (FORCE, Answer, Calls, FormatError, classify_turn, empty_reply, force_for, force_to_look,
                    forges_result, last_step_note, outputs_made_note, refused_answer, spelled_out_tools,
                    copy_after_failed_write)

__all__ = ["Agent", "MAX_FORMAT_ERRORS"]

MAX_FORMAT_ERRORS = 4  # consecutive malformed turns before the task pauses
CROSS_CHECK_TOKENS = 256  # the most tokens of the second query's reply (cross_check.py): one SELECT


class Agent:
    """Runs tasks with ``model`` and ``tools``, checkpointing into ``store``.

    Args:
        model: a :class:`model.types.ChatModel`.
        tools: the tool registry.
        store: the task store.
        settings: configuration (defaults when None).
        state_dir: where change blobs, trash and locks live (default ``paths.state_dir()``).
        with_format: put the call-format instructions in the system prompt.
        secrets: ``name -> str | None`` given to tools (default: the keyring via
            :func:`assistant.infra.secret_cache.read_secret`, None when unavailable).
        plugins: loaded ``plugins.api.Plugin`` objects whose system-prompt text
            is added after the rules (:func:`assistant.loop.prompt.plugin_prompt`).
        clock: monotonic seconds (tests pass a fake one).
        now: the local date and time, for the date line of the system prompt
            (tests pass a fixed one; default ``datetime.now``).
    """

    def __init__(
        self,
        model: ChatModel,
        tools: ToolRegistry,
        store: Store,
        *,
        settings: Settings | None = None,
        state_dir: Path | None = None,
        with_format: bool = True,
        secrets: Callable[[str], str | None] | None = None,
        plugins: Any = (),
        clock: Callable[[], float] = time.monotonic,
        now: Callable[[], datetime] = datetime.now,
    ) -> None:
        self.model = model
        self.tools = tools
        self.store = store
        self.settings = settings or Settings()
        self.state_dir = Path(state_dir) if state_dir else paths.state_dir()
        self.with_format = with_format
        self.secrets = secrets
        self.plugins = list(plugins or ())
        self.clock = clock
        self.now = now
        self.fmt = getattr(model, "fmt", None) or self.settings.model.tool_call_format
        self.cancel_event = threading.Event()
        self._closing = ""  # the closing note of the turn being generated (turns.last_step_note)
        self._made_note = ""  # the note that the asked-for files are written (turns.outputs_made_note)
        self._callable: set[str] = set()  # the tool names the turn being read could call
        self._time_up = False  # the last turn was cancelled because the time budget ran out
        self._worker: ThreadPoolExecutor | None = None

    def close(self) -> None:
        """Stop the generation worker thread (the agent can still be used: it restarts)."""
        if self._worker is not None:
            self._worker.shutdown(wait=True)
            self._worker = None

    def cancel(self) -> None:
        """Ask the running loop to pause at the next safe point (thread-safe)."""
        self.cancel_event.set()

    # -- public API -----------------------------------------------------------
    def create_task(
        self,
        goal: str,
        workspace: Path | str,
        *,
        max_steps: int | None = None,
        max_generated_tokens: int | None = None,
        max_wall_s: float | None = None,
        approve: str | None = None,
    ) -> Task:
        """Create and checkpoint a task (status "running", nothing run yet).

        Raises:
            ValueError: empty goal, missing workspace folder or bad approve mode.
        """
        goal = goal.strip()
        if not goal:
            raise ValueError("the goal is empty; say what the task should do")
        root = Path(workspace).expanduser().resolve()
        if not root.is_dir():
            raise ValueError(f"workspace folder not found: {root}")
        a = self.settings.agent
        mode = approve or a.approve
        if mode not in APPROVE_MODES:
            raise ValueError(f"unknown approve mode {mode!r}; use one of {', '.join(APPROVE_MODES)}")
        task = Task(
            id=new_task_id(), goal=goal, workspace=str(root), approve=mode, marker=new_marker(),
            model=getattr(self.model, "name", ""), summary=Summary(goal=goal),
            tool_groups=initial_groups(goal, root),
            budgets=Budgets(max_steps=max_steps or a.max_steps,
                            max_generated_tokens=max_generated_tokens or a.max_generated_tokens,
                            max_wall_s=max_wall_s or a.max_wall_s),
        )
        self.store.commit(task, messages=[StoredMessage(seq=0, role="user", kind="goal", content=goal)])
        return task

    def run(self, goal: str, *, workspace: Path | str, **options: Any) -> Iterator[Event]:
        """Create a task for ``goal`` and drive it; options as :meth:`create_task`."""
        try:
            task = self.create_task(goal, workspace, **options)
        except ValueError as exc:
            yield ErrorEvent(str(exc))
            return
        yield from self.drive(task.id)

    def resume(self, task_id: str, *, approval: str | None = None, note: str | None = None,
               answer: str | None = None) -> Iterator[Event]:
        """Continue a paused or interrupted task.

        Args:
            task_id: id or unique prefix.
            approval: for a pending approval "once" | "task" | "deny"; for an
                in-flight call "once" (re-run) | "deny" (skip); for budget,
                stuck, error and cancelled pauses "deny" stops the task and
                anything else continues (a budget is extended by its size).
            note: text from the user added to the history before continuing.
            answer: the answer to an ``ask_human`` question.
        """
        yield from self.drive(task_id, approval=approval, note=note, answer=answer, resumed=True)

    def drive(self, task_id: str, *, resumed: bool = False, **resolution: Any) -> Iterator[Event]:
        """Drive a stored task until it finishes or pauses (never raises)."""
        self.cancel_event.clear()
        try:
            task = self.store.get_task(task_id)
        except KeyError as exc:
            yield ErrorEvent(str(exc))
            return
        lock = TaskLock(self.state_dir / "locks", task.id)
        if not lock.acquire():
            yield ErrorEvent(f"task {task.id} is being run by another process")
            return
        try:
            yield TaskStarted(task_id=task.id, goal=task.goal, resumed=resumed)
            sess = TaskSession(self.store, task, self.clock)
            yield from self._loop(sess, resolution if resumed else {})
        finally:
            lock.release()

    # -- the loop ---------------------------------------------------------------
    def _loop(self, sess: TaskSession, resolution: dict[str, Any]) -> Iterator[Event]:
        task = sess.task
        try:
            go_on = yield from apply_resume(sess, **resolution)
            if not go_on:
                return
            try:
                runner = self._runner(sess)
            except Exception as exc:  # noqa: BLE001 - e.g. the workspace folder is gone
                message = f"cannot open the workspace {task.workspace}: {exc}"
                yield ErrorEvent(message)
                yield sess.pause("error", message, ["continue", "stop"])
                return
            if self.settings.agent.preread and task.usage.steps == 0 and not sess.calls \
                    and not any(m.role == "assistant" for m in sess.messages):
                self._preread(sess)
            while True:
                for call in sess.pending_calls():
                    if (yield from runner.process(call)):
                        return
                if self.cancel_event.is_set():
                    yield sess.pause("cancelled", "stopped by the user", ["continue", "stop"])
                    return
                if (yield from check_stuck(sess, self.settings.agent.stale_steps)):
                    return
                if (yield from check_budget(sess)):
                    return
                if (yield from self._step(sess, runner)):
                    return
        except Exception as exc:  # noqa: BLE001 - the loop never raises
            message = f"internal error: {type(exc).__name__}: {exc}"
            yield ErrorEvent(message)
            try:
                yield sess.pause("error", message, ["continue", "stop"])
            except Exception:  # noqa: BLE001 - the DB itself failed; nothing more to save
                sess.mark_paused()

    def _preread(self, sess: TaskSession) -> None:
        """Journal the harness's reads of the files the goal names (preread.py) as a
        step-0 turn; the loop runs them like any planned call."""
        calls = preread_calls(sess.task.goal, sess.task.workspace, lambda name: self.tools.get(name) is not None)
        if not calls:
            return
        msg = sess.new_message("assistant", "")
        msg.step = PREREAD_STEP
        records = [call_record(c, PREREAD_STEP, msg.seq, i) for i, c in enumerate(calls)]
        msg.tool_calls = [{**r.brief(), "raw": r.raw} for r in records]
        sess.commit(messages=[msg], calls=records)

    def _runner(self, sess: TaskSession) -> CallRunner:
        ctx = ToolContext(task_id=sess.task.id, config=self.settings.tool_config(), state={},
                          secrets=self.secrets or read_secret)
        limit = min(self.settings.agent.max_observation_chars, max(400, self.model.context_size * 4 // 8))
        def loaded_note(groups: list[str]) -> str:
            shown = {str((s.get("function") or s).get("name")) for s in turn_tools(
                self.tools, sess.task.tool_groups, sess.calls).callable}
            return loaded_schemas_note(self.tools, groups, shown)

        runner = CallRunner(sess, self.tools, ctx, limit, loaded_note=loaded_note, extra_tools=[plan_tool(sess.task)],
                            next_step=lambda: next_plan_step(sess.task, sess.calls))
        ctx.workspace = self._workspace(sess.task, runner.on_change)
        from tools.web import allow_urls_from_text

        for m in sess.messages:
            if (m.role == "user" and m.kind in ("goal", "note")) or (m.role == "tool" and m.name == "ask_human"):
                allow_urls_from_text(ctx, m.content)
                ctx.user_words.append(m.content)
        return runner

    def _workspace(self, task: Task, on_change: Callable[[Any], None]) -> Any:
        from sandbox import BlobStore, Workspace

        return Workspace(task.workspace, blobs=BlobStore(self.state_dir / "blobs"), on_change=on_change,
                         trash_dir=self.state_dir / "trash" / task.id)

    # -- one model turn -----------------------------------------------------------
    def _step(self, sess: TaskSession, runner: CallRunner) -> Iterator[Event]:
        task = sess.task
        faults.crash_point("step_start")
        # finish and update_plan are always callable (so a grammar-constrained turn can end); a read
        # just answered from the journal (calls.py), or one whose repeated failure named another tool, is left
        # out of the next turn's grammar, and so is a change the task (a question) was refused
        last = [c for c in sess.calls if c.step == task.usage.steps]
        left_out = {c.name for c in last if (c.data or {}).get("repeat_of") or (c.data or {}).get(OTHER_TOOL_KEY)
                    or (c.data or {}).get(NOTHING_NEW_KEY)}
        # a change refused because the task only asks a question stays out for the rest of the task (calendar_list_day
        # at d59b864, always: calendar_add_event for an invented meeting three times after the day was listed)
        kept_out = {c.name for c in sess.calls if (c.data or {}).get(QUESTION_ONLY_KEY)}
        if asks_only_a_question(task.goal):  # from the first turn on: every such change would be refused (calls.py)
            kept_out |= changing_tools(self.tools)
        # and a tool whose calls failed as their identical predecessor did twice (three sendings): greedy decoding
        # sends it again whatever the result says (files_organise at d59b864: rename_many find='.*' four times)
        again = Counter(c.name for c in sess.calls if (c.data or {}).get(FAILED_AGAIN_KEY))
        kept_out |= {name for name, n in again.items() if n >= 2}
        failed_again = any((c.data or {}).get(FAILED_AGAIN_KEY) for c in last)
        # right after a plan update the next turn must act: a 1.5B model otherwise rewrites its plan every step
        harness = [t for t in (FINISH, UPDATE_PLAN) if not (t is UPDATE_PLAN and any(c.name == t.name for c in last))]
        tt = turn_tools(self.tools, task.tool_groups, sess.calls, skip=left_out | kept_out,
                        extra=[t.schema() for t in harness if self.tools.get(t.name) is None])
        planning = self.settings.agent.plan
        schemas = tt.prompt
        system = system_prompt(task.workspace, self.fmt, with_format=self.with_format,
                               extra=plugin_prompt(self.plugins, runner.ctx), now=self.now())
        ctx_size = int(self.model.context_size)
        limit = int(ctx_size * self.settings.agent.fold_at)

        look = force_to_look(sess.messages, sess.calls, FINISH_CHECK_PREFIX)
        closing = last_step_note(task, sess.calls)
        if look and task.usage.steps + 1 < task.budgets.max_steps:
            # a refusal that spells out a call outranks the repeats' closing note before the last step: files_find
            # at 483c7db, told to grep, could only finish or ask (repeated find_files calls), and was handed off
            closing = ""
        self._closing = closing  # never stored, but the harness's words: an answer that echoes it is none
        made = "" if closing else outputs_made_note(task.goal, task.workspace,
                                                    touched_paths(sess.store.changes(task.id)), sess.calls)
        self._made_note = made

        def render(t: Task, msgs: list[StoredMessage]) -> tuple[list, int]:
            messages = to_model_messages(t, msgs, system, sess.model_messages)
            messages += [Message(role="user", content=made)] if made else []  # never stored
            messages += [context_message(t, sess.calls, enabled=planning)] if planning else []  # after the history
            messages += [Message(role="user", content=closing)] if closing else []  # never stored either
            return messages, self.model.count_tokens(messages, schemas)

        messages, prompt_tokens, folded = fit_prompt(task, sess.messages, sess.calls, render, limit)
        if folded:
            sess.commit(fold=folded)
            yield Notice(f"Folded {len(folded)} older messages into the task summary to fit the context.")
        room = ctx_size - prompt_tokens - 8
        left = task.budgets.max_generated_tokens - task.usage.generated_tokens
        max_tokens = max(1, min(self.settings.agent.max_turn_tokens, room, left))
        if room < 64:
            yield sess.pause("error", f"the prompt fills the context ({prompt_tokens} of {ctx_size} tokens); "
                             "use a model with a larger context or start a smaller task", ["continue", "stop"])
            return True
        step_n = task.usage.steps + 1
        yield StepStarted(n=step_n)
        refused = "tool_call" if refused_answer(sess.messages, FINISH_CHECK_PREFIX) else None
        # a turn right after a repeated call is constrained (a call or a final answer) without the repeated tool:
        # Qwen 1.5B, its read of report.docx answered from the journal, wrote the same plan and call again.
        # After a call that failed the same way twice, too; without that tool only when its error named another
        # (csv_to_xlsx: write_file six times, pointed at xlsx_write; calendar_next_weekday needed the same tool)
        force = look or refused or force_for(task) or (FORCE if self.settings.agent.constrain == "always" or left_out
                                                         or failed_again else None)
        call_tools = tt.calls
        if look:  # answered without looking and was refused: this turn calls a tool, and not finish
            call_tools = [t for t in (tt.callable if call_tools is None else call_tools)
                          if (t.get("function") or t).get("name") != FINISH.name]
            # and when the refusal spells out calls to make, only those tools (xlsx_two_sheet_total at 4f7db1e: a
            # made-up 1,024.00 refused with the table_query to copy pending; xlsx_info was sent again, the same
            # answer after it, and a hand-off; files_organise at 7b217b1: told to move the .jpg files, copy of one
            # file to "inbox/jpg", a file, after each refusal)
            spelled = spelled_out_tools(sess.messages, FINISH_CHECK_PREFIX)
            only = [t for t in call_tools if (t.get("function") or t).get("name") in spelled]
            call_tools = only or call_tools
        copy = [] if look else copy_after_failed_write(last)
        only = [t for t in (tt.callable if call_tools is None else call_tools)
                if (t.get("function") or t).get("name") in copy]
        if only:  # a failed write whose result spells out the call that writes it: only that call's tool
            force, call_tools = "tool_call", only
        ask_which = [t for t in tt.callable if (t.get("function") or t).get("name") == "ask_human"] \
            if any((c.data or {}).get(AMBIGUOUS_KEY) for c in last) else []
        given = answer_to_give(sess.messages)
        if given:  # an answer to copy refused twice: the last try may only give it or ask (ending.LAST_TRY)
            force = "tool_call"
            call_tools = [finish_giving(given), *(t for t in tt.callable if (t.get("function") or t).get("name")
                                                  == "ask_human")]
        elif ask_which:  # a change aimed at one of several files the goal fits: the user says which (ambiguity.py)
            force, call_tools = "tool_call", ask_which
        elif closing:  # the step budget's last turn ends the task: finish (checked as usual) or ask the user
            force = "tool_call"
            ask = [t for t in tt.callable if (t.get("function") or t).get("name") == "ask_human"]
            call_tools = [FINISH.schema(), *ask]
        elif wants_plan_turn(task, planning):  # the first turn writes the plan: one short constrained call
            force, call_tools, max_tokens = "tool_call", [UPDATE_PLAN.schema()], min(max_tokens, PLAN_TURN_TOKENS)
        try:
            deadline = self.clock() + max(0.0, task.budgets.max_wall_s - sess.wall_s())
            out = yield from self._generate(messages, schemas, force, max_tokens, call_tools, deadline=deadline,
                                            vary=failed_again)
            if force is None and out.stop_reason != "cancelled" and (forges_result(out) or empty_reply(out)):
                # the turn wrote a tool result of its own (model.chat cuts it there), or nothing at all: the same
                # turn again, constrained to a call or a final answer; the prompt is in the KV cache, so it costs
                # no prefill
                task.usage.generated_tokens += out.metrics.generated or len(out.token_ids)
                yield Notice("The model began to write a tool result (or its tool list) itself; asking again for a "
                             "call or an answer." if forges_result(out)
                             else "The model's reply had no words; asking again for a call or an answer.")
                out = yield from self._generate(messages, schemas, FORCE, max_tokens, call_tools, deadline=deadline)
        except Exception as exc:  # noqa: BLE001 - model failures become a pause
            msg = str(exc) if isinstance(exc, ModelError) else f"model failed: {type(exc).__name__}: {exc}"
            yield ErrorEvent(msg)
            yield sess.pause("error", msg, ["continue", "stop"])
            return True
        if out.stop_reason == "cancelled" and self._time_up:  # the time budget ran out mid-turn
            self.cancel_event.clear()
            return (yield from check_budget(sess))
        if out.stop_reason == "cancelled":
            yield sess.pause("cancelled", "stopped by the user", ["continue", "stop"])
            return True
        task.usage.steps = step_n
        task.usage.generated_tokens += out.metrics.generated or len(out.token_ids)
        task.usage.prompt_tokens += out.metrics.prompt_tokens or prompt_tokens
        yield Metrics(data={**out.metrics.as_dict(), "step": step_n, "stop_reason": out.stop_reason,
                            "usage": task.usage.model_dump()})
        return (yield from self._absorb_turn(sess, out, tt.callable, step_n))

    def _generate(self, messages: list, schemas: list, force: str | None, max_tokens: int,
                  call_tools: list | None = None, deadline: float | None = None, vary: bool = False) -> Iterator[Event]:
        """Run ``model.complete`` in a worker thread, yielding its deltas live.

        At ``deadline`` (a ``self.clock()`` reading: where the task's time budget
        runs out) the turn is cancelled and ``self._time_up`` set: one turn of
        4,096 tokens of prose took 9 minutes on 2 cores, far past the budget.
        ``vary``: passed on to ``model.complete`` (see :class:`model.types.ChatModel`)."""
        q: queue.Queue = queue.Queue()
        self._time_up = False

        def on_delta(kind: str, text: str) -> None:
            q.put(("delta", kind, text))

        def work() -> None:
            try:
                more = {"call_tools": call_tools} if call_tools is not None else {}  # older ChatModels lack it
                if vary:  # after a call failed the same way twice, the next call is sampled, not greedy
                    more["vary"] = True
                q.put(("done", self.model.complete(messages, schemas, on_delta=on_delta, cancel=self.cancel_event,
                                                   force=force, max_tokens=max_tokens, **more)))
            except BaseException as exc:  # noqa: BLE001 - handed to the loop
                q.put(("error", exc))

        if self._worker is None:
            self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="assistant-generate")
        future = self._worker.submit(work)
        try:
            while True:
                try:
                    item = q.get(timeout=0.25 if deadline is not None else None)
                except queue.Empty:
                    item = ("wait",)
                if deadline is not None and not self.cancel_event.is_set() and self.clock() >= deadline:
                    self._time_up = True
                    self.cancel_event.set()
                if item[0] == "wait":
                    continue
                if item[0] == "delta":
                    yield ReasoningDelta(item[2]) if item[1] == "reasoning" else TextDelta(item[2], kind=item[1])
                elif item[0] == "done":
                    return item[1]
                else:
                    raise item[1]
        finally:
            if not future.done():  # the consumer stopped iterating mid-generation
                self.cancel_event.set()
                future.result()

    def _absorb_turn(self, sess: TaskSession, out: TurnOutput, schemas: list, step_n: int) -> Iterator[Event]:
        """Record what :func:`classify_turn` decided about ``out``; True when the task ended or paused."""
        task, parsed = sess.task, out.parsed
        msg = sess.new_message("assistant", storable_text(parsed.content), reasoning=storable_text(parsed.reasoning),
                               token_ids=list(out.token_ids))
        msg.step = step_n
        names = [*self.tools.names(), FINISH.name, UPDATE_PLAN.name]
        self._callable = {str((t.get("function") or t).get("name")) for t in schemas}
        turn = classify_turn(out, task.workspace, names,
                             hint=lambda raw: unloaded_hint(raw, self.tools, self._callable),
                             left_out=lambda rel: bool(left_out_output(rel, sess.calls)),
                             offered=offered_calls(sess.calls))
        def ev():
            return evidence_of(sess, names, [today_line(self.now())],
                               harness_extra=[self._closing, self._made_note])

        def check(answer: str, evidence: Evidence) -> CrossCheck | None:
            return self._cross_check(sess, answer, evidence)
        second = check if self.settings.agent.cross_check else None

        if isinstance(turn, Calls) and any(c.name == FINISH.name for c in turn.calls) and not turn.errors:
            if len(turn.calls) == 1:  # a finish call alone: the answer, checked like a plain one
                record = call_record(turn.calls[0], step_n, msg.seq, 0)
                msg.tool_calls = [{**record.brief(), "raw": record.raw}]
                task.format_errors = 0
                # "I will call ask_human if ..." is no part of an answer (calendar_list_day at 7dcd18e)
                answer = without_tool_asides(unwrap_answer(str(record.arguments.get("answer", ""))), names)
                return (yield from end_with_answer(sess, msg, answer, ev(), record, cross_check=second))
        if isinstance(turn, Calls):
            yield from self._record_calls(sess, msg, turn, step_n)
            return False
        if isinstance(turn, Answer):
            text = without_tool_asides(unwrap_answer(turn.text), names)  # {"response": "..."}: the answer inside
            bad = not_an_answer(text, ev())
            if bad is None:
                return (yield from end_with_answer(sess, msg, text, ev(), cross_check=second))
            turn = FormatError(bad, call_expected=False)  # not an answer: a format error, the check's retry kept
        task.call_expected = turn.call_expected
        task.format_errors += 1
        task.format_errors_total += 1
        msg.kind = "format_error"
        note = format_error_note(turn.reason, schemas, self.fmt, cut=out.stop_reason == "length", example=turn.example)
        obs = StoredMessage(seq=msg.seq + 1, step=step_n, role="user", kind="format_error", content=note)
        if task.format_errors >= MAX_FORMAT_ERRORS:
            yield sess.pause("stuck", f"the model failed {task.format_errors} times in a row to write a valid "
                             f"tool call or answer (last: {turn.reason})", ["continue", "stop"], messages=[msg, obs])
            return True
        sess.commit(messages=[msg, obs])
        faults.crash_point("turn_saved")
        yield Notice(f"Format error: {turn.reason}")
        return False

    def _cross_check(self, sess: TaskSession, answer: str, ev: Evidence) -> CrossCheck | None:
        """The second query of :mod:`.cross_check` for ``answer``, its tokens counted in
        the task's usage; None when it does not apply or the model failed (the answer
        then stands as the other checks left it)."""
        usage = sess.task.usage

        def ask(messages: list[dict[str, str]]) -> str:
            out = self.model.complete([Message(role=m["role"], content=m["content"]) for m in messages], [],
                                      cancel=self.cancel_event, max_tokens=CROSS_CHECK_TOKENS)
            usage.generated_tokens += out.metrics.generated or len(out.token_ids)
            usage.prompt_tokens += out.metrics.prompt_tokens
            return out.parsed.content or out.parsed.raw

        try:
            return run_cross_check(answer, ev.goal, ev.workspace, ask, self.now().date())
        except ModelError:
            return None

    def _record_calls(self, sess: TaskSession, msg: StoredMessage, turn: Calls, step_n: int) -> Iterator[Event]:
        """Journal the turn's calls as planned (those whose arguments cannot be
        stored as "invalid", with their observation) and its unreadable calls."""
        task = sess.task
        calls = [call_record(c, step_n, msg.seq, i) for i, c in enumerate(turn.calls)]
        if turn.content is not None:  # calls read from JSON in the prose: keep the prose, render the calls
            msg.content, msg.token_ids = storable_text(turn.content), []
        msg.tool_calls = [{**c.brief(), "raw": c.raw} for c in calls]
        extra = []
        for i, err in enumerate(turn.errors):
            text = f"Call could not be read: {err.message}" + unloaded_hint(err.raw, self.tools, self._callable) + (
                f"\nExpected format:\n{err.expected}" if err.expected else "")
            extra.append(StoredMessage(seq=msg.seq + 1 + i, step=step_n, role="tool", kind="format_error",
                                       content=text))
        rejected = [c for c in calls if c.final]  # arguments the store cannot hold: told, never run
        for c in rejected:
            task.usage.tool_calls += 1
            extra.append(StoredMessage(seq=msg.seq + 1 + len(extra), step=step_n, role="tool", kind="observation",
                                       content=c.result, name=c.name, tool_call_id=c.id))
        task.format_errors = 0
        sess.commit(messages=[msg, *extra], calls=calls)
        faults.crash_point("turn_saved")
        for c in rejected:
            yield ToolCallFinished(call=c.brief(), result=c.result, error=True)

