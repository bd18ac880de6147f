"""Pilot tests: whole tasks driven through the TUI with the scripted model."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

pytest.importorskip("textual")

from model.scripted import ScriptedChatModel  # noqa: E402
from assistant.tui.app import AssistantApp  # noqa: E402
from assistant.tui.screens import ApprovalScreen, TasksScreen  # noqa: E402
from assistant.tui.screens.confirm import ConfirmScreen  # noqa: E402
from assistant.tui.widgets import HandOffPanel, StatusBar, ToolCallCard  # noqa: E402
from test_tui_support import DENIED_SCRIPT, OVERWRITE_SCRIPT, QUESTION_SCRIPT, BlockingModel, make_app, until  # noqa: E402

SIZE = (100, 32)
pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("old text\n", encoding="utf-8")
    return ws


def status(app: AssistantApp) -> str:
    return app.query_one(StatusBar).status


async def type_line(pilot, text: str) -> None:
    await pilot.press(*text)
    await pilot.press("enter")


async def test_overwrite_waits_for_approval_then_runs(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        screen = app.screen
        assert "-old text" in screen.diff and "+new text" in screen.diff
        assert (workspace / "notes.txt").read_text() == "old text\n"  # nothing ran before approval
        await pilot.press("y")
        await until(pilot, lambda: status(app) == "finished")
        card = app.query_one(ToolCallCard)
        assert card.call_status == "done"
    assert (workspace / "notes.txt").read_text() == "new text"


async def test_deny_with_note_tells_the_model_and_keeps_the_file(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(DENIED_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        app.screen.query_one("#approval-note").value = "keep the old text"
        await pilot.click("#deny")
        await until(pilot, lambda: status(app) == "finished")
        [call] = app.store.calls(app.task_id)
    assert call.status == "denied" and "keep the old text" in call.result
    assert (workspace / "notes.txt").read_text() == "old text\n"


async def test_approval_for_task_grants_the_risk_class(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("t")
        await until(pilot, lambda: status(app) == "finished")
        assert app.store.get_task(app.task_id).grants == ["destructive"]


async def test_escape_on_the_modal_leaves_the_task_paused_and_approve_reopens_it(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, ApprovalScreen))
        assert app.query_one(HandOffPanel).kind == "approval"
        assert app.store.get_task(app.task_id).status == "paused"
        await type_line(pilot, "/approve")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("y")
        await until(pilot, lambda: status(app) == "finished")
    assert (workspace / "notes.txt").read_text() == "new text"


async def test_ask_human_hands_off_and_the_answer_resumes_the_task(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(QUESTION_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "make a title")
        await until(pilot, lambda: app.pause is not None)
        panel = app.query_one(HandOffPanel)
        assert panel.kind == "question" and "Which colour" in panel.reason
        await type_line(pilot, "blue")
        await until(pilot, lambda: status(app) == "finished")
        assert not app.query(HandOffPanel)
        [call] = app.store.calls(app.task_id)
        assert call.name == "ask_human" and call.result == "The user answered: blue"
        assert app.store.get_task(app.task_id).answer == "The title will be **blue**."


async def test_escape_cancels_generation_and_leaves_the_task_paused(home, workspace):
    model = BlockingModel()
    app = make_app(home, workspace, model)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "long job")
        await until(pilot, model.started.is_set)
        await pilot.press("escape")
        await until(pilot, lambda: app.pause is not None and not app.running)
        assert app.pause.kind == "cancelled"
        task = app.store.get_task(app.task_id)
    assert task.status == "paused" and task.pause.kind == "cancelled"


async def test_quit_mid_task_checkpoints_then_exits(home, workspace):
    model = BlockingModel()
    app = make_app(home, workspace, model)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "long job")
        await until(pilot, model.started.is_set)
        await until(pilot, lambda: app.task_id is not None)
        task_id = app.task_id
        await pilot.press("ctrl+q")  # asks first; "n" keeps the task running
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "A task is running" in str(app.screen.query_one("#confirm-title").render())
        await pilot.press("n")
        await pilot.pause(0.1)
        assert app.running and app.return_value is None and not isinstance(app.screen, ConfirmScreen)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.return_value is not None)
        # the app exits only once the loop has checkpointed the pause
        assert app.store.get_task(task_id).status == "paused"
    assert app.return_value == 0


async def test_second_ctrl_q_in_the_quit_dialog_means_yes(home, workspace):
    model = BlockingModel()
    app = make_app(home, workspace, model)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "long job")
        await until(pilot, model.started.is_set)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("ctrl+q")
        await until(pilot, lambda: app.return_value is not None)
    assert app.return_value == 0


async def test_quit_while_paused_then_resume_in_a_new_app(home, workspace):
    first = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with first.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(first.screen, ApprovalScreen))
        task_id = first.task_id
        await pilot.press("escape")
        await pilot.press("ctrl+q")
    assert first.store.get_task(task_id).status == "paused"
    first.store.close()

    second = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with second.run_test(size=SIZE) as pilot:
        await type_line(pilot, "/resume")
        await until(pilot, lambda: isinstance(second.screen, ApprovalScreen))
        assert "+new text" in second.screen.diff  # previewed again after the restart
        await pilot.press("y")
        await until(pilot, lambda: status(second) == "finished")
        assert second.task_id == task_id
    assert (workspace / "notes.txt").read_text() == "new text"


async def test_tasks_screen_opens_a_task_and_undo_restores_the_file(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press("y")
        await until(pilot, lambda: status(app) == "finished")
        assert (workspace / "notes.txt").read_text() == "new text"
        await type_line(pilot, "/new")
        await until(pilot, lambda: not app.query(ToolCallCard))
        await pilot.press("ctrl+t")
        await until(pilot, lambda: isinstance(app.screen, TasksScreen))
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.query(ToolCallCard)))
        assert app.query_one(ToolCallCard).call_status == "done"
        await pilot.press("ctrl+t")
        await until(pilot, lambda: isinstance(app.screen, TasksScreen))
        await pilot.press("u")  # asks first, listing what it will restore
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        shown = str(app.screen.query_one("#confirm-lines Static").render())
        assert "restore the earlier text of notes.txt" in shown
        assert (workspace / "notes.txt").read_text() == "new text"
        await pilot.press("y")
        await until(pilot, lambda: (workspace / "notes.txt").read_text() == "old text\n")


async def test_model_loads_in_a_worker_after_the_first_frame(home, workspace):
    release = threading.Event()
    model = ScriptedChatModel(["Hello."], name="SmolLM2-135M")
    model.is_demo = True

    def loader():
        release.wait(30)
        return model

    app = AssistantApp(make_app(home, workspace, model).config, model_loader=loader, workspace=workspace)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bar = app.query_one(StatusBar)
        assert app.query_one("#loading").display and bar.model_name == ""  # drawn while loading
        release.set()
        await until(pilot, lambda: bar.model_name == "SmolLM2-135M")
        assert bar.is_demo and "demo model" in str(bar.render())
        assert not app.query_one("#loading").display


async def test_loading_a_model_shows_a_real_percentage(home, workspace):
    release = threading.Event()
    model = ScriptedChatModel(["Hello."], name="SmolLM2-135M")

    def loader(on_progress=None):  # the default loader passes llama.cpp's load progress here
        on_progress(0.0)
        on_progress(0.42)
        release.wait(30)
        on_progress(1.0)
        return model

    app = AssistantApp(make_app(home, workspace, model).config, model_loader=loader, workspace=workspace)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "42%" in str(app.query_one("#loading-label").render()))
        assert app.query_one("#loading-bar").percentage == 0.42
        release.set()
        await until(pilot, lambda: app.query_one(StatusBar).model_name == "SmolLM2-135M")


async def test_model_load_failure_is_shown_not_raised(home, workspace):
    def loader():
        raise RuntimeError("no GGUF found; run `assistant model pull`")

    app = AssistantApp(make_app(home, workspace, None).config, model_loader=loader, workspace=workspace)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: "Model not loaded" in str(app.query_one("#loading-label").render()))


async def test_input_history_and_unknown_command(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Hello."]))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "/help")
        await type_line(pilot, "/nonsense")
        prompt = app.query_one("#prompt")
        await pilot.press("up")
        assert prompt.value == "/nonsense"
        await pilot.press("up")
        assert prompt.value == "/help"
        await pilot.press("down", "down")
        assert prompt.value == ""


@pytest.mark.parametrize(("button", "final"), [("Extend budget", "finished"), ("Stop task", "stopped")])
async def test_budget_hand_off_buttons_extend_or_stop(home, workspace, button, final):
    from assistant.config import Settings
    from test_tui_support import call

    config = Settings(agent={"max_steps": 1})
    script = [call("list_dir", path="."), "All files listed."]
    app = make_app(home, workspace, ScriptedChatModel(script), config=config)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "list files")
        await until(pilot, lambda: app.pause is not None and not app.running)
        panel = app.query_one(HandOffPanel)
        assert panel.kind == "budget" and "step budget reached" in panel.reason
        [target] = [b for b in panel.query("Button") if str(b.label) == button]
        await pilot.click(f"#{target.id}")
        await until(pilot, lambda: status(app) == final)
        assert app.store.get_task(app.task_id).status == final


async def test_escape_right_after_enter_is_not_lost(home, workspace):
    model = BlockingModel()
    app = make_app(home, workspace, model)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"long job")
        await pilot.press("enter", "escape")
        await until(pilot, lambda: app.pause is not None and not app.running)
        assert app.pause.kind == "cancelled"
        assert app.store.get_task(app.task_id).status == "paused"


async def test_typing_a_note_never_decides_and_enter_denies_with_it(home, workspace):
    note = "End the file with a newline."  # has an "n" (deny) and a "t" (approve for the task)
    app = make_app(home, workspace, ScriptedChatModel(DENIED_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        screen = app.screen
        assert screen.focused is screen.query_one("#approval-note")
        await pilot.press(*note)
        assert app.screen is screen and screen.query_one("#approval-note").value == note
        assert "Enter: deny with this note" in str(screen.query_one("#approval-hint").render())
        await pilot.press("enter")
        await until(pilot, lambda: status(app) == "finished")
        [call] = app.store.calls(app.task_id)
        assert app.store.get_task(app.task_id).grants == []
    assert call.status == "denied" and note in call.result
    assert (workspace / "notes.txt").read_text() == "old text\n"


@pytest.mark.parametrize(("keys", "grants"), [(("y",), []), (("enter",), []), (("t",), ["destructive"]),
                                              (("x", "alt+t"), ["destructive"])])
async def test_decision_keys_work_on_an_empty_note_or_with_alt(home, workspace, keys, grants):
    app = make_app(home, workspace, ScriptedChatModel(OVERWRITE_SCRIPT))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "tidy notes")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        await pilot.press(*keys)
        await until(pilot, lambda: status(app) == "finished")
        assert app.store.get_task(app.task_id).grants == grants
    assert (workspace / "notes.txt").read_text() == "new text"


async def test_typing_goes_to_the_input_after_clicking_a_card_or_pressing_escape(home, workspace):
    from test_tui_support import call

    app = make_app(home, workspace, ScriptedChatModel([call("list_dir", path="."), "Listed."]))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "list files")
        await until(pilot, lambda: status(app) == "finished")
        prompt = app.query_one("#prompt")
        await pilot.click(ToolCallCard)
        assert app.focused is not prompt  # the card's title took the focus
        await pilot.press(*"hi")
        assert prompt.value == "hi" and app.focused is prompt
        app.set_focus(None)
        await pilot.press("escape", "!")
        assert prompt.value == "hi!" and app.focused is prompt


async def test_typing_goes_to_the_input_after_a_panel_button(home, workspace):
    from assistant.config import Settings
    from test_tui_support import call

    app = make_app(home, workspace, ScriptedChatModel([call("list_dir", path="."), "Done."]),
                   config=Settings(agent={"max_steps": 1}))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "list files")
        await until(pilot, lambda: app.pause is not None and not app.running)
        [stop] = [b for b in app.query_one(HandOffPanel).query("Button") if str(b.label) == "Stop task"]
        await pilot.click(f"#{stop.id}")
        await until(pilot, lambda: status(app) == "stopped")
        await pilot.press(*"ok")
        assert app.query_one("#prompt").value == "ok"


async def test_resume_with_an_unknown_id_is_one_line_and_changes_nothing(home, workspace):
    from assistant.tui.widgets import NoticeLine, Transcript

    app = make_app(home, workspace, ScriptedChatModel(["Hello."]))
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, "say hello")
        await until(pilot, lambda: status(app) == "finished")
        task_id, before = app.task_id, list(app.query_one(Transcript).children)
        await type_line(pilot, "/resume zzzz")
        await pilot.pause()
        after = list(app.query_one(Transcript).children)
        assert after[:-1] == before and isinstance(after[-1], NoticeLine)
        assert "no task 'zzzz'" in str(after[-1].render()) and "\n" not in str(after[-1].render())
        assert status(app) == "finished" and app.task_id == task_id and not app.running


async def test_the_transcript_follows_new_output_unless_the_user_scrolled_up(home, workspace):
    from assistant.tui.widgets import NoticeLine, Transcript, UnseenNote
    from test_tui_support import call

    app = make_app(home, workspace, ScriptedChatModel([call("list_dir", path="."), "Listed."]))
    async with app.run_test(size=(100, 20)) as pilot:
        await type_line(pilot, "list files")
        await until(pilot, lambda: status(app) == "finished")
        transcript = app.query_one(Transcript)

        async def more(n: int) -> None:
            for i in range(n):
                await transcript.mount(NoticeLine(f"line {i}"))
            await pilot.pause()
            await pilot.pause()

        await more(15)
        app.query_one(ToolCallCard).query_one("CollapsibleTitle").focus()  # scrolls the card into view
        await pilot.pause()
        await more(15)
        assert transcript.scroll_y == transcript.max_scroll_y > 0  # still at the newest line
        assert not app.query_one(UnseenNote).display
        transcript.focus()
        await pilot.press("pageup")
        await pilot.pause()
        top = transcript.scroll_y
        await more(5)
        assert transcript.scroll_y == top < transcript.max_scroll_y  # the user's place is kept
        assert app.query_one(UnseenNote).display  # and the user is told
        await pilot.press("end")
        await more(5)
        assert transcript.scroll_y == transcript.max_scroll_y and not app.query_one(UnseenNote).display


async def test_workspace_is_shown_and_workspace_command_changes_it(home, workspace, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    app = make_app(home, workspace, ScriptedChatModel(["Hello."]))
    async with app.run_test(size=SIZE) as pilot:
        bar = app.query_one(StatusBar)
        assert str(bar.render()).endswith("· in ws")
        await type_line(pilot, "/workspace ../nope")
        await pilot.pause()
        assert app.workspace == workspace.resolve()
        await type_line(pilot, "/workspace ../other")
        await pilot.pause()
        assert app.workspace == other.resolve() and str(bar.render()).endswith("· in other")
        await type_line(pilot, "say hello")
        await until(pilot, lambda: status(app) == "finished")
        assert app.store.get_task(app.task_id).workspace == str(other.resolve())


async def test_a_resumed_task_shows_its_goal_steps_and_a_different_model(home, workspace):
    from assistant.tui.widgets import NoticeLine
    from test_tui_support import call

    script = [call("list_dir", path="."), call("ask_human", question="Which one?"), "Done."]
    first = make_app(home, workspace, ScriptedChatModel(script, name="model-a"))
    async with first.run_test(size=SIZE) as pilot:
        await type_line(pilot, "pick a file")
        await until(pilot, lambda: first.pause is not None and not first.running)
        task_id = first.task_id
    first.store.close()
    second = make_app(home, workspace, ScriptedChatModel(["(unused)", "(unused)", "Done."], name="model-b"))
    async with second.run_test(size=SIZE) as pilot:
        await type_line(pilot, f"/resume {task_id}")
        await until(pilot, lambda: second.pause is not None and not second.running)
        assert second.query_one(StatusBar).step == 2  # the task's real count, not 0
        await type_line(pilot, "the first")
        await until(pilot, lambda: status(second) == "finished")
        notes = [str(n.render()) for n in second.query(NoticeLine)]
        assert any(f"Resumed task {task_id}: pick a file" in n for n in notes)
        assert sum("started with model-a; it continues with model-b" in n for n in notes) == 1
        assert second.query_one(StatusBar).step == 3
