"""Tool groups keep the prompt small: core tools first, more on request."""

from __future__ import annotations

import pytest

from assistant.loop.agent import Agent
from assistant.config import load_config
from assistant.events import Finished
from model.scripted import ScriptedChatModel
from assistant.state.store import Store
from assistant.loop.toolgroups import GROUPS, active_schemas, compact_schema, initial_groups, unloaded_hint
from assistant.toolset import build_toolset
from tools.core import GROUP_NAMES


@pytest.fixture(scope="module")
def registry():
    ts = build_toolset(None, plugins=True, mcp=False)
    yield ts.registry
    ts.close()


def names(schemas):
    return {s["function"]["name"] for s in schemas}


def test_initial_groups_from_goal_words(tmp_path):
    assert initial_groups("Total the spreadsheet by department and write a memo", tmp_path) == ["excel", "word"]
    assert initial_groups("find the deadline in these PDFs", tmp_path) == ["pdf"]
    assert initial_groups("put next Tuesday's meeting in my calendar", tmp_path) == ["calendar"]
    assert initial_groups("rename the photos by date", tmp_path) == []
    # a question about one's time is about the calendar (a held-out task at 911f35c got no calendar tools)
    assert initial_groups("Am I free on 11 December at 15:00?", tmp_path) == ["calendar"]
    assert initial_groups("Is Dana available on Friday afternoon?", tmp_path) == ["calendar"]
    assert initial_groups("What does my week look like?", tmp_path) == ["calendar"]
    assert initial_groups("Is the printer free to use?", tmp_path) == []


def test_initial_groups_from_workspace_files(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Budget.XLSX").write_bytes(b"x")
    (tmp_path / "scan.pdf").write_bytes(b"x")
    (tmp_path / ".assistant").mkdir()
    (tmp_path / ".assistant" / "old.docx").write_bytes(b"x")  # internal folders are not looked at
    assert initial_groups("tidy up", tmp_path) == ["excel", "pdf"]


def test_core_schemas_and_groups(registry):
    core = names(active_schemas(registry, []))
    assert {"read_file", "write_file", "edit_file", "list_dir", "ask_human", "use_tools"} <= core
    assert not any(n.startswith(("docx_", "xlsx_", "pdf_", "calendar_")) for n in core)
    with_excel = names(active_schemas(registry, ["excel"]))
    assert {"xlsx_read", "xlsx_write", "csv_read"} <= with_excel
    assert not any(n.startswith("docx_") for n in with_excel)
    every = names(active_schemas(registry, ["word", "excel", "pdf", "web", "calendar", "notes", "memory", "extras"]))
    assert "use_tools" not in every and every == set(registry.names()) - {"use_tools"}


def test_use_tools_accepts_exactly_the_groups_the_loop_knows():
    assert tuple(GROUPS) == GROUP_NAMES


def test_use_tools_takes_a_tool_name_or_a_file_kind_for_its_group():
    """csv_to_xlsx at b5a954c: Qwen 1.5B asked for ["xlsx_write"], was refused, then asked for all eight groups."""
    import pydantic

    from tools.core import UseToolsParams

    assert UseToolsParams(groups=["xlsx_write", "docx", "pdf_read", "notes"]).groups == ["excel", "word", "pdf", "notes"]
    assert UseToolsParams(groups=["table_query", "csv"]).groups == ["excel"]
    with pytest.raises(pydantic.ValidationError):
        UseToolsParams(groups=["teleport"])


def test_compact_schema_keeps_what_validation_needs(registry):
    full = registry.get("xlsx_write").schema()
    small = compact_schema(full)
    fp, sp = full["function"]["parameters"], small["function"]["parameters"]
    assert sp["required"] == fp["required"]
    assert set(sp["properties"]) == set(fp["properties"])
    assert len(small["function"]["description"]) <= 120
    assert "title" not in str(small) and len(str(small)) < len(str(full))


def test_hint_for_a_tool_in_an_unloaded_group(registry):
    raw = '<tool_call>\n{"name": "pdf_read", "arguments": {"path": "a.pdf"}}\n</tool_call>'
    assert "use_tools" in unloaded_hint(raw, registry) and "'pdf'" in unloaded_hint(raw, registry)
    assert unloaded_hint("<tool_call>\n<function=read_file>", registry) == ""
    assert unloaded_hint("no call here", registry) == ""
    # multistep_invoices_memo at c92ae49: a cut-off call of a tool the turn could call needs no use_tools
    assert unloaded_hint(raw, registry, loaded={"read_file", "pdf_read"}) == ""
    # and docx_create for invoices.xlsx is no reason to load the 'word' group when xlsx_write is there
    wrong = '<tool_call>\n{"name": "docx_create", "arguments": {"path": "invoices.xlsx", "blocks": []}}\n</tool_call>'
    assert unloaded_hint(wrong, registry, loaded={"xlsx_write"}) == (" invoices.xlsx is an xlsx file: call xlsx_write, "
                                                                     "which you have.")
    assert "'word'" in unloaded_hint(wrong, registry, loaded={"read_file"})


def test_core_prompt_fits_the_budget_on_the_demo_tokenizer(registry):
    from assistant.loop.prompt import PROMPT_TOKEN_LIMIT, base_prompt_tokens
    from model.chat import open_chat_model
    from model.select import demo_model_path

    chat = open_chat_model(demo_model_path(), n_ctx=8192, n_threads=1)
    try:
        n = base_prompt_tokens(chat, active_schemas(registry, []), chat.fmt)
    finally:
        chat.runtime.close()
    assert 300 < n <= PROMPT_TOKEN_LIMIT


class RecordingModel(ScriptedChatModel):
    def __init__(self, outputs):
        super().__init__(outputs)
        self.seen: list[set[str]] = []  # tools rendered in the prompt
        self.systems: list[str] = []

    def complete(self, messages, tools, **kw):
        self.seen.append(names(tools))
        self.systems.append(messages[0].content)
        return super().complete(messages, tools, **kw)


def test_use_tools_loads_a_group_for_the_next_step(assistant_home, tmp_path, registry):
    ws = tmp_path / "ws"
    ws.mkdir()
    store = Store(assistant_home / "t.db")
    call = '<tool_call>\n<function=use_tools>\n<parameter=groups>\n["excel"]\n</parameter>\n</function>\n</tool_call>'
    model = RecordingModel([call, "Loaded."])
    agent = Agent(model, registry, store, settings=load_config(overrides={"agent": {"approve": "all"}}),
                  state_dir=tmp_path / "state")
    events = list(agent.run("tidy report.txt into a spreadsheet", workspace=ws))  # a file named: no excel at first
    assert isinstance(events[-1], Finished)
    assert "xlsx_read" not in model.seen[0] and "use_tools" in model.seen[0]
    # the loaded schemas arrive in the observation; the prompt's beginning (system + tools) stays the same
    assert model.seen[1] == model.seen[0] and model.systems[1] == model.systems[0]
    assert "xlsx_read" in model.grammar_tools[1] and "xlsx_read" not in model.grammar_tools[0]
    obs = [m.content for m in store.messages(events[-1].task_id) if m.name == "use_tools"]
    assert '"name":"xlsx_read"' in obs[0] and '"name":"read_file"' not in obs[0]
    task = store.get_task(events[-1].task_id)
    assert task.tool_groups == []  # the loaded group comes from the call journal, so a resume sees it too
    store.close()


def test_a_file_task_loads_only_what_its_named_files_need(tmp_path):
    (tmp_path / "old.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "letter.docx").write_bytes(b"PK")
    # the skeleton task: no word/excel/pdf/web for a folder, a source file, a README and an ignore file
    assert initial_groups("Create src/main.py, a README.md and a .gitignore for the project", tmp_path) == []
    assert initial_groups("Look up the report date in plan.txt and write a report to report.md", tmp_path) == []
    assert initial_groups("Summarise sales.csv and expenses.xlsx into report.md", tmp_path) == ["excel"]
    assert initial_groups("Fetch https://example.org and save it to page.md", tmp_path) == ["web"]


def test_a_notes_file_is_not_the_notes_plugin(tmp_path):
    assert "notes" not in initial_groups("When is the beta release? The answer is in notes.md", tmp_path)
    assert "notes" in initial_groups("add a note: call the bank", tmp_path)


def test_a_group_nothing_points_at_is_not_loaded(assistant_home, tmp_path, registry):
    """files_rename_pattern at 4f7db1e: asked to rename photos, Qwen 1.5B loaded the notes group and wrote a note
    "holiday-0042.jpg" into the user's notes. A store or document group that neither the user's words nor the
    workspace's files point at is not loaded; of several asked, the others are."""
    from assistant.loop.toolgroups import unasked_groups

    ws = tmp_path / "ws"
    (ws / "photos").mkdir(parents=True)
    (ws / "photos" / "IMG_0042.jpg").write_bytes(b"x")
    goal = "In the photos folder, rename every file named like IMG_0042.jpg to holiday-0042.jpg."
    one = '<tool_call>\n<function=use_tools>\n<parameter=groups>\n{}\n</parameter>\n</function>\n</tool_call>'
    store = Store(assistant_home / "t.db")
    (ws / "list.csv").write_text("a,b\n1,2\n")
    model = RecordingModel([one.format('["notes"]'), one.format('["notes", "excel"]'), "Renamed."])
    agent = Agent(model, registry, store, settings=load_config(overrides={"agent": {"approve": "all"}}),
                  state_dir=tmp_path / "state")
    events = list(agent.run(goal, workspace=ws))
    notes, both = [c for c in store.calls(events[-1].task_id) if c.name == "use_tools"]
    assert notes.status == "denied" and notes.result.startswith("Not loaded: notes (Markdown notes")
    assert both.status == "done" and both.arguments["groups"] == ["excel"] and "(Not loaded: notes" in both.result
    assert "note_add" not in model.grammar_tools[2] and "table_query" in model.grammar_tools[2]
    store.close()
    assert unasked_groups(["notes", "word", "calendar", "web"], [goal], ws) == ["notes", "word", "calendar", "web"]
    # batch IZ at 2081e47 (IZG): "the newest version in versions.txt" loaded web and searched; a named file, no web
    assert unasked_groups(["web"], ["Which is the newest version in versions.txt?"], ws) == ["web"]
    (tmp_path / "iz" / "ws").mkdir(parents=True)
    (tmp_path / "iz" / "ws" / "versions.txt").write_text("1.9.2\n1.10.1\n1.2.0\n")
    store = Store(tmp_path / "iz" / "t.db")
    agent = Agent(RecordingModel([one.format('["web"]'), "1.10.1"]), registry, store,
                  settings=load_config(overrides={"agent": {"approve": "all", "preread": False}}),
                  state_dir=tmp_path / "iz" / "state")
    events = list(agent.run("Which is the newest version in versions.txt?", workspace=tmp_path / "iz" / "ws"))
    [web] = [c for c in store.calls(events[-1].task_id) if c.name == "use_tools"]
    store.close()
    assert web.result.startswith("Not loaded: web") and "The task names versions.txt: what it asks is there" \
        in web.result, web.result
    assert unasked_groups(["web"], ["Look up the latest version online and compare it with versions.txt"], ws) == []
    assert unasked_groups(["web"], ["Summarise https://example.org/news into news.md"], ws) == []
    assert unasked_groups(["web"], ["What is the weather in Berlin?"], ws) == []  # no file named: not judged
    assert unasked_groups(["notes", "excel", "calendar"], ["Add to my notes: the meeting next Tuesday",
                                                           "Put budget.txt into a spreadsheet"], ws) == []
    (ws / "memo.docx").write_bytes(b"x")
    assert unasked_groups(["word"], [goal], ws) == []  # a .docx in the workspace
    assert unasked_groups(["notes"], ["Who is the plumber? It is in notes.md"], ws) == ["notes"]


def test_table_query_comes_with_the_excel_group():
    from assistant.loop.toolgroups import group_of

    assert group_of("table_query") == "excel"


def test_core_schemas_come_first_so_tasks_with_other_groups_share_the_prefix(registry):
    """csv_group_totals at e03cee3: the office tools were registered ahead of ask_human, so a task with the excel
    group after a calendar task re-read every core schema (300 s, most of it prefill)."""
    from assistant.loop.toolgroups import group_of, turn_tools

    core = [n["function"]["name"] for n in active_schemas(registry, [])]
    for groups in (["excel"], ["calendar"], ["word", "pdf"]):
        tt = turn_tools(registry, groups, [], extra=[{"type": "function", "function": {"name": "finish"}}])
        got = [s["function"]["name"] for s in tt.prompt]
        assert got[:len(core)] == core and got[len(core)] == "finish"  # then the groups' own tools
        assert all(group_of(n, registry.get(n).source) is not None for n in got[len(core) + 1:])
    assert core[-1] == "use_tools"


def test_loading_a_group_already_loaded_says_its_tools_are_there(assistant_home, tmp_path, registry):
    """csv_to_xlsx: the goal named a .csv, so the excel group was loaded from the start; Qwen 1.5B called
    use_tools for it again and was told only "Loaded tool groups: excel." (a step spent, nothing learnt)."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "sales.csv").write_text("region,amount\nNorth,3\n")
    store = Store(assistant_home / "t.db")
    call = '<tool_call>\n<function=use_tools>\n<parameter=groups>\n["excel"]\n</parameter>\n</function>\n</tool_call>'
    model = RecordingModel([call, "The file holds one row: North, 3."])
    agent = Agent(model, registry, store, settings=load_config(overrides={"agent": {"approve": "all"}}),
                  state_dir=tmp_path / "state")
    events = list(agent.run("What does sales.csv hold?", workspace=ws))
    assert "xlsx_read" in model.seen[0]  # loaded from the start
    obs = [m.content for m in store.messages(events[-1].task_id) if m.name == "use_tools"]
    assert "already in your tool list" in obs[0] and "xlsx_read" in obs[0] and "table_query" in obs[0]
    assert "New tools" not in obs[0]
    store.close()


def test_after_loading_nothing_new_the_next_turn_is_constrained_without_use_tools(tmp_path):
    """files_merge_todos at 62f6d46: the excel group, loaded from the start, was loaded three more times, a step
    each, before the files were combined."""
    from agent_helpers import call, scripted_agent
    from assistant.loop.turns import FORCE
    from tools.core import USE_TOOLS
    from tools.files import FILE_TOOLS
    from tools.office import OFFICE_TOOLS

    agent, model, ws, store = scripted_agent(tmp_path, [
        call("use_tools", groups='["excel"]'), "sales.csv holds one row: North, 3."],
        [*FILE_TOOLS, *OFFICE_TOOLS, USE_TOOLS], approve="all", preread=True)
    (ws / "sales.csv").write_text("region,amount\nNorth,3\n")
    events = list(agent.run("What does sales.csv hold?", workspace=ws))
    assert isinstance(events[-1], Finished), events[-1]
    assert [f for f, _ in model.calls] == [None, FORCE]
    assert "use_tools" not in model.grammar_tools[1] and "csv_read" in model.grammar_tools[1]
    store.close()


def test_a_tool_this_machine_cannot_run_is_not_offered(monkeypatch):
    """xlsx_total at 3797c71: without LibreOffice, xlsx_recalc was called three times after the =SUM was saved."""
    from assistant.toolset import build_toolset
    from tools.office import recalc

    monkeypatch.setattr(recalc.shutil, "which", lambda name: None)
    assert "xlsx_recalc" not in build_toolset(plugins=False, mcp=False).registry
    monkeypatch.setattr(recalc.shutil, "which", lambda name: f"/usr/bin/{name}")
    assert "xlsx_recalc" in build_toolset(plugins=False, mcp=False).registry


def test_a_cut_off_call_of_a_loaded_tool_is_not_sent_to_use_tools(tmp_path):
    """multistep_invoices_memo at c92ae49: told twice to load the 'word' group for a docx_create it could
    call (its call cut off), Qwen 1.5B spent two of its steps on use_tools."""
    from agent_helpers import scripted_agent

    from tools.office import OFFICE_TOOLS

    broken = '<tool_call>\n{"name": "docx_create", "arguments": {"path": "memo.docx", "blocks": [{"type": \n</tool_call>'
    agent, model, ws, store = scripted_agent(tmp_path, [broken, "I could not write memo.docx."], OFFICE_TOOLS,
                                             approve="all", preread=False)
    events = list(agent.run("Write memo.docx saying the office is closed on Friday.", workspace=ws))
    told = [m.content for m in store.messages(events[-1].task_id) if m.kind == "format_error" and m.content]
    assert told and told[0].startswith("Format error: invalid JSON") and "use_tools" not in told[0], told
    store.close()


def test_loading_nothing_new_repeats_the_call_to_copy(tmp_path):
    """multistep_invoices_memo at db466c8: write_file of an HTML table to invoices.xlsx was refused with the
    xlsx_write call to copy; Qwen 1.5B loaded the loaded excel group, then read the workbook that was not there."""
    from agent_helpers import call, scripted_agent
    from tools.core import USE_TOOLS
    from tools.files import FILE_TOOLS
    from tools.office import OFFICE_TOOLS

    table = "<table><tr><th>Invoice</th><th>Amount</th></tr><tr><td>INV-1</td><td>5.00</td></tr></table>"
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("write_file", path="invoices.xlsx", content=table), call("use_tools", groups='["excel"]'),
        "I could not write it."], [*FILE_TOOLS, *OFFICE_TOOLS, USE_TOOLS], approve="all")
    list(agent.run("Put the invoices into invoices.xlsx.", workspace=ws))
    task_id = store.list_tasks()[0].id
    obs = [m.content for m in store.messages(task_id) if m.name == "use_tools"]
    assert "already in your tool list" in obs[0]
    assert obs[0].endswith('The call to copy (harness note at step 1: call xlsx_write with {"path": "invoices.xlsx", '
                           '"rows": [["Invoice", "Amount"], ["INV-1", "5.00"]]})')
    store.close()


def test_loading_nothing_new_with_no_call_to_copy_names_the_output_still_to_make(tmp_path):
    """multistep_invoices_memo at 32b6916: the loaded excel group loaded again at step 1, then xlsx_info on the
    workbook the task asks to make."""
    from agent_helpers import call, scripted_agent
    from tools.core import USE_TOOLS
    from tools.files import FILE_TOOLS
    from tools.office import OFFICE_TOOLS

    agent, model, ws, store = scripted_agent(tmp_path, [call("use_tools", groups='["excel"]'), "I could not."],
                                             [*FILE_TOOLS, *OFFICE_TOOLS, USE_TOOLS], approve="all")
    list(agent.run("Create invoices.xlsx with the columns Invoice and Amount.", workspace=ws))
    obs = [m.content for m in store.messages(store.list_tasks()[0].id) if m.name == "use_tools"]
    assert obs[0].endswith("\ninvoices.xlsx, which the task asks for, is not there yet: xlsx_write makes it."), obs
    store.close()


def test_the_turn_after_a_failed_write_that_spells_out_its_call_may_only_call_that_tool(tmp_path):
    """csv_top_customers at db466c8: write_file's refusal gave the csv_write to copy; Qwen 1.5B copied the output
    onto itself and renamed the user's input file instead, and the budget ran out with no output."""
    from agent_helpers import call, scripted_agent
    from tools.core import USE_TOOLS
    from tools.files import FILE_TOOLS
    from tools.office import OFFICE_TOOLS

    table = "<table><tr><th>Invoice</th><th>Amount</th></tr><tr><td>INV-1</td><td>5.00</td></tr></table>"
    agent, model, ws, store = scripted_agent(tmp_path, [
        call("write_file", path="invoices.xlsx", content=table),
        call("xlsx_write", path="invoices.xlsx", rows='[["Invoice", "Amount"], ["INV-1", "5.00"]]'),
        call("write_file", path="notes.txt", content="x"), call("write_file", path="b.txt", content="y"),
        "I wrote invoices.xlsx with the one invoice, INV-1 (5.00), and notes.txt and b.txt."],
        [*FILE_TOOLS, *OFFICE_TOOLS, USE_TOOLS], approve="all")
    (ws / "b.txt").write_bytes(b"\xff\xfe\x00binary")  # a failed write that spells out no call: no force after it
    list(agent.run("Put the invoice INV-1 of 5.00 into invoices.xlsx.", workspace=ws))
    assert model.calls[1][0] == "tool_call" and model.grammar_tools[1] == ["xlsx_write"], model.calls
    assert model.calls[2][0] is None and model.calls[4][0] is None, model.calls
    assert (ws / "invoices.xlsx").exists()
    store.close()


def test_a_group_refused_for_a_text_change_names_edit_file(assistant_home, tmp_path, registry):
    """A held-out task at a864c41: "Fix the typo recieve in readme.md." loaded word, excel and pdf in turn, each
    refused, and was handed off as stuck without an edit. The refusal names the tool that changes text."""
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "readme.md").write_text("You will recieve an email.\n")
    one = '<tool_call>\n<function=use_tools>\n<parameter=groups>\n["word"]\n</parameter>\n</function>\n</tool_call>'
    store = Store(assistant_home / "t.db")
    agent = Agent(RecordingModel([one, "Stopped."]), registry, store,
                  settings=load_config(overrides={"agent": {"approve": "all", "preread": False}}),
                  state_dir=tmp_path / "state")
    events = list(agent.run("Fix the typo recieve in readme.md.", workspace=ws))
    [word] = [c for c in store.calls(events[-1].task_id) if c.name == "use_tools"]
    assert word.status == "denied" and "To change the text of readme.md, call edit_file with path, old_text and " \
        "new_text (replace_all=true for every occurrence)." in word.result, word.result
    store.close()


def test_every_group_asked_for_after_the_work_is_refused_as_unasked_with_what_was_done(assistant_home, tmp_path,
                                                                                        registry):
    """A held-out task at 5a8dc42: "Rename the .jpeg files in the photos folder to .jpg." renamed them at step 1,
    then asked for all eight groups six times, each refused as more than four, and was handed off as stuck."""
    ws = tmp_path / "ws"
    (ws / "photos").mkdir(parents=True)
    (ws / "photos" / "beach.jpeg").write_bytes(b"x")
    rename = ('<tool_call>\n<function=rename_many>\n<parameter=folder>\nphotos\n</parameter>\n<parameter=find>\n'
              '.jpeg\n</parameter>\n<parameter=replace>\n.jpg\n</parameter>\n</function>\n</tool_call>')
    every = ('<tool_call>\n<function=use_tools>\n<parameter=groups>\n["word", "excel", "pdf", "web", "calendar", '
             '"notes", "memory", "extras"]\n</parameter>\n</function>\n</tool_call>')
    store = Store(assistant_home / "t.db")
    agent = Agent(RecordingModel([rename, every, "Renamed beach.jpeg to beach.jpg."]), registry, store,
                  settings=load_config(overrides={"agent": {"approve": "all", "preread": False}}),
                  state_dir=tmp_path / "state")
    events = list(agent.run("Rename the .jpeg files in the photos folder to .jpg.", workspace=ws))
    [loaded] = [c for c in store.calls(events[-1].task_id) if c.name == "use_tools"]
    assert loaded.status == "denied" and loaded.result.startswith("Not loaded: word (Word"), loaded.result
    assert "This task's changes so far: step 1 rename_many: renamed 1 file" in loaded.result, loaded.result
    assert "if they complete the task, give your final answer" in loaded.result
    store.close()
