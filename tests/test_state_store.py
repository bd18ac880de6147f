"""The SQLite task store: JSON rows, one transaction per change, WAL, schema versions."""

from __future__ import annotations

import sqlite3

import pytest

from assistant.state import (
    SCHEMA_VERSION,
    Budgets,
    CallRecord,
    ChangeEntry,
    StoredMessage,
    Store,
    StoreError,
    Task,
    TaskNotFound,
)


def _task(tid: str = "abcd1234") -> Task:
    return Task(id=tid, goal="g", workspace="/w",
                budgets=Budgets(max_steps=3, max_generated_tokens=100, max_wall_s=10))


def test_state_round_trips_as_plain_json(tmp_path):
    path = tmp_path / "t.db"
    with Store(path) as store:
        t = _task()
        msg = StoredMessage(seq=0, role="assistant", content="hi", token_ids=[1, 2, 3],
                            tool_calls=[{"id": "s1c0", "name": "x", "arguments": {"a": 1}}])
        call = CallRecord(id="s1c0", step=1, turn_seq=0, name="x", arguments={"a": 1})
        store.commit(t, messages=[msg], calls=[call], changes=[ChangeEntry(call_id="s1c0", step=1, record={"op": "create", "path": "a"})])
        call.status, call.result = "done", "ok"
        store.commit(t, calls=[call])
    with Store(path) as store:
        assert store.get_task("abcd1234").goal == "g"
        assert store.messages("abcd1234")[0].token_ids == [1, 2, 3]
        assert [(c.id, c.status, c.result) for c in store.calls("abcd1234")] == [("s1c0", "done", "ok")]
        assert store.changes("abcd1234")[0].record == {"op": "create", "path": "a"}
        assert store.integrity_check() == "ok"
    raw = sqlite3.connect(path).execute("SELECT json FROM tasks").fetchone()[0]
    assert raw.startswith("{") and '"goal":"g"' in raw  # no pickle anywhere
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_failed_commit_writes_nothing(tmp_path):
    with Store(tmp_path / "t.db") as store:
        t = _task()
        store.commit(t, messages=[StoredMessage(seq=0, role="user", content="a")])
        t.status = "finished"
        with pytest.raises(sqlite3.IntegrityError):  # duplicate seq: the whole change rolls back
            store.commit(t, messages=[StoredMessage(seq=1, role="user"), StoredMessage(seq=0, role="user")])
        assert store.get_task(t.id).status == "running"
        assert len(store.messages(t.id)) == 1


def test_unknown_fields_fail_loudly(tmp_path):
    path = tmp_path / "t.db"
    with Store(path) as store:
        store.commit(_task())
    db = sqlite3.connect(path)
    db.execute("""UPDATE tasks SET json = json_set(json, '$.evil', 1)""")
    db.commit()
    with Store(path) as store, pytest.raises(ValueError):
        store.get_task("abcd1234")


def test_ids_resolve_by_unique_prefix(tmp_path):
    with Store(tmp_path / "t.db") as store:
        store.commit(_task("aa11"))
        store.commit(_task("aa22"))
        assert store.get_task("aa1").id == "aa11"
        with pytest.raises(TaskNotFound, match="ambiguous"):
            store.get_task("aa")
        with pytest.raises(TaskNotFound, match="assistant tasks"):
            store.get_task("zz")
        with pytest.raises(TaskNotFound):
            store.get_task("a%")  # LIKE wildcards are literal


def test_schema_is_versioned_and_newer_dbs_are_refused(tmp_path):
    path = tmp_path / "t.db"
    with Store(path) as store:
        assert store.schema_version == SCHEMA_VERSION
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(path)


def test_a_file_that_is_not_a_db_gives_a_clear_error(tmp_path):
    path = tmp_path / "t.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="t.db"):
        Store(path)


def test_folding_marks_messages_without_deleting_them(tmp_path):
    with Store(tmp_path / "t.db") as store:
        t = _task()
        store.commit(t, messages=[StoredMessage(seq=i, role="user", content=str(i)) for i in range(3)])
        store.commit(t, fold=[0, 1])
        assert [m.seq for m in store.messages(t.id, include_folded=False)] == [2]
        assert [m.folded for m in store.messages(t.id)] == [True, True, False]
