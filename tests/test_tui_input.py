"""Pilot tests: the input box as terminals people use (multi-line, @file and
/command completion), F1 keys help, the delete approval's preview, and the
completion helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual import events  # noqa: E402
from model.scripted import ScriptedChatModel  # noqa: E402
from assistant.tui.completion import file_candidates, goal_with_mentions, list_files, word_at  # noqa: E402
from assistant.tui.screens import ApprovalScreen  # noqa: E402
from assistant.tui.screens.keys import KeysHelpScreen  # noqa: E402
from assistant.tui.widgets import CompletionMenu, NoticeLine  # noqa: E402
from assistant.tui.widgets.prompt import NEWLINE_KEYS  # noqa: E402
from test_tui_support import BlockingModel, call, make_app, until  # noqa: E402

SIZE = (100, 32)
pytestmark = pytest.mark.anyio


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("ASSISTANT_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def workspace(tmp_path) -> Path:
    ws = tmp_path / "ws"
    (ws / "data").mkdir(parents=True)
    (ws / "notes.md").write_text("first line\nsecond line\nthird line\n", encoding="utf-8")
    for n in range(3):
        (ws / "data" / f"part{n}.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    (ws / ".git").mkdir()
    (ws / ".git" / "notes.md.orig").write_text("hidden", encoding="utf-8")
    return ws


def menu_items(app) -> list[str]:
    menu = app.query_one(CompletionMenu)
    return [str(menu.get_option_at_index(i).prompt) for i in range(menu.option_count)] if menu.display else []


async def test_shift_alt_enter_and_ctrl_j_insert_newlines_enter_submits(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"one", "alt+enter", *"two", "shift+enter", *"three", "ctrl+j", *"four")
        prompt = app.query_one("#prompt")
        assert prompt.value == "one\ntwo\nthree\nfour" and app.task_id is None
        await pilot.press("enter")
        await until(pilot, lambda: app.task_id is not None)
        assert app.store.get_task(app.task_id).goal == "one\ntwo\nthree\nfour"
        assert prompt.value == ""


async def test_up_recalls_history_only_from_the_first_line(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/workspace", "enter")
        await pilot.press(*"a", "ctrl+j", *"b")
        prompt = app.query_one("#prompt")
        await pilot.press("up")  # from line 2 to line 1: the text stays
        assert prompt.value == "a\nb"
        await pilot.press("up")  # on the first line: the older entry
        assert prompt.value == "/workspace"


async def test_at_mention_completes_a_workspace_file_and_the_goal_names_it(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"summarise @no")
        await until(pilot, lambda: menu_items(app) == ["@notes.md"])  # .git is not offered
        await pilot.press("tab")
        prompt = app.query_one("#prompt")
        assert prompt.value == "summarise @notes.md " and not menu_items(app)
        await pilot.press(*"please", "enter")
        await until(pilot, lambda: app.task_id is not None)
        goal = app.store.get_task(app.task_id).goal
    assert goal == "summarise @notes.md please\n\nFiles mentioned: notes.md"


async def test_at_completion_picks_with_arrows_and_enter(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"@part")
        await until(pilot, lambda: len(menu_items(app)) == 3)
        await pilot.press("down", "enter")  # Enter takes the highlighted entry, it does not submit
        assert app.query_one("#prompt").value == "@data/part1.csv " and app.task_id is None


async def test_slash_command_completion(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"/he")
        await until(pilot, lambda: menu_items(app) == ["/help"])
        await pilot.press("tab", "enter")
        await until(pilot, lambda: any("/workspace" in str(n.render()) for n in app.query(NoticeLine)))
        await pilot.press(*"/xyz")
        assert not menu_items(app)  # no command starts so: no menu
        await pilot.press("escape")  # nothing runs: Esc is harmless


async def test_f1_shows_the_keys_help(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await until(pilot, lambda: isinstance(app.screen, KeysHelpScreen))
        from rich.console import Console

        console = Console(width=100, record=True, file=open(os.devnull, "w"))
        console.print(app.screen.query_one("#keys-table").content)
        shown = console.export_text()
        assert "Ctrl+J" in shown and "Alt+Enter" in shown and "@" in shown
        await pilot.press("escape")
        assert not isinstance(app.screen, KeysHelpScreen)


@pytest.mark.parametrize("target, expected", [
    ("notes.md", ["Removes the file notes.md (34 bytes)", "first line", "third line"]),
    ("data", ["Removes the folder data/: 3 files, 24 bytes."]),
])
async def test_delete_approval_shows_what_will_be_removed(home, workspace, target, expected):
    app = make_app(home, workspace, ScriptedChatModel([call("delete", path=target), "Deleted."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"clean up", "enter")
        await until(pilot, lambda: isinstance(app.screen, ApprovalScreen))
        shown = str(app.screen.query_one("#approval-detail").render())
    for part in expected:
        assert part in shown


def test_completion_helpers(workspace):
    assert word_at("see @no", 7) == (4, "@no")
    assert word_at("see ", 4) == (4, "")
    files = list_files(workspace)
    assert files == ["data/part0.csv", "data/part1.csv", "data/part2.csv", "notes.md"]
    assert file_candidates("csv", files)[0] == "data/part0.csv"
    assert goal_with_mentions("read @../outside and @missing.md", workspace) == "read @../outside and @missing.md"
    assert goal_with_mentions("read @notes.md, then @data/part2.csv.", workspace).endswith(
        "\n\nFiles mentioned: notes.md, data/part2.csv")


async def test_enter_while_a_task_runs_keeps_the_text(home, workspace):
    model = BlockingModel()
    app = make_app(home, workspace, model)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"long job", "enter")
        await until(pilot, model.started.is_set)
        await pilot.press(*"next goal", "enter")
        assert app.query_one("#prompt").value == "next goal"  # not lost: sent once the task has stopped
        await pilot.press("escape")
        await until(pilot, lambda: not app.running)


def test_terminal_alt_enter_sequence_is_parsed_as_alt_enter():
    """ESC CR (what xterm and tmux send for Alt+Enter) reaches the app as alt+enter,
    not as enter (Textual alone reissues it as a plain enter, which submitted)."""
    from textual._xterm_parser import XTermParser

    from assistant.tui.terminal_keys import ALT_ENTER, teach_parser

    assert teach_parser()
    keys = []
    for seq in (ALT_ENTER, "\r", "\x1b[27;2;13~"):
        parser = XTermParser()
        keys.append([e.key for e in [*parser.feed(seq), *parser.feed("")] if isinstance(e, events.Key)])
    assert keys[0] == ["alt+enter"] and keys[1] == ["enter"]
    assert keys[2] and keys[2][0] in NEWLINE_KEYS  # modifyOtherKeys Shift+Enter (tmux extended-keys)


async def test_modify_other_keys_shift_enter_inserts_a_newline(home, workspace):
    app = make_app(home, workspace, ScriptedChatModel(["Done."]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*"one")
        prompt = app.query_one("#prompt")
        prompt.post_message(events.Key("shift+\r", "\r"))
        await pilot.pause()
        await pilot.press(*"two")
        assert prompt.value == "one\ntwo" and app.task_id is None
