"""classify_turn: what each kind of model turn means (answer, calls, format error)."""

from __future__ import annotations

import pytest

from assistant.loop.turns import Answer, Calls, FormatError, classify_turn
from model.types import ParsedTurn, ParseError, ToolCall, TurnOutput

TOOLS = ["write_file", "read_file"]


def turn(content="", *, calls=(), errors=(), stop="stop") -> TurnOutput:
    return TurnOutput(parsed=ParsedTurn(content=content, tool_calls=list(calls), errors=list(errors)), stop_reason=stop)


BAD = ParseError(index=0, raw="<function=write_file>", message="missing </function>", expected="<tool_call>...")


@pytest.mark.parametrize("out, kind, call_expected, reason_part", [
    (turn("The answer is 42."), Answer, None, None),
    (turn(calls=[ToolCall("read_file", {"path": "a"})]), Calls, None, None),
    (turn(errors=[BAD]), FormatError, True, "missing </function>"),
    (turn("same same same", stop="repetition"), FormatError, False, "loop"),
    (turn("It is", stop="length"), FormatError, False, "cut off"),
    (turn("<tool_response>\nok\n</tool_response>"), FormatError, False, "<tool_response>"),
    (turn("   \n"), FormatError, False, "neither a tool call nor an answer"),
    (turn("{\n"), FormatError, False, "no words"),  # Qwen 1.5B: "{" spent the one retry a refused answer gets
    (turn('```json\n{"name": "write_file", "arguments": {"path": "a"}\n```'), FormatError, True, None),  # broken JSON
    (turn('```json\n{"name": "delete_all", "arguments": {"path": "a"}}\n```'), Answer, None, None),  # no such tool
    (turn("I will read the file now."), FormatError, False, "called no tool"),
    (turn("I wrote report.txt with the totals."), FormatError, False, "report.txt"),
])
def test_each_kind_of_turn_is_classified(tmp_path, out, kind, call_expected, reason_part):
    result = classify_turn(out, str(tmp_path), TOOLS)
    assert isinstance(result, kind)
    if kind is FormatError:
        assert result.call_expected is call_expected
        if reason_part:
            assert reason_part in result.reason
    if kind is Answer:
        assert result.text == out.parsed.content


def test_calls_keep_the_unreadable_calls_of_the_same_turn(tmp_path):
    out = turn(calls=[ToolCall("read_file", {"path": "a"})], errors=[BAD])
    result = classify_turn(out, str(tmp_path), TOOLS)
    assert isinstance(result, Calls) and result.errors == [BAD] and result.calls[0].name == "read_file"


def test_a_claimed_file_that_exists_is_an_answer_and_the_hint_is_added_to_malformed_calls(tmp_path):
    (tmp_path / "report.txt").write_text("x")
    assert isinstance(classify_turn(turn("I wrote report.txt with the totals."), str(tmp_path), TOOLS), Answer)
    result = classify_turn(turn(errors=[BAD]), str(tmp_path), TOOLS, hint=lambda raw: f" [hint for {raw}]")
    assert result.reason.endswith("[hint for <function=write_file>]") and result.example == "<tool_call>..."


@pytest.mark.parametrize("text, prose", [
    ('To do it:\n\n```json\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}\n```\n\nThen done.',
     "To do it:"),
    ('{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}', ""),
    ('Step: {"name": "write_file", "parameters": {"path": "a.txt", "content": "x"}} and more', "Step:"),
    # only the first call: the rest was written before any result came back
    ('```json\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}\n```\nAssuming it says 3:\n'
     '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```', ""),
])
def test_a_well_formed_json_call_outside_the_call_format_is_run_as_a_call(tmp_path, text, prose):
    """Qwen 1.5B wrote right calls in ```json blocks; a retry cost a whole turn (60-100 s) each time."""
    result = classify_turn(turn(text), str(tmp_path), TOOLS)
    assert isinstance(result, Calls) and result.content == prose
    assert [(c.name, c.arguments) for c in result.calls] == [("write_file", {"path": "a.txt", "content": "x"})]
    assert result.calls[0].raw.startswith('{"name": "write_file"')


def test_json_that_is_not_exactly_a_call_stays_a_format_error(tmp_path):
    extra_key = '```json\n{"name": "read_file", "arguments": {"path": "a"}, "then": "write"}\n```'
    args_not_object = '```json\n{"name": "read_file", "arguments": "a"}\n```'
    for text in (extra_key, args_not_object):
        result = classify_turn(turn(text), str(tmp_path), TOOLS)
        assert isinstance(result, FormatError) and result.call_expected, text


def test_a_call_with_comments_is_read_and_a_broken_call_is_never_skipped_for_a_later_one(tmp_path):
    """Qwen 1.5B (calendar_add_event) wrote a call with `// Duration in minutes` in it, then a finish call:
    the broken call was skipped, the finish run, and the event was never added."""
    commented = ('```json\n{\n  "name": "write_file",\n  "arguments": {\n    "path": "a.txt", // the file\n'
                 '    "content": "x // y" /* kept: in a string */\n  }\n}\n```\nThen:\n'
                 '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```')
    result = classify_turn(turn(commented), str(tmp_path), TOOLS)
    assert isinstance(result, Calls)
    assert [(c.name, c.arguments) for c in result.calls] == [("write_file", {"path": "a.txt", "content": "x // y"})]
    assert result.calls[0].raw.startswith('{\n  "name": "write_file"') and result.calls[0].raw.endswith("}")
    broken = ('```json\n{"name": "write_file", "arguments": {"path": "a.txt", "content": x}}\n```\n'
              '```json\n{"name": "read_file", "arguments": {"path": "a.txt"}}\n```')
    result = classify_turn(turn(broken), str(tmp_path), TOOLS)
    assert isinstance(result, FormatError) and result.call_expected and "write_file" in result.reason


def test_a_call_with_arguments_in_a_tools_tag_is_run_and_a_recited_tool_list_is_not(tmp_path):
    """calendar_add_event, calendar_next_weekday: Qwen 1.5B wrapped its right first call in <tools> ... </tools>;
    the format error cost a step (30-60 s). A tool list recited from the prompt (schemas) stays a format error."""
    wrapped = '<tools>\n{"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}\n</tools>'
    result = classify_turn(turn(wrapped), str(tmp_path), TOOLS)
    assert isinstance(result, Calls) and result.content == ""
    assert [(c.name, c.arguments) for c in result.calls] == [("write_file", {"path": "a.txt", "content": "x"})]
    recited = ('<tools>\n{"name": "write_file", "arguments": {"type": "object", "properties": {"path": {}}}}\n'
               '{"name": "read_file", "parameters": {"path": "a.txt"}}\n</tools>')
    result = classify_turn(turn(recited), str(tmp_path), TOOLS)
    assert isinstance(result, FormatError) and "<tools> list" in result.reason
    broken = '<tool_call>\n{"name": "write_file", "arguments": {"path": "a.txt"}}'
    assert isinstance(classify_turn(turn(broken), str(tmp_path), TOOLS), FormatError)
    # calendar_next_weekday at c92ae49: <function name="..." arguments='{...}'/> inside <tools>, a step lost
    attrs = ('<tools>\n  <function name="write_file" arguments=\'{"path": "a.txt", "content": "x"}\'/>\n</tools>')
    result = classify_turn(turn(attrs), str(tmp_path), TOOLS)
    assert isinstance(result, Calls) and [(c.name, c.arguments) for c in result.calls] == [
        ("write_file", {"path": "a.txt", "content": "x"})]
    schema = '<tools>\n  <function name="write_file" arguments=\'{"type": "object", "properties": {}}\'/>\n</tools>'
    assert isinstance(classify_turn(turn(schema), str(tmp_path), TOOLS), FormatError)
    unknown = '<tools>\n  <function name="rm_rf" arguments=\'{"path": "."}\'/>\n</tools>'
    assert isinstance(classify_turn(turn(unknown), str(tmp_path), TOOLS), FormatError)


def test_a_call_of_a_tool_that_does_not_exist_names_the_one_that_does_it(tmp_path):
    """files_rename_pattern: Qwen 1.5B called "rename" (no such tool) and was told only "the answer holds
    tool-call markup"; it then answered "The task is done."."""
    from assistant.loop.finish import markup_problem
    from model.parsing import parse_turn
    from model.parsing_failed import nearest_tool

    text = '```json\n{"name": "rename", "arguments": {"path": "photos", "new_name": "holiday-0042.jpg"}}\n```'
    tools = ["move", "copy", "read_file", "list_dir"]
    assert markup_problem(text, tools).startswith("there is no tool 'rename'; use move")
    assert nearest_tool("list_dirs", tools) == "list_dir" and nearest_tool("frobnicate", tools) == ""
    schemas = [{"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}}
               for n in tools]
    parsed = parse_turn('<tool_call>\n{"name": "mv", "arguments": {}}\n</tool_call>', schemas, fmt="json",
                        starts_in_think=False)
    assert "unknown tool 'mv'; use move." in parsed.errors[0].message


def test_a_finish_answer_cut_off_keeps_its_whole_sentences_up_to_the_first_repeat(tmp_path):
    """note_search at 42e28a8: the plumber found at step 1, then three finish calls cut off inside the answer
    string (each a format error) and a hand-off as stuck. The sentences that ended before the cut are the answer;
    a cut before any sentence ended stays a format error."""
    from assistant.loop.finish import FINISH
    from model.parsing import parse_turn

    tools = [FINISH.schema()]
    said = "The plumber is Jonas Berg, phone 0170 555 0199."
    cut = parse_turn('<tool_call>\n{"name": "finish", "arguments": {"answer": "' + f"{said} {said} The plumber is Jo",
                     tools, fmt="json", starts_in_think=False)
    assert "cut off inside a string" in cut.errors[0].message
    result = classify_turn(TurnOutput(parsed=cut, stop_reason="repetition"), str(tmp_path), TOOLS)
    assert isinstance(result, Answer) and result.text == said
    early = parse_turn('<tool_call>\n{"name": "finish", "arguments": {"answer": "The plumber is Jo', tools,
                       fmt="json", starts_in_think=False)
    assert isinstance(classify_turn(TurnOutput(parsed=early, stop_reason="length"), str(tmp_path), TOOLS),
                      FormatError)
    other = parse_turn('<tool_call>\n{"name": "write_file", "arguments": {"content": "' + f"{said} {said} x",
                       [*tools], fmt="json", starts_in_think=False)
    assert isinstance(classify_turn(TurnOutput(parsed=other, stop_reason="length"), str(tmp_path), TOOLS), FormatError)


def test_a_finish_answer_cut_off_in_a_ramble_keeps_the_sentences_before_it():
    """files_organise at db466c8: the files sorted, the finish answer went on "The user can use the move function
    to ...", "The user can use the rename_many function to ...", until the time budget ran out."""
    from assistant.loop.turns import cut_finish_answer

    head = ("The files in the inbox folder are now sorted into subfolders named after their file extension. The files "
            "are in inbox/pdf, inbox/jpg and inbox/txt.")
    ramble = " ".join(f"The user can use the {t} function to work with these files." for t in
                      ("move", "rename_many", "copy", "combine_files"))
    raw = '{"name": "finish", "arguments": {"answer": "' + f"{head} {ramble} The user can use the"
    assert cut_finish_answer(raw) == head.replace(". ", ".\n")
    listed = "You have Team standup at 9:00. You have Lunch with Sam at 12:30. You have "  # openings differ
    assert cut_finish_answer('{"name": "finish", "arguments": {"answer": "' + listed).count("You have") == 2


def test_a_refused_ask_human_that_spells_out_the_call_to_copy_leaves_only_its_tool():
    """xlsx_two_sheet_total at 79c170d: a query failed, then the user's own question was sent to ask_human three
    times, each refused with the table_query to copy, and the task paused as stuck. The turn after such a refusal
    may only call the tool it spells out; so may a failed write's (csv_to_xlsx at c628c84)."""
    from assistant.loop.turns import copy_after_failed_write
    from assistant.state.models import CallRecord

    asked = CallRecord(id="s4c0", step=4, turn_seq=4, name="ask_human", status="denied", error=True,
                       arguments={"question": "What is the total amount spent on Travel in both quarters?"},
                       result="Not asked: that is the user's own request, word for word; they are waiting for you to "
                              "do it. Work it out from what the tools showed (or with another tool), then answer.\n"
                              "The call to copy (harness note at step 0: call table_query with {\"sql\": \"SELECT "
                              "SUM(amount) FROM expenses WHERE category = 'Travel'\"})")
    assert copy_after_failed_write([asked]) == ["table_query"]
    plain = asked.model_copy(update={"result": "Not asked: that is the user's own request, word for word."})
    assert copy_after_failed_write([plain]) == []
    failed_read = asked.model_copy(update={"name": "read_file", "status": "error"})
    assert copy_after_failed_write([failed_read]) == []  # a failed read keeps its choices
