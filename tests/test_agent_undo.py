"""The side-effect journal and undo, with the real file tools: every write,
overwrite, move and delete is reverted byte for byte, per task or per step."""

from __future__ import annotations

import pytest

from assistant.loop.agent import Agent
from assistant.events import Finished
from model.scripted import ScriptedChatModel
from assistant.state import Store
from assistant.state.undo import undo_task
from agent_helpers import call

files = pytest.importorskip("tools.files")


def snapshot(ws):
    return {str(p.relative_to(ws)): p.read_bytes() for p in sorted(ws.rglob("*")) if p.is_file()}


@pytest.fixture
def setup(assistant_home, tmp_path):
    from tools.base import ToolRegistry

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "keep.txt").write_bytes(b"original\r\nbytes \xff\n")
    (ws / "old.txt").write_text("to be moved")
    (ws / "gone.txt").write_text("to be deleted")
    store = Store(assistant_home / "t.db")
    state = tmp_path / "state"
    outputs = [
        call("write_file", path="new.txt", content="brand new"),          # step 1: create
        call("write_file", path="keep.txt", content="overwritten"),        # step 2: overwrite
        call("move", src="old.txt", dest="sub/moved.txt"),                 # step 3: move
        call("delete", path="gone.txt"),                                   # step 4: delete
        "done",
    ]
    agent = Agent(ScriptedChatModel(outputs), ToolRegistry(files.FILE_TOOLS), store, state_dir=state)
    before = snapshot(ws)
    events = list(agent.run("reorganise", workspace=ws, approve="all"))
    assert isinstance(events[-1], Finished)
    yield ws, store, state, events[-1].task_id, before
    store.close()


def test_undo_restores_the_workspace_byte_for_byte(setup):
    ws, store, state, tid, before = setup
    assert snapshot(ws) != before
    ops = [c.record["op"] for c in store.changes(tid)]
    assert {"create", "write", "move", "delete"} <= set(ops)
    lines = undo_task(store, tid, state)
    assert not any(line.startswith(("skipped", "could not")) for line in lines), lines
    assert snapshot(ws) == before
    assert undo_task(store, tid, state) == ["nothing to undo"]  # undoing twice is a no-op


def test_undo_from_a_step_rewinds_only_later_steps(setup):
    ws, store, state, tid, before = setup
    undo_task(store, tid, state, from_step=3)
    now = snapshot(ws)
    assert now["new.txt"] == b"brand new" and now["keep.txt"] == b"overwritten"
    assert now["old.txt"] == b"to be moved" and now["gone.txt"] == b"to be deleted"
    assert "sub/moved.txt" not in now


def test_undo_never_clobbers_a_file_edited_after_the_task(setup):
    ws, store, state, tid, before = setup
    (ws / "keep.txt").write_text("the user's later edit")
    lines = undo_task(store, tid, state)
    assert any(line.startswith("skipped keep.txt") for line in lines)
    assert (ws / "keep.txt").read_text() == "the user's later edit"
    assert (ws / "gone.txt").read_text() == "to be deleted"
