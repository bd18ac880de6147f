"""The file tools as the model uses them: short, actionable text; structured
data for the UI; errors as results."""

from __future__ import annotations

from pathlib import Path

import pytest

from sandbox import BlobStore, Workspace
from tools.base import RiskClass, ToolContext, ToolRegistry
from tools.files import FILE_TOOLS, preview_diff

TOOLS = {t.name: t for t in FILE_TOOLS}


@pytest.fixture
def ctx(tmp_path: Path) -> ToolContext:
    root = tmp_path / "w"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "plan.md").write_text("# Plan\n\n- buy milk\n- call Bob\n- buy bread\n")
    (root / "notes.txt").write_text("".join(f"line {i}\n" for i in range(1, 1001)))
    (root / "report.pdf").write_bytes(b"%PDF-1.4\n%binary\x00\x01")
    (tmp_path / "outside.txt").write_text("secret")
    journal: list = []
    ws = Workspace(root, blobs=BlobStore(tmp_path / "blobs"), on_change=journal.append, trash_dir=tmp_path / "trash")
    return ToolContext(workspace=ws, state={"journal": journal})


def call(ctx: ToolContext, name: str, **args):
    t = TOOLS[name]
    return t.invoke(ctx, t.validate(args))


def test_the_twelve_tools_with_their_risk_classes(ctx: ToolContext) -> None:
    expected = {
        "list_dir": RiskClass.READ, "read_file": RiskClass.READ, "find_files": RiskClass.READ,
        "grep": RiskClass.READ, "file_info": RiskClass.READ, "edit_file": RiskClass.WRITE,
        "move": RiskClass.DESTRUCTIVE, "copy": RiskClass.DESTRUCTIVE, "delete": RiskClass.DESTRUCTIVE,
        "rename_many": RiskClass.DESTRUCTIVE,
    }  # write_file and combine_files: write, or destructive when they replace a file
    assert len(ToolRegistry(FILE_TOOLS)) == 12
    for name, risk in expected.items():
        assert TOOLS[name].risk is risk
    wf = TOOLS["write_file"]
    assert wf.risk_of(ctx, wf.validate({"path": "new.txt", "content": ""})) is RiskClass.WRITE
    assert wf.risk_of(ctx, wf.validate({"path": "notes.txt", "content": ""})) is RiskClass.DESTRUCTIVE
    for t in FILE_TOOLS:
        assert t.schema()["function"]["description"].count("\n") == 0


def test_list_dir_shows_a_tree_with_sizes_and_counts_what_it_left_out(ctx: ToolContext) -> None:
    r = call(ctx, "list_dir")
    assert not r.error
    assert "docs/" in r.text and "plan.md" in r.text and "KB" in r.text
    for i in range(30):
        ctx.workspace.write_text(f"many/f{i:02}.txt", "x")
    r = call(ctx, "list_dir", path="many", max_entries=10)
    assert "20 more entries not shown" in r.text and r.data["omitted"] == 20
    assert call(ctx, "list_dir", path="notes.txt").error
    # files_find: the file asked for was in archive/2024/, which a depth-2 listing showed as a bare name
    for name in ("archive/2024/passport.txt", "archive/2024/tax.txt", "archive/2023/old.txt"):
        ctx.workspace.write_text(name, "x")
    (Path(ctx.workspace.root) / "archive" / "empty").mkdir()
    text = call(ctx, "list_dir", path=".", depth=2).text
    assert "  2024/  (2 entries not shown)" in text and "  2023/  (1 entry not shown)" in text
    assert "  empty/  (empty)" in text
    assert "2024/  (" not in call(ctx, "list_dir", path=".", depth=3).text


def test_read_file_numbers_lines_and_pages(ctx: ToolContext) -> None:
    r = call(ctx, "read_file", path="notes.txt", offset=10, limit=5)
    assert "    10\tline 10" in r.text and "    14\tline 14" in r.text and "line 15" not in r.text
    assert "call read_file with offset=15" in r.text
    assert r.untrusted and r.data["total_lines"] == 1000
    r = call(ctx, "read_file", path="notes.txt", offset=2000)
    assert r.error and "past the end" in r.text


def test_read_file_points_binary_files_to_the_right_tool(ctx: ToolContext) -> None:
    r = call(ctx, "read_file", path="report.pdf")
    assert r.error and "PDF" in r.text and "Use pdf_read" in r.text and '["pdf"]' in r.text


@pytest.mark.parametrize("path", ["../outside.txt", "/etc/passwd", "docs/../../outside.txt", "a\x00b", "~/x"])
def test_attacks_through_tools_are_error_results(ctx: ToolContext, path: str, tmp_path: Path) -> None:
    for name, args in [
        ("read_file", {"path": path}),
        ("write_file", {"path": path, "content": "PWNED"}),
        ("delete", {"path": path}),
        ("copy", {"src": "notes.txt", "dest": path}),
        ("file_info", {"path": path}),
    ]:
        r = call(ctx, name, **args)
        assert r.error, (name, r.text)
        assert "workspace" in r.text or "NUL" in r.text
    assert (tmp_path / "outside.txt").read_text() == "secret"


def test_not_found_says_what_to_do_next(ctx: ToolContext) -> None:
    r = call(ctx, "read_file", path="nope.txt")
    assert r.error and "not found" in r.text and "list_dir" in r.text


def test_a_wildcard_path_is_told_that_paths_are_never_wildcards(ctx: ToolContext) -> None:
    """Qwen 1.5B copied "todo/*.txt" to todo/all.txt to combine files, got "not found" and gave up."""
    ctx.workspace.write_text("todo/a.txt", "milk\n")
    r = call(ctx, "read_file", path="todo/*.txt")
    assert r.error and "never wildcards" in r.text and "find_files" in r.text and "combine_files joins" in r.text
    assert "never wildcards" not in call(ctx, "read_file", path="nope.txt").text
    # copy takes a wildcard into a folder since 2e1bee7; into a file name, the files are to be joined
    r = call(ctx, "copy", src="todo/*.txt", dest="todo/all.txt")
    assert r.error and 'call combine_files with {"src": "todo/*.txt", "dest": "todo/all.txt"}' in r.text, r.text
    assert not ctx.workspace.exists("todo/all.txt")


def test_write_file_creates_then_overwrites_with_a_diff(ctx: ToolContext) -> None:
    r = call(ctx, "write_file", path="out/hello.txt", content="hello\n")
    assert not r.error and r.text.startswith("created out/hello.txt") and r.data["created"]
    r = call(ctx, "write_file", path="out/hello.txt", content="hello\nworld\n")
    assert "overwrote" in r.text and "+world" in r.data["diff"]
    assert ctx.workspace.read_text("out/hello.txt") == "hello\nworld\n"
    assert [rec.op for rec in ctx.state["journal"]] == ["mkdir", "create", "write"]


def test_edit_file_replaces_a_unique_match_and_shows_the_diff(ctx: ToolContext) -> None:
    r = call(ctx, "edit_file", path="docs/plan.md", old_text="- call Bob", new_text="- call Alice")
    assert not r.error
    assert "-- call Bob" in r.data["diff"] and "+- call Alice" in r.data["diff"] and "@@" in r.text
    assert "call Alice" in ctx.workspace.read_text("docs/plan.md")


def test_edit_file_refuses_ambiguous_or_missing_matches(ctx: ToolContext) -> None:
    original = ctx.workspace.read_text("docs/plan.md")
    r = call(ctx, "edit_file", path="docs/plan.md", old_text="- buy", new_text="- get")
    assert r.error and "2 times" in r.text and "more surrounding lines" in r.text
    r = call(ctx, "edit_file", path="docs/plan.md", old_text="- buy eggs", new_text="x")
    assert r.error and "not found" in r.text and "read_file" in r.text
    assert ctx.workspace.read_text("docs/plan.md") == original


def test_edit_file_keeps_crlf_and_the_encoding(ctx: ToolContext) -> None:
    root = ctx.workspace.root
    (root / "win.txt").write_bytes("première ligne\r\nseconde ligne\r\n".encode("cp1252"))
    r = call(ctx, "edit_file", path="win.txt", old_text="première ligne\nseconde", new_text="first line\nsecond")
    assert not r.error, r.text
    assert (root / "win.txt").read_bytes() == b"first line\r\nsecond ligne\r\n"


def test_preview_diff_computes_without_writing(ctx: ToolContext) -> None:
    ws = ctx.workspace
    before = ws.read_bytes("docs/plan.md")
    diff = preview_diff(ws, "edit_file", {"path": "docs/plan.md", "old_text": "call Bob", "new_text": "call Carol"})
    assert diff and "+- call Carol" in diff
    diff = preview_diff(ws, "write_file", {"path": "fresh.txt", "content": "new\n"})
    assert diff and "+new" in diff and not ws.exists("fresh.txt")
    assert ws.read_bytes("docs/plan.md") == before and ctx.state["journal"] == []
    assert preview_diff(ws, "edit_file", {"path": "docs/plan.md", "old_text": "- buy", "new_text": "x"}) is None
    assert preview_diff(ws, "delete", {"path": "notes.txt"}) is None
    assert preview_diff(ws, "write_file", {"path": "../x", "content": "x"}) is None


def test_move_copy_delete(ctx: ToolContext) -> None:
    ws = ctx.workspace
    r = call(ctx, "copy", src="docs", dest="docs2")
    assert not r.error and r.text == "copied folder docs to docs2 (1 file)."
    r = call(ctx, "move", src="docs2/plan.md", dest="notes.txt")
    assert r.error and "already exists" in r.text and "overwrite=true" in r.text
    r = call(ctx, "move", src="docs2/plan.md", dest="notes.txt", overwrite=True)
    assert not r.error and "replaced" in r.text
    r = call(ctx, "delete", path="docs2")
    assert not r.error and "trash" in r.text and not ws.exists("docs2")


def test_find_files_and_grep(ctx: ToolContext) -> None:
    r = call(ctx, "find_files", pattern="*.md")
    assert r.data["paths"] == ["docs/plan.md"]
    r = call(ctx, "find_files", pattern="*.xlsx")
    assert not r.error and "no files match" in r.text
    assert "grep searches the text inside files" in r.text  # files_find: *.pdf for "a file about my passport"
    # files_find at 9c2437c: "no files match '*.pdf' under .. Try" was read as the path "..", sent four times
    assert r.text.startswith("no files match '*.xlsx' in the workspace. Try") and ".." not in r.text
    assert "no files match '*.xlsx' under docs/. Try" in call(ctx, "find_files", pattern="*.xlsx", path="docs").text
    r = call(ctx, "grep", pattern=r"buy \w+", context=1)
    assert "docs/plan.md:3: - buy milk" in r.text and "docs/plan.md-4- - call Bob" in r.text
    assert r.untrusted
    r = call(ctx, "grep", pattern="line", max_matches=5)
    assert r.data["capped"] and "stopped at max_matches" in r.text
    r = call(ctx, "grep", pattern="(unclosed")
    assert r.error and "invalid regular expression" in r.text


def test_a_regular_expressions_dot_star_finds_what_its_glob_would(ctx: ToolContext) -> None:
    """A held-out task at 911f35c sent ".*" (as a glob: hidden names only) for every file, and was told none matched."""
    assert call(ctx, "find_files", pattern=".*").data["paths"] == call(ctx, "find_files", pattern="*").data["paths"]
    assert call(ctx, "find_files", pattern=r".*\.md").data["paths"] == ["docs/plan.md"]
    assert "no files match" in call(ctx, "find_files", pattern=".*\\.xlsx").text


def test_a_json_file_is_written_only_with_json(ctx: ToolContext) -> None:
    """A held-out task at bad5969 wrote prices.csv as an HTML table into prices.json and finished."""
    r = call(ctx, "write_file", path="prices.json", content="<table><tr><th>product</th></tr></table>")
    assert r.error and "prices.json is a JSON file, and this text is not JSON (Expecting value); nothing was" in r.text
    assert not ctx.workspace.exists("prices.json")
    ctx.workspace.write_text("prices.csv", "product,price\nKettle,34.90\n")
    joined = call(ctx, "combine_files", src="prices.csv", dest="prices.json")  # a held-out task at aa133bf
    assert joined.error and "prices.json is a JSON file, and this text is not JSON" in joined.text
    assert not ctx.workspace.exists("prices.json")
    good = '[{"product": "Kettle", "price": 34.9}]'
    assert not call(ctx, "write_file", path="prices.json", content=good).error
    assert ctx.workspace.read_text("prices.json") == good


def test_file_info(ctx: ToolContext) -> None:
    r = call(ctx, "file_info", path="docs/plan.md")
    assert "kind: file" in r.text and "lines: 5" in r.text and "encoding: utf-8" in r.text
    r = call(ctx, "file_info", path="report.pdf")
    assert "PDF document" in r.text and "Use pdf_read" in r.text
    r = call(ctx, "file_info", path="docs")
    assert "kind: folder" in r.text and "entries: 1" in r.text


def test_no_workspace_is_an_error_result() -> None:
    r = TOOLS["list_dir"].invoke(ToolContext(), TOOLS["list_dir"].validate({}))
    assert r.error and "no workspace" in r.text


def test_list_dir_says_when_it_hides_undecodable_names(tmp_path) -> None:
    import os

    from sandbox import Workspace

    root = tmp_path / "w"
    root.mkdir()
    (root / "ok.txt").write_text("x")
    with open(os.path.join(os.fsencode(root), b"caf\xe9.txt"), "wb") as fh:
        fh.write(b"x")
    r = call(ToolContext(workspace=Workspace(root)), "list_dir")
    assert "ok.txt" in r.text and "1 entries with names that are not valid UTF-8" in r.text


def test_grep_without_matches_says_what_would_match(ctx: ToolContext) -> None:
    """Qwen 1.5B grepped a .docx for "Monthly Rent" (case-sensitive), got "no matches" and wrote the answer
    into the lease instead: the result names the reader and the ignore_case switch."""
    import docx

    doc = docx.Document()
    doc.add_paragraph("The monthly rent is EUR 1,450.")
    doc.save(str(Path(ctx.workspace.root) / "lease.docx"))
    (Path(ctx.workspace.root) / "terms.txt").write_text("Monthly rent: see the lease.\nmonthly RENT again\n")
    r = call(ctx, "grep", pattern="MONTHLY RENT")
    assert not r.error and r.data["matches"] == 0
    assert "3 lines match if case is ignored: pass ignore_case=true" in r.text  # the lease's line too
    r = call(ctx, "grep", pattern="Monthly rent")
    assert r.data["matches"] == 1 and "docx_read" not in r.text


def test_grep_searches_the_text_of_pdf_and_word_documents(ctx: ToolContext, monkeypatch) -> None:
    """A held-out task at a864c41: "Which of the letters in the letters folder mention a refund?" (four PDFs): grep
    could not search a PDF, find_files matched names only, and Qwen 1.5B searched names for "*report*", the
    example of find_files' note. A document's text is searched as its reader shows it, page by page."""
    import sys

    from assistant.bench_runner import DEFAULT_TASKS_DIR

    sys.path.insert(0, str(DEFAULT_TASKS_DIR))
    from _kit import make_docx, make_pdf

    root = Path(ctx.workspace.root)
    make_pdf(root / "letters" / "shop.pdf", [["Dear customer,"], ["we have issued a refund of EUR 24.99."]])
    make_pdf(root / "letters" / "bank.pdf", [["Your new card will arrive within 7 days."]])
    make_docx(root / "letters" / "airline.docx", [("p", "Your flight was cancelled."),
                                                  ("p", "You may request a Refund or a voucher.")])
    r = call(ctx, "grep", pattern="refund", path="letters", ignore_case=True)
    assert not r.error and r.data["matches"] == 2 and r.data["files"] == 2, r.text
    assert "letters/shop.pdf:page 2: we have issued a refund of EUR 24.99." in r.text, r.text
    assert "letters/airline.docx:" in r.text and "You may request a Refund or a voucher." in r.text
    assert "bank.pdf" not in r.text and "Tj" not in r.text  # the PDF's own operators are never searched
    (root / "letters" / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    r = call(ctx, "grep", pattern="refund", path="letters", ignore_case=True)
    assert not r.error and r.data["matches"] == 2, r.text
    # past the documents one grep reads, a PDF is left out and said so, never searched as its raw bytes
    monkeypatch.setattr("tools.files.reading._SEARCHED_DOCUMENTS", 1)
    r = call(ctx, "grep", pattern="refund", path="letters", ignore_case=True)
    assert r.data["matches"] == 1 and "3 more documents were not searched" in r.text and "Tj" not in r.text, r.text


def test_errors_give_no_example_value_a_model_could_copy(ctx: ToolContext) -> None:
    """Small models copy an error's example into the next call (Qwen 1.5B passed the calendar's
    "e.g. '4:30pm'" five times): a folder given to write_file says what to give, not a made-up name."""
    out = call(ctx, "write_file", path="docs", content="x")
    assert out.error and "docs/ and the file's name" in out.text and "notes.txt" not in out.text


def test_a_copy_or_move_that_changes_a_documents_type_is_refused(ctx: ToolContext) -> None:
    """csv_to_xlsx: Qwen 1.5B meant to convert contacts.csv by copying it to contacts.xlsx."""
    (Path(ctx.workspace.root) / "contacts.csv").write_text("Name\nAnn\n")
    out = call(ctx, "copy", src="contacts.csv", dest="contacts.xlsx")
    assert out.error and "a CSV file under a .xlsx name" in out.text and "xlsx_write with from_csv" in out.text
    assert not (Path(ctx.workspace.root) / "contacts.xlsx").exists()
    out = call(ctx, "move", src="contacts.csv", dest="contacts.pdf")
    assert out.error and "read it with its reader" in out.text
    assert not call(ctx, "copy", src="contacts.csv", dest="contacts-copy.csv").error
    assert not call(ctx, "move", src="contacts-copy.csv", dest="names.txt").error  # text to text: a rename
    # a held-out task at 367319d: the phone numbers of a letter "copied" into phones.csv three times
    (Path(ctx.workspace.root) / "contacts.docx").write_bytes(b"PK")
    out = call(ctx, "copy", src="contacts.docx", dest="phones.csv")
    assert out.error and out.text.endswith("to convert it, read contacts.docx with docx_read and write phones.csv "
                                           "with csv_write."), out.text


def test_list_dir_depth_zero_lists_the_folder_and_use_tools_says_why_it_loads_few_groups(ctx: ToolContext) -> None:
    """files_merge_todos: Qwen 1.5B passed depth=0 (refused, twice) and asked use_tools for all 8 groups (twice)."""
    from pydantic import ValidationError

    from tools.core import USE_TOOLS

    out = call(ctx, "list_dir", path=".", depth=0)
    assert not out.error and "docs" in out.text
    with pytest.raises(ValidationError, match="the file tools .* are always loaded"):
        USE_TOOLS.validate({"groups": ["word", "excel", "pdf", "web", "calendar", "notes", "memory", "extras"]})
    assert USE_TOOLS.validate({"groups": ["excel", "excel"]}).groups == ["excel"]


def test_rename_many_replaces_a_text_in_the_names_of_a_folders_files(ctx: ToolContext) -> None:
    """files_rename_pattern: five files to rename took Qwen 1.5B more calls than its budget had."""
    root = Path(ctx.workspace.root)
    (root / "photos" / "old").mkdir(parents=True)
    for name in ("IMG_0007.jpg", "IMG_0420.jpg", "readme.txt", "old/IMG_0001.jpg"):
        (root / "photos" / name).write_text(name)
    out = call(ctx, "rename_many", folder="photos", find="IMG_", replace="holiday-", pattern="*.jpg")
    assert not out.error, out.text
    assert out.text.startswith("renamed 2 files: photos/IMG_0007.jpg -> photos/holiday-0007.jpg")
    assert sorted(p.name for p in (root / "photos").iterdir()) == ["holiday-0007.jpg", "holiday-0420.jpg", "old",
                                                                    "readme.txt"]
    assert (root / "photos" / "holiday-0420.jpg").read_text() == "IMG_0420.jpg"
    assert (root / "photos" / "old" / "IMG_0001.jpg").exists()  # subfolders are left alone
    assert [r.op for r in ctx.state["journal"][-2:]] == ["move", "move"]  # each one undoable
    out = call(ctx, "rename_many", folder="photos", find="IMG_", replace="x")
    assert out.error and "nothing was renamed" in out.text
    (root / "photos" / "a-1.txt").write_text("a")
    (root / "photos" / "b-1.txt").write_text("b")
    out = call(ctx, "rename_many", folder="photos", find="b-", replace="a-")
    assert out.error and "would overwrite photos/a-1.txt" in out.text and (root / "photos" / "b-1.txt").exists()


def test_a_move_to_a_folder_keeps_the_file_name(ctx: ToolContext) -> None:
    """files_organise at 9fda44c: move of inbox/beach.jpg to inbox/jpg (the folder the sort asks for) made a file
    named "jpg", the photo's type lost."""
    root = Path(ctx.workspace.root)
    (root / "inbox").mkdir()
    for name in ("beach.jpg", "scan.pdf", "notes.txt", "Makefile.txt"):
        (root / "inbox" / name).write_text(name)
    out = call(ctx, "move", src="inbox/beach.jpg", dest="inbox/jpg")
    assert not out.error and "moved inbox/beach.jpg to inbox/jpg/beach.jpg (into the folder inbox/jpg" in out.text
    assert (root / "inbox" / "jpg" / "beach.jpg").read_text() == "beach.jpg"
    out = call(ctx, "move", src="inbox/scan.pdf", dest="inbox/papers/")  # a trailing slash: a folder
    assert not out.error and (root / "inbox" / "papers" / "scan.pdf").is_file()
    out = call(ctx, "move", src="inbox/notes.txt", dest="inbox/papers")  # an existing folder
    assert not out.error and (root / "inbox" / "papers" / "notes.txt").is_file()
    out = call(ctx, "move", src="inbox/Makefile.txt", dest="inbox/Makefile")  # a new name: a rename, as asked
    assert not out.error and (root / "inbox" / "Makefile").is_file()


def test_move_with_a_wildcard_sorts_matching_files_into_a_folder(ctx: ToolContext) -> None:
    """files_organise: Qwen 1.5B tried regular expressions in rename_many to sort an inbox into
    pdf/, jpg/ and txt/ folders; inbox/*.pdf as a path was "not found"."""
    root = Path(ctx.workspace.root)
    (root / "inbox" / "old").mkdir(parents=True)
    files = {"scan.pdf": b"%PDF a", "Invoice.PDF": b"%PDF b", "beach.jpg": b"\xff\xd8", "old/keep.pdf": b"%PDF c"}
    for name, data in files.items():
        (root / "inbox" / name).write_bytes(data)
    out = call(ctx, "move", src="inbox/*.pdf", dest="inbox/pdf/")
    assert not out.error, out.text
    assert out.text.startswith("moved 2 files: inbox/Invoice.PDF -> inbox/pdf/Invoice.PDF; inbox/scan.pdf -> ")
    assert (root / "inbox" / "pdf" / "scan.pdf").read_bytes() == b"%PDF a"
    assert (root / "inbox" / "pdf" / "Invoice.PDF").read_bytes() == b"%PDF b"
    assert (root / "inbox" / "old" / "keep.pdf").exists() and (root / "inbox" / "beach.jpg").exists()
    assert [r.op for r in ctx.state["journal"][-2:]] == ["move", "move"]  # each one undoable
    out = call(ctx, "move", src="inbox/*.jpg", dest="inbox/jpg/*.jpg")  # a wildcard dest names its folder
    assert not out.error and (root / "inbox" / "jpg" / "beach.jpg").exists()
    out = call(ctx, "move", src="inbox/*.txt", dest="inbox/txt")
    assert out.error and "nothing was moved" in out.text and not (root / "inbox" / "txt").exists()
    (root / "inbox" / "scan.pdf").write_bytes(b"%PDF new")
    out = call(ctx, "move", src="inbox/*.pdf", dest="inbox/pdf")
    assert out.error and "would overwrite inbox/pdf/scan.pdf" in out.text
    assert (root / "inbox" / "pdf" / "scan.pdf").read_bytes() == b"%PDF a"  # refused whole
    assert call(ctx, "move", src="*/scan.pdf", dest="x").error
    (root / "inbox" / "a.txt").write_text("a")
    (root / "inbox" / "b.pdf").write_text("b")
    out = call(ctx, "move", src="inbox/*", dest="inbox/pdf")  # files_organise: every file into the pdf folder
    assert out.error and "also matches .txt files" in out.text and (root / "inbox" / "a.txt").exists()
    assert '{"src": "inbox/*.pdf", "dest": "inbox/pdf"} then {"src": "inbox/*.txt", "dest": "inbox/txt"}.' in out.text
    # files_organise at f000187: "inbox/*.jpg" into inbox/jpeg was told to use inbox/*.jpeg, which matches nothing
    (root / "inbox" / "sunset.jpg").write_bytes(b"j")
    out = call(ctx, "move", src="inbox/*.jpg", dest="inbox/jpeg/")
    assert out.error and out.text.endswith("folder named after its extension: "
                                           '{"src": "inbox/*.jpg", "dest": "inbox/jpg"}.'), out.text


def test_a_wildcard_move_into_a_folder_named_like_its_own_is_refused(ctx: ToolContext) -> None:
    """A held-out task (LH) at a2a0843: reports/*.txt moved into reports/txt, then reports/txt/*.txt into
    reports/txt/txt, and so on five levels deep. Files already in a folder are never moved into a folder of the
    same name inside it; into a differently named one they still go."""
    root = Path(ctx.workspace.root)
    (root / "reports" / "txt").mkdir(parents=True)
    (root / "reports" / "txt" / "jan.txt").write_text("jan")
    out = call(ctx, "move", src="reports/txt/*.txt", dest="reports/txt/txt")
    assert out.error and "are in reports/txt already" in out.text, out.text
    assert (root / "reports" / "txt" / "jan.txt").read_text() == "jan" and not (root / "reports/txt/txt").exists()
    out = call(ctx, "move", src="reports/txt/*.txt", dest="reports/txt/old")
    assert not out.error and (root / "reports" / "txt" / "old" / "jan.txt").read_text() == "jan", out.text


def test_rename_many_changes_an_extension_in_any_case(ctx: ToolContext) -> None:
    """A held-out task at 2e1bee7: "Rename the .jpeg files in photos to .jpg" left dog.JPEG as it was, while
    move's wildcards match names in any case."""
    root = Path(ctx.workspace.root)
    (root / "photos").mkdir()
    for name in ("beach.jpeg", "dog.JPEG", "cat.png", "jpeg-notes.txt"):
        (root / "photos" / name).write_bytes(b"x")
    out = call(ctx, "rename_many", folder="photos", find=".jpeg", replace=".jpg", pattern="*.jpeg")
    assert not out.error, out.text
    assert sorted(p.name for p in (root / "photos").iterdir()) == ["beach.jpg", "cat.png", "dog.jpg",
                                                                    "jpeg-notes.txt"]


def test_copy_with_a_wildcard_copies_each_matching_file_into_the_folder(ctx: ToolContext) -> None:
    """A held-out task at 2e1bee7: "Copy the PDF files from inbox into a new folder called archive." sent
    copy with inbox/*.pdf (refused: no wildcards), then read files, and paused at its step budget."""
    root = Path(ctx.workspace.root)
    (root / "inbox").mkdir()
    for name in ("a.pdf", "b.PDF", "c.txt"):
        (root / "inbox" / name).write_bytes(b"%PDF " + name.encode())
    out = call(ctx, "copy", src="inbox/*.pdf", dest="archive/*.pdf")
    assert not out.error, out.text
    assert out.text.startswith("copied 2 files: inbox/a.pdf -> archive/a.pdf; inbox/b.PDF -> archive/b.PDF")
    assert sorted(p.name for p in (root / "archive").iterdir()) == ["a.pdf", "b.PDF"]
    assert sorted(p.name for p in (root / "inbox").iterdir()) == ["a.pdf", "b.PDF", "c.txt"]  # the originals stay
    assert (root / "archive" / "a.pdf").read_bytes() == b"%PDF a.pdf"
    out = call(ctx, "copy", src="inbox/*.pdf", dest="archive")
    assert out.error and "would overwrite archive/a.pdf" in out.text
    assert call(ctx, "copy", src="inbox/*.docx", dest="archive").error


def test_rename_many_says_what_it_is_not(ctx: ToolContext) -> None:
    """files_organise: find="\\.pdf$", replace="inbox/pdf" five times, each "nothing was renamed"."""
    root = Path(ctx.workspace.root)
    (root / "inbox").mkdir()
    (root / "inbox" / "scan.pdf").write_bytes(b"%PDF a")
    out = call(ctx, "rename_many", folder="inbox", find="\\.pdf$", replace="pdf/")
    assert out.error and "not a regular expression" in out.text
    # files_organise at 42e28a8: find="\\.pdf$", replace="pdf" was told only "list_dir shows the names"
    out = call(ctx, "rename_many", folder="inbox", find="\\.pdf$", replace="pdf")
    assert out.error and "not a regular expression" in out.text
    assert 'e.g. {"src": "inbox/*.pdf", "dest": "inbox/pdf"}' in out.text
    out = call(ctx, "rename_many", folder="inbox", find="scan", replace="pdf/scan")
    assert out.error and "call move with a wildcard src" in out.text and (root / "inbox" / "scan.pdf").exists()


def test_combine_files_joins_a_folders_text_files_into_one(ctx: ToolContext) -> None:
    """files_merge_todos: Qwen 1.5B copied todo/*.txt to todo/all.txt, was told paths are never wildcards, and
    asked the user how to combine files."""
    root = Path(ctx.workspace.root)
    (root / "todo").mkdir()
    (root / "todo" / "monday.txt").write_text("buy milk\ncall Ann")  # no final newline
    (root / "todo" / "tuesday.txt").write_text("pay rent\n")
    (root / "todo" / "img.png").write_bytes(b"\x89PNG")
    wf = TOOLS["combine_files"]
    assert wf.risk_of(ctx, wf.validate({"src": "todo/*.txt", "dest": "todo/all.txt"})) is RiskClass.WRITE
    out = call(ctx, "combine_files", src="todo/*.txt", dest="todo/all.txt")
    assert not out.error, out.text
    assert (root / "todo" / "all.txt").read_text() == "buy milk\ncall Ann\npay rent\n"
    assert "combined 2 files (todo/monday.txt, todo/tuesday.txt) into todo/all.txt (3 lines)" in out.text
    assert ctx.state["journal"][-1].op == "create"  # undoable
    out = call(ctx, "combine_files", src="todo/*.txt", dest="todo/all.txt")  # all.txt is no input of itself
    assert out.error and "exists" in out.text
    assert wf.risk_of(ctx, wf.validate({"src": "todo/*.txt", "dest": "todo/all.txt"})) is RiskClass.DESTRUCTIVE
    out = call(ctx, "combine_files", src="todo/tuesday.txt, todo/monday.txt", dest="both.txt")
    assert (root / "both.txt").read_text() == "pay rent\nbuy milk\ncall Ann\n"
    # files_merge_todos at f80ed26: the paths separated by spaces (or semicolons) were one path, not found
    for i, src in enumerate(("todo/tuesday.txt todo/monday.txt", "todo/tuesday.txt;todo/monday.txt")):
        out = call(ctx, "combine_files", src=src, dest=f"both{i}.txt")
        assert not out.error and (root / f"both{i}.txt").read_text() == "pay rent\nbuy milk\ncall Ann\n", out.text
    (root / "my notes.txt").write_text("a\n")  # a name with a space stays one path
    out = call(ctx, "combine_files", src="my notes.txt, todo/tuesday.txt", dest="notes2.txt")
    assert not out.error and (root / "notes2.txt").read_text() == "a\npay rent\n", out.text
    assert call(ctx, "combine_files", src="todo/*.md", dest="x.txt").error
    assert "not found" in call(ctx, "read_file", path="todo/*.txt").text and "combine_files" in \
        call(ctx, "read_file", path="todo/*.txt").text


def test_nothing_matching_here_names_the_folder_that_holds_matches(ctx: ToolContext) -> None:
    """files_merge_todos / files_rename_pattern: Qwen 1.5B combined "*.txt" and renamed in "." with one example
    name as find ("IMG_0042.jpg", no such file); the files were in todo/ and photos/. It got "nothing matches"
    and gave up."""
    root = Path(ctx.workspace.root)
    (root / "todo").mkdir()
    (root / "photos").mkdir()
    for name in ("monday.todo", "tuesday.todo"):
        (root / "todo" / name).write_text(name + "\n")
    for name in ("IMG_0007.jpg", "IMG_0420.jpg", "readme.txt"):
        (root / "photos" / name).write_text(name)
    out = call(ctx, "combine_files", src="*.todo", dest="all.todo")
    assert out.error and "todo holds 2 (monday.todo, tuesday.todo)" in out.text and "pass todo/*.todo" in out.text
    assert not (root / "all.todo").exists()
    out = call(ctx, "combine_files", src="*.todo", dest="todo/all.todo")  # the wildcard read next to the output
    assert not out.error and "combined 2 files (todo/monday.todo, todo/tuesday.todo) into todo/all.todo" in out.text
    assert "'*.todo' was taken in todo, the folder of todo/all.todo" in out.text
    assert (root / "todo" / "all.todo").read_text() == "monday.todo\ntuesday.todo\n"
    out = call(ctx, "move", src="*.jpg", dest="pictures")
    assert out.error and "photos holds 2 (IMG_0007.jpg, IMG_0420.jpg)" in out.text and "pass photos/*.jpg" in out.text
    out = call(ctx, "rename_many", find="IMG_0042.jpg", replace="holiday-0042.jpg")
    assert out.error and "nothing was renamed" in out.text
    assert ("to rename 2 files (e.g. IMG_0007.jpg -> holiday-0007.jpg), call rename_many with "
            '{"folder": "photos", "find": "IMG_", "replace": "holiday-"}') in out.text
    assert sorted(p.name for p in (root / "photos").iterdir()) == ["IMG_0007.jpg", "IMG_0420.jpg", "readme.txt"]
    out = call(ctx, "rename_many", folder="photos", find="IMG_0042", replace="holiday-0042")
    assert '{"folder": "photos", "find": "IMG_", "replace": "holiday-"}' in out.text  # in the folder itself
    # files_rename_pattern at b5a954c: pattern=".*" (a regular expression) hid every name from the hint too
    out = call(ctx, "rename_many", find="IMG_0042.jpg", replace="holiday-0042.jpg", pattern=".*")
    assert out.error and "pattern '.*' matches none of the names" in out.text and "leave it out" in out.text
    assert 'to rename 2 files (e.g. IMG_0007.jpg -> holiday-0007.jpg), call rename_many with {"folder": "photos"' in out.text
    out = call(ctx, "rename_many", find=".jpg", replace="jpg")  # files_organise: sorting by renaming
    assert out.error and "would change the files' extension (IMG_0007.jpg -> IMG_0007jpg)" in out.text
    assert 'call move with a wildcard src and the folder as dest, e.g. {"src": "photos/*.jpg", "dest": "photos/jpg"}' \
        in out.text and "to rename" not in out.text
    out = call(ctx, "rename_many", folder="photos", find="DSC_", replace="x")
    assert out.error and "to rename" not in out.text and "list_dir shows the names" in out.text
    # files_rename_pattern at c92ae49: find "IMG_0042.jpg", replace "holiday-" (nothing to narrow): the user's
    # own example says what changes
    out = call(ctx, "rename_many", folder="photos", find="IMG_0042.jpg", replace="holiday-")
    assert out.error and "to rename" not in out.text
    ctx.user_words = ["In the photos folder, rename every file named like IMG_0042.jpg to holiday-0042.jpg."]
    out = call(ctx, "rename_many", folder="photos", find="IMG_0042.jpg", replace="holiday-")
    assert out.error and '{"folder": "photos", "find": "IMG_", "replace": "holiday-"}' in out.text
    assert sorted(p.name for p in (root / "photos").iterdir()) == ["IMG_0007.jpg", "IMG_0420.jpg", "readme.txt"]
    assert "list_dir shows the names" in call(ctx, "combine_files", src="*.xyz", dest="x.txt").text


def test_a_csv_written_as_a_displayed_table_is_refused(ctx: ToolContext) -> None:
    """csv_top_customers: Qwen 1.5B copied table_query's "customer | Total" display into top3.csv."""
    out = call(ctx, "write_file", path="top3.csv", content="customer|Total\nHarbor|1845.25\nAcme|1813.65")
    assert out.error and "separate its columns with commas" in out.text
    assert not (Path(ctx.workspace.root) / "top3.csv").exists()
    out = call(ctx, "write_file", path="t.csv", content="customer | Total\n---------+------\nHarbor | 1845.25\n")
    assert out.error
    assert not call(ctx, "write_file", path="top3.csv", content="Customer,Total\nHarbor,1845.25\n").error
    assert not call(ctx, "write_file", path="notes.md", content="a | b\n1 | 2\n").error  # a Markdown table
    assert not call(ctx, "write_file", path="mixed.csv", content="Name,Note\nAnn,a|b\n").error
    # a held-out task at 54bc750: the header put in commas, the rule line and the '|' rows kept
    half = "name,city,email\n-----+--------+----------\nBen | Munich | ben@x.org\nDi | Munich | di@x.org"
    assert call(ctx, "write_file", path="munich.csv", content=half).error
    assert call(ctx, "write_file", path="m2.csv", content="name,city\n---------\nBen,Munich\n").error


def test_a_text_tool_on_a_document_names_the_tools_that_change_it(ctx: ToolContext) -> None:
    """handoff_which_contract: edit_file on contract-acme.docx was told only "use the office tools"."""
    (Path(ctx.workspace.root) / "contract.docx").write_bytes(b"PK\x03\x04" + bytes(range(256)) * 4)
    out = call(ctx, "edit_file", path="contract.docx", old_text="a", new_text="b")
    # docx_edit_clause at dd4189c: told the tools' names, Qwen 1.5B sent the same edit_file three times
    assert out.error and 'call docx_replace with {"path": "contract.docx", "find": "a", "replace": "b"}' in out.text
    assert '["word"]' in out.text and (Path(ctx.workspace.root) / "contract.docx").read_bytes().startswith(b"PK")


def test_write_file_never_puts_text_in_a_document_or_over_a_binary_file(ctx: ToolContext) -> None:
    """xlsx_group_sums: Qwen 1.5B overwrote the user's sales.xlsx with CSV text ("it was not text; undo can
    restore it") and finished."""
    root = Path(ctx.workspace.root)
    (root / "sales.xlsx").write_bytes(b"PK\x03\x04 workbook")
    (root / "photo.png").write_bytes(bytes(range(256)))
    out = call(ctx, "write_file", path="sales.xlsx", content="Region,Total\nNorth,1\n")
    assert out.error and "names a document" in out.text and "xlsx_write changes it" in out.text
    assert (root / "sales.xlsx").read_bytes() == b"PK\x03\x04 workbook"
    out = call(ctx, "write_file", path="new.docx", content="text")  # not a Word file either
    assert out.error and "docx_create makes it (path, and blocks" in out.text  # multistep_invoices_memo at 462ec82
    out = call(ctx, "write_file", path="invoices.xlsx", content="Invoice,Amount\nINV-1,5\n")
    assert out.error and "xlsx_write makes it (path, and rows" in out.text and "changes it" not in out.text
    out = call(ctx, "write_file", path="photo.png", content="x")
    assert out.error and "cannot be read as text" in out.text and (root / "photo.png").read_bytes() == bytes(range(256))
    assert "from_csv" not in call(ctx, "write_file", path="c.xlsx", content="a,b").text  # no CSV file to name
    (root / "data").mkdir()
    (root / "data" / "other.csv").write_text("x\n")
    (root / "contacts.csv").write_text("Name,City\nInes,Porto\n")
    out = call(ctx, "write_file", path="contacts.xlsx", content="Name,City\nInes,Porto\n")  # csv_to_xlsx
    assert out.error and "To make it from a CSV file, call xlsx_write with {\"path\": \"contacts.xlsx\", " \
        "\"from_csv\": \"contacts.csv\"}." in out.text and not (root / "contacts.xlsx").exists()


def test_a_folder_that_is_not_there_names_the_close_one(ctx: ToolContext) -> None:
    """files_organise at fbc3d9d: Qwen 1.5B passed folder ".inbox" for inbox/, was told ".inbox is not a folder"
    and answered that it had no authority to rename the files."""
    root = Path(ctx.workspace.root)
    (root / "inbox").mkdir()
    (root / "inbox" / "scan.pdf").write_bytes(b"%PDF a")
    out = call(ctx, "rename_many", folder=".inbox", find=".pdf", replace="pdf")
    assert out.error and out.text.endswith("Did you mean 'inbox'?")
    out = call(ctx, "move", src="inbx/*.pdf", dest="inbox/pdf")
    assert out.error and "Did you mean 'inbox'?" in out.text
    out = call(ctx, "rename_many", folder="photos", find="a", replace="b")
    assert out.error and "Did you mean" not in out.text  # nothing close: no guess


def test_combine_files_never_writes_text_under_a_document_name(ctx: ToolContext) -> None:
    """csv_to_xlsx at e03cee3: Qwen 1.5B "combined" contacts.csv into contacts.xlsx (CSV text under an Excel
    name) and said it was done."""
    root = Path(ctx.workspace.root)
    (root / "contacts.csv").write_text("Name,City\nIne,Porto\n")
    out = call(ctx, "combine_files", src="contacts.csv", dest="contacts.xlsx")
    assert out.error and "names a document; nothing was written" in out.text
    assert 'call xlsx_write with {"path": "contacts.xlsx", "from_csv": "contacts.csv"}' in out.text
    assert not (root / "contacts.xlsx").exists()


def test_a_name_search_for_plain_words_that_finds_nothing_shows_files_whose_text_holds_them(ctx: ToolContext) -> None:
    """files_find at e03cee3: Qwen 1.5B searched names for "passport renewal", never grepped, and named
    home/readme.txt."""
    root = Path(ctx.workspace.root)
    (root / "archive" / "2024").mkdir(parents=True)
    (root / "archive" / "2024" / "a17.txt").write_text("Reminder\nPassport RENEWAL appointment: 3 May, 9:40\n")
    (root / "archive" / "2024" / "b2.txt").write_text("passport photo only\n")
    out = call(ctx, "find_files", pattern="passport renewal")
    assert "no files match" in out.text and "mentions 'passport' and 'renewal'" in out.text
    assert "archive/2024/a17.txt: Passport RENEWAL appointment: 3 May, 9:40" in out.text
    assert "b2.txt" not in out.text and out.data == {"paths": [], "mentions_paths": ["archive/2024/a17.txt"]}
    assert "The text of" not in call(ctx, "find_files", pattern="*passport*").text  # a wildcard: names only


def test_a_phrase_grep_that_matches_nothing_shows_files_holding_its_words(ctx: ToolContext) -> None:
    """files_find: Qwen 1.5B grepped for "Passport Renewal Appointment - [Date]" (a placeholder, read as a
    character class) and matched nothing; the file whose text holds the words is shown instead."""
    root = Path(ctx.workspace.root)
    (root / "archive" / "2024").mkdir(parents=True)
    (root / "archive" / "2024" / "appt.txt").write_text("Passport renewal appointment at the city office, 12 April.\n")
    (root / "home.txt").write_text("Home insurance renewal due in May.\n")
    out = call(ctx, "grep", pattern="Passport Renewal Appointment - [Date]")
    assert "no matches for" in out.text and "mentions 'passport' and 'renewal' and 'appointment'" in out.text
    assert "archive/2024/appt.txt: Passport renewal appointment" in out.text and "home.txt" not in out.text
    assert out.data["mentions_paths"] == ["archive/2024/appt.txt"] and out.untrusted
    one_word = call(ctx, "grep", pattern="Lisbon")  # one word that is nowhere: nothing more to show
    assert one_word.text.startswith("no matches for 'Lisbon'") and "mentions" not in one_word.text


def test_rename_many_never_strips_the_extensions(ctx: ToolContext) -> None:
    """files_organise at 0ed7096: find=".", replace="" renamed the six inbox files to beachjpg, scanpdf, ..."""
    root = Path(ctx.workspace.root)
    (root / "inbox").mkdir()
    for name in ("beach.jpg", "scan.pdf"):
        (root / "inbox" / name).write_bytes(b"x")
    out = call(ctx, "rename_many", folder="inbox", find=".", replace="")
    assert out.error and "losing its extension" in out.text and "move with a wildcard src (inbox/*." in out.text
    assert sorted(p.name for p in (root / "inbox").iterdir()) == ["beach.jpg", "scan.pdf"]
    out = call(ctx, "rename_many", folder="inbox", find=".jpg", replace=".jpeg")  # another type: the user's call
    assert not out.error and (root / "inbox" / "beach.jpeg").exists()
    # a held-out task at 8d09a0b: "report.txt" to "report-2026" (for report-2026.txt) was told how to sort by type
    (root / "report.txt").write_text("Quarterly report draft\n")
    out = call(ctx, "rename_many", find="report.txt", replace="report-2026")
    assert out.error and out.text.endswith("To keep it, pass replace 'report-2026.txt'."), out.text


def test_write_file_to_a_new_document_spells_out_the_call_that_writes_what_it_was_sent(ctx: ToolContext) -> None:
    """multistep_invoices_memo at db466c8: Qwen 1.5B sent an HTML table to invoices.xlsx twice, told only
    "xlsx_write makes it", and spent two more steps loading a loaded group and reading a file not there."""
    root = Path(ctx.workspace.root)
    html = ("<table><tr><th>Invoice</th><th>Amount</th></tr><tr><td>INV-101</td><td>1,200.00 EUR</td></tr>"
            "<tr><td>INV-102</td><td>349.50 EUR</td></tr></table>")
    want = ('call xlsx_write with {"path": "invoices.xlsx", "rows": [["Invoice", "Amount"], '
            '["INV-101", "1,200.00 EUR"], ["INV-102", "349.50 EUR"]]}.')
    for content in (html, "| Invoice | Amount |\n|---|---|\n| INV-101 | 1,200.00 EUR |\n| INV-102 | 349.50 EUR |",
                    "Invoice,Amount\nINV-101,\"1,200.00 EUR\"\nINV-102,349.50 EUR\n",
                    "Invoice\tAmount\nINV-101\t1,200.00 EUR\nINV-102\t349.50 EUR",
                    # at 21c8a9e: the sheet's name in front of the header, copied into the call given to copy
                    "Sheet1: Invoice,Amount\nINV-101,\"1,200.00 EUR\"\nINV-102,349.50 EUR\n"):
        out = call(ctx, "write_file", path="invoices.xlsx", content=content)
        assert out.error and want in out.text, content
    for content in ("The total is 1,635.75 EUR.", "a,b\nc", "<p>no table</p>"):  # no table: only the tool's name
        out = call(ctx, "write_file", path="invoices.xlsx", content=content)
        assert out.error and "call xlsx_write with" not in out.text and "xlsx_write makes it" in out.text
    out = call(ctx, "write_file", path="memo.docx", content="# Invoices\n\nTo the finance team:\nthe total is "
               "1635.75 EUR.\n\nRegards")
    assert out.error and ('call docx_create with {"path": "memo.docx", "blocks": [{"type": "heading", "text": '
                          '"Invoices"}, {"type": "paragraph", "text": "To the finance team: the total is 1635.75 '
                          'EUR."}, {"type": "paragraph", "text": "Regards"}]}.') in out.text
    # a held-out task at 1de0702: a Markdown table given to copy as one paragraph of "| ... |" text, and written so
    out = call(ctx, "write_file", path="memo.docx", content="Totals by department\n| Department | Total |\n"
               "| --- | --- |\nIT | 4050 |\nHR | 800 |\n\n- checked\n- approved\n\nIT: 4050\nHR: 800")
    assert out.error and ('call docx_create with {"path": "memo.docx", "blocks": [{"type": "paragraph", "text": '
                          '"Totals by department"}, {"type": "table", "rows": [["Department", "Total"], '
                          '["IT", "4050"], ["HR", "800"]]}, {"type": "bullets", "items": ["checked", "approved"]}, '
                          '{"type": "paragraph", "text": "IT: 4050"}, {"type": "paragraph", "text": "HR: 800"}]}.'
                          ) in out.text
    (root / "memo.docx").write_bytes(b"PK\x03\x04 document")  # an existing document: no call that makes a new one
    out = call(ctx, "write_file", path="memo.docx", content="The total is 1635.75 EUR.")
    assert out.error and "call docx_create" not in out.text
    assert not (root / "invoices.xlsx").exists() and (root / "memo.docx").read_bytes() == b"PK\x03\x04 document"


def test_write_file_leaves_out_a_chat_fence_around_a_whole_text_file(ctx: ToolContext) -> None:
    """A held-out task at 6ad68a4: "Summarise notes.md into three bullet points in summary.md" wrote summary.md as
    "```markdown\\n- ...\\n```": the whole file a code block, the fence a chat habit, not the user's text."""
    fenced = "```markdown\n- Hotel in Potsdam\n- Budget EUR 9,000\n```\n"
    shown = preview_diff(ctx.workspace, "write_file", {"path": "summary.md", "content": fenced})
    assert "+- Hotel in Potsdam" in shown and "```" not in shown  # the approval shows what is written
    r = call(ctx, "write_file", path="summary.md", content=fenced)
    assert not r.error and ctx.workspace.read_text("summary.md") == "- Hotel in Potsdam\n- Budget EUR 9,000\n"
    assert "the ``` fence around the whole text was left out" in r.text
    call(ctx, "write_file", path="todo.txt", content="```\nbuy milk\n```")
    assert ctx.workspace.read_text("todo.txt") == "buy milk\n"
    # a fence inside the text, one labelled with a language, or a file of code keeps its fences
    kept = {"readme.md": "# Use\n```bash\nmake\n```\n", "snippet.md": "```python\nprint(1)\n```\n",
            "main.py": "```\nx = 1\n```\n", "two.md": "```\na\n```\ntext\n```\nb\n```\n"}
    for path, content in kept.items():
        r = call(ctx, "write_file", path=path, content=content)
        assert not r.error and ctx.workspace.read_text(path) == content and "fence" not in r.text, path


def test_a_name_search_that_finds_nothing_offers_the_grep_for_its_word_and_no_example_name(ctx: ToolContext) -> None:
    """A held-out task at a864c41: after find_files "*.txt" found nothing, Qwen 1.5B searched for "*report*", the
    example of the note, and then "*refund*" (the word of a question about the letters' text)."""
    import json

    (Path(ctx.workspace.root) / "letters").mkdir()
    r = call(ctx, "find_files", pattern="*refund*", path="letters")
    assert "*report*" not in r.text
    grep = json.dumps({"pattern": "refund", "path": "letters", "ignore_case": True})
    assert f"To find the files whose text mentions 'refund', call grep with {grep}" in r.text, r.text
    r = call(ctx, "find_files", pattern="*.txt", path="letters")
    assert "*report*" not in r.text and "call grep" not in r.text


def test_edit_file_replaces_every_occurrence_when_asked(ctx: ToolContext) -> None:
    """A held-out task at a864c41: "Fix the typo recieve in readme.md." (twice in the file): an edit of the one word
    was refused as not unique, and the model never found another way; replace_all fixes every one."""
    root = Path(ctx.workspace.root)
    (root / "readme.md").write_text("You will recieve an email.\nAfter you recieve it, click.\n")
    r = call(ctx, "edit_file", path="readme.md", old_text="recieve", new_text="receive")
    assert r.error and "occurs 2 times" in r.text and "replace_all=true" in r.text
    shown = preview_diff(ctx.workspace, "edit_file", {"path": "readme.md", "old_text": "recieve",
                                                      "new_text": "receive", "replace_all": True})
    assert shown.count("+") >= 2 and "+After you receive it" in shown
    r = call(ctx, "edit_file", path="readme.md", old_text="recieve", new_text="receive", replace_all=True)
    assert not r.error and "2 occurrences" in r.text
    assert (root / "readme.md").read_text() == "You will receive an email.\nAfter you receive it, click.\n"


def test_rename_many_puts_a_prefix_before_names_and_keeps_to_the_prefix_the_user_asks(ctx: ToolContext) -> None:
    """A held-out task at 01015b4: "Rename every .txt file in the reports folder so that its name starts with
    2026_." sent find ".txt", replace "2026_" (refused: the extension lost), then find ".txt", replace "2026_.txt",
    as that refusal said: feb.txt became feb2026_.txt, and the task was answered done."""
    root = Path(ctx.workspace.root)
    (root / "reports").mkdir()
    for name in ("jan.txt", "feb.txt", "notes.md"):
        (root / "reports" / name).write_text(name)
    ctx.user_words = ["Rename every .txt file in the reports folder so that its name starts with 2026_."]
    for find, replace in ((".txt", "2026_"), (".txt", "2026_.txt")):
        out = call(ctx, "rename_many", folder="reports", find=find, replace=replace)
        assert out.error and "the task asks that the names start with '2026_'" in out.text, out.text
        assert 'call rename_many with {"folder": "reports", "prefix": "2026_", "pattern": "*.txt"}' in out.text
    assert sorted(p.name for p in (root / "reports").iterdir()) == ["feb.txt", "jan.txt", "notes.md"]
    # at a2a0843: find "\\.txt" (a regular expression) matched nothing, and the hint told it to move the files into
    # folders by type; it did, five times over (reports/txt/txt/...)
    out = call(ctx, "rename_many", folder="reports", find="\\.txt", replace="_2026")
    assert out.error and out.text.endswith("To put '2026_' before each name, as the task asks, call rename_many with "
                                           '{"folder": "reports", "prefix": "2026_", "pattern": "*.txt"}.'), out.text
    assert "call move" not in out.text
    # at 9a1aa10 the call to copy came back without its pattern, and reports/notes.md was renamed too: the one
    # type of file the user names is the pattern when none is given
    out = call(ctx, "rename_many", folder="reports", prefix="2026_")
    assert not out.error and "Only the .txt files, as the task asks (pattern '*.txt')." in out.text, out.text
    assert sorted(p.name for p in (root / "reports").iterdir()) == ["2026_feb.txt", "2026_jan.txt", "notes.md"]
    out = call(ctx, "rename_many", folder="reports", prefix="2026_", pattern="*.txt")  # done already: nothing to do
    assert out.error and "nothing was renamed" in out.text
    assert call(ctx, "rename_many", folder="reports").error  # neither find nor prefix
    # a rename the user asks for that gives the prefix is not refused
    ctx.user_words = ["Rename the files named like draft-a.md to 2026_a.md so the names start with 2026_"]
    (root / "draft-a.md").write_text("x")
    assert not call(ctx, "rename_many", find="draft-", replace="2026_").error
    assert (root / "2026_a.md").exists()
    # a prefix to pick files by is kept by the renames of such files
    from tools.files.writing import prefix_asked
    assert prefix_asked(["Rename the files whose names start with IMG_ so they end in .jpg"]) == "IMG_"
    assert prefix_asked(["Add the prefix old_ to every file in inbox."]) == "old_"
    assert prefix_asked(["Prefix each file in inbox with v2-."]) == "v2-"
    assert prefix_asked(["Delete the file names.txt."]) == ""
    from tools.files.writing import type_asked
    assert type_asked(["Rename all the PDF files in inbox"]) == ".pdf"
    assert type_asked(["Rename every .txt file and every .md file"]) == ""  # two types: no one pattern
    assert type_asked(["Rename the two files"]) == ""
    assert type_asked(["Sort all the files in inbox into folders"]) == ""


def test_edit_file_with_a_wildcard_edits_every_matching_file(ctx: ToolContext) -> None:
    """A held-out task at 5dcca13: "Replace Acme GmbH with Acme AG in every .txt file in this folder." sent edit_file
    with a wildcard path, was refused as no file, and ran out of steps. A wildcard now makes the same replacement in
    every matching file that holds the text (each occurrence), leaves the others and other kinds of file alone,
    shows the diffs in the approval preview, and can be undone from the journal."""
    root = Path(ctx.workspace.root)
    (root / "letter1.txt").write_text("Dear Acme GmbH,\nthanks.\n")
    (root / "letter2.txt").write_text("To: Acme GmbH\nAcme GmbH has paid.\n")
    (root / "other.txt").write_text("nothing here\n")
    (root / "readme.md").write_text("Acme GmbH is our client.\n")
    args = {"path": "*.txt", "old_text": "Acme GmbH", "new_text": "Acme AG"}
    shown = preview_diff(ctx.workspace, "edit_file", args)
    assert "+Dear Acme AG," in shown and "+Acme AG has paid." in shown and "readme" not in shown
    before = len(ctx.state["journal"])
    r = call(ctx, "edit_file", **args)
    assert not r.error, r.text
    assert r.text.startswith("edited 2 files matching '*.txt': letter1.txt (1), letter2.txt (2); notes.txt, "
                             "other.txt did "
                             "not hold it and were left as they were."), r.text
    assert (root / "letter1.txt").read_text() == "Dear Acme AG,\nthanks.\n"
    assert (root / "letter2.txt").read_text() == "To: Acme AG\nAcme AG has paid.\n"
    assert (root / "readme.md").read_text() == "Acme GmbH is our client.\n"
    assert (root / "other.txt").read_text() == "nothing here\n"
    assert len(ctx.state["journal"]) == before + 2  # one change record per file, for undo
    # nothing holds it now: an error, and nothing changed
    r = call(ctx, "edit_file", **args)
    assert r.error and "old_text was not found in any of letter1.txt, letter2.txt, notes.txt" in r.text
    r = call(ctx, "edit_file", path="*.csv", old_text="a", new_text="b")
    assert r.error and "matches '*.csv'" in r.text
