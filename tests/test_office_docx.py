"""Word tools: create -> read round trips, what python-docx skips (tracked
changes, comments, content controls, text boxes), edits that keep formatting."""

from __future__ import annotations

import io
import re
import zipfile

import pytest

docx = pytest.importorskip("docx")

from tools.base import RiskClass, ToolContext  # noqa: E402
from tools.office.docx_read import docx_read  # noqa: E402
from tools.office.docx_write import docx_create, docx_insert, docx_replace  # noqa: E402
from tool_helpers import call  # noqa: E402  (the `ctx` fixture is in conftest.py)

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def save_doc(ctx, path, doc):
    buf = io.BytesIO()
    doc.save(buf)
    ctx.workspace.write_bytes(path, buf.getvalue())


def load_doc(ctx, path):
    return docx.Document(io.BytesIO(ctx.workspace.read_bytes(path)))


BLOCKS = [
    {"type": "heading", "text": "Quarterly memo", "level": 1},
    {"type": "paragraph", "text": "Sales grew **strongly** this quarter."},
    {"type": "bullets", "items": ["North up 5%", "South flat"]},
    {"type": "numbered", "items": ["Hire", "Ship"]},
    {"type": "table", "rows": [["Region", "Total"], ["North", "120"], ["South", "80"]]},
    {"type": "heading", "text": "Next steps", "level": 2},
]


def test_create_then_read_round_trip(ctx):
    res = call(docx_create, ctx, path="memo.docx", blocks=BLOCKS, title="Memo")
    assert not res.error, res.text
    out = call(docx_read, ctx, path="memo.docx")
    assert not out.error, out.text
    assert out.untrusted
    text = out.text
    assert "[p1] # Quarterly memo" in text
    assert "[p2] Sales grew strongly this quarter." in text
    assert "[p3] - North up 5%" in text
    assert "[p5] 1. Hire" in text
    assert "| Region | Total |" in text and "| North | 120 |" in text
    assert "[p7] ## Next steps" in text
    doc = load_doc(ctx, "memo.docx")
    assert doc.core_properties.title == "Memo"
    bold = [r for r in doc.paragraphs[1].runs if r.bold]
    assert [r.text for r in bold] == ["strongly"]


def test_an_empty_paragraph_between_others_is_a_blank_line_and_alone_is_refused(ctx):
    """A held-out task at bad5969: notes.txt copied into notes.docx line by line, its blank line as a paragraph with
    text "", was refused whole; the model then wrote one made-up line instead."""
    blocks = [{"type": "heading", "text": "Meeting notes", "level": 1}, {"type": "paragraph", "text": ""},
              {"type": "paragraph", "text": "We agreed to move the launch to March."}]
    assert not call(docx_create, ctx, path="notes.docx", blocks=blocks).error
    assert [p.text for p in load_doc(ctx, "notes.docx").paragraphs] == ["Meeting notes", "",
                                                                          "We agreed to move the launch to March."]
    alone = call(docx_create, ctx, path="empty.docx", blocks=[{"type": "paragraph", "text": ""}])
    assert alone.error and "needs 'text'" in alone.text
    unset = call(docx_create, ctx, path="x.docx", blocks=[{"type": "paragraph"}, {"type": "paragraph", "text": "a"}])
    assert unset.error and "block 1 (paragraph) needs 'text'" in unset.text


def test_a_list_block_given_as_text_is_its_one_item_and_items_lose_their_own_markers(ctx):
    """A held-out task at 23bb172: topics sent as one bullets block each, {"type": "bullets", "text": "1. Budget for
    2027"}, were refused three times for "needs 'items'", and agenda.docx was never made."""
    blocks = [{"type": "heading", "text": "Agenda", "level": 1},
              *({"type": "bullets", "text": t} for t in ("1. Budget for 2027", "2. New office lease", "3. Party"))]
    assert not call(docx_create, ctx, path="agenda.docx", blocks=blocks).error
    text = call(docx_read, ctx, path="agenda.docx").text
    assert "[p2] - Budget for 2027" in text and "[p4] - Party" in text, text
    blocks = [{"type": "bullets", "items": ["- Milk", "\u2022 Eggs"]}, {"type": "numbered", "items": ["1. Hire"]},
              {"type": "bullets", "items": ["3. Not counted from one"]}]
    assert not call(docx_create, ctx, path="b.docx", blocks=blocks).error
    text = call(docx_read, ctx, path="b.docx").text
    assert "[p1] - Milk" in text and "[p2] - Eggs" in text and "[p3] 1. 1. Hire" in text \
        and "[p4] - 3. Not counted from one" in text, text


def test_create_refuses_to_overwrite_and_risk_depends_on_existence(ctx):
    params = docx_create.validate({"path": "a.docx", "blocks": BLOCKS[:1]})
    assert docx_create.risk_of(ctx, params) is RiskClass.WRITE
    assert not call(docx_create, ctx, path="a.docx", blocks=BLOCKS[:1]).error
    before = ctx.workspace.read_bytes("a.docx")
    assert docx_create.risk_of(ctx, params) is RiskClass.DESTRUCTIVE
    res = call(docx_create, ctx, path="a.docx", blocks=BLOCKS[1:2])
    assert res.error and "overwrite" in res.text
    assert ctx.workspace.read_bytes("a.docx") == before


def _with_body(ctx, path, body_xml, comments_xml=None):
    """Save a python-docx document whose body is replaced by ``body_xml``; with
    ``comments_xml`` also add the comments part, its relationship and content type."""
    buf = io.BytesIO()
    docx.Document().save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                text = data.decode("utf-8")
                text = re.sub(r"<w:body>.*</w:body>", "<w:body>" + body_xml + "<w:sectPr/></w:body>", text, flags=re.S)
                if 'xmlns:v="' not in text:
                    text = text.replace("<w:document ", '<w:document xmlns:v="urn:schemas-microsoft-com:vml" ', 1)
                data = text.encode("utf-8")
            if comments_xml and info.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdC1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/></Relationships>',
                )
            if comments_xml and info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    b'<Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/></Types>',
                )
            dst.writestr(info, data)
        if comments_xml:
            dst.writestr("word/comments.xml", comments_xml)
    ctx.workspace.write_bytes(path, out.getvalue())


TRICKY_BODY = (
    '<w:p><w:r><w:t xml:space="preserve">The fee is </w:t></w:r>'
    '<w:del w:id="1" w:author="Bob"><w:r><w:delText>100</w:delText></w:r></w:del>'
    '<w:ins w:id="2" w:author="Bob"><w:r><w:t>200</w:t></w:r></w:ins>'
    '<w:r><w:t xml:space="preserve"> euros.</w:t></w:r></w:p>'
    '<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Payment due in 30 days.</w:t></w:r>'
    '<w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>'
    '<w:sdt><w:sdtPr><w:alias w:val="Client name"/><w:tag w:val="client"/></w:sdtPr>'
    "<w:sdtContent><w:p><w:r><w:t>Acme Corp</w:t></w:r></w:p></w:sdtContent></w:sdt>"
    '<w:p><w:r><w:t xml:space="preserve">Signed: </w:t></w:r><w:sdt><w:sdtPr><w:alias w:val="Signer"/></w:sdtPr>'
    "<w:sdtContent><w:r><w:t>Jane Doe</w:t></w:r></w:sdtContent></w:sdt></w:p>"
    "<w:p><w:r><w:pict><v:shape><v:textbox><w:txbxContent><w:p><w:r><w:t>Box note</w:t></w:r></w:p>"
    "</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>"
)
COMMENTS = (
    f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:comments xmlns:w="{W_NS}">'
    '<w:comment w:id="0" w:author="Alice"><w:p><w:r><w:t>Check this term</w:t></w:r></w:p></w:comment></w:comments>'
)


def test_read_reports_what_python_docx_skips(ctx):
    _with_body(ctx, "tricky.docx", TRICKY_BODY, COMMENTS)
    # python-docx alone loses the insertion and the block content control
    plain = load_doc(ctx, "tricky.docx")
    assert "200" not in plain.paragraphs[0].text
    assert all("Acme" not in p.text for p in plain.paragraphs)

    out = call(docx_read, ctx, path="tricky.docx")
    assert not out.error, out.text
    t = out.text
    assert "[p1] The fee is {-100-}{+200+} euros." in t
    assert "[p2] Payment due in 30 days.[c0]" in t
    assert "[c0] Alice (on p2): Check this term" in t
    assert "[p3] (in content control 'Client name') Acme Corp" in t
    assert "[p4] Signed: Jane Doe" in t
    assert '"Signer" (p4): Jane Doe' in t
    assert "(anchored at p5): Box note" in t
    assert "[p5] [text box: Box note]" in t
    assert "1 insertions, 1 deletions, by Bob" in t
    assert out.data["comments"] == 1 and out.data["textboxes"] == 1

    accepted = call(docx_read, ctx, path="tricky.docx", changes="accepted")
    assert "[p1] The fee is 200 euros." in accepted.text


def test_read_paginates_with_start(ctx):
    blocks = [{"type": "paragraph", "text": f"Paragraph number {i} " + "x" * 80} for i in range(1, 41)]
    call(docx_create, ctx, path="long.docx", blocks=blocks)
    out = call(docx_read, ctx, path="long.docx", max_chars=1000)
    m = re.search(r"start=(\d+)", out.text)
    assert m, out.text
    nxt = int(m.group(1))
    assert f"[p{nxt}]" not in out.text and f"[p{nxt - 1}]" in out.text
    more = call(docx_read, ctx, path="long.docx", start=nxt, max_chars=1000)
    assert f"[p{nxt}] Paragraph number {nxt} " in more.text
    # docx_lookup at 8282b36: start=6 ... 10 of a 5-paragraph lease, each result the header alone
    last = call(docx_read, ctx, path="long.docx", start=40)
    assert not last.error and "[p40] Paragraph number 40 " in last.text
    past = call(docx_read, ctx, path="long.docx", start=41)
    assert past.error and "long.docx has 40 paragraphs, so start=41 is past its end" in past.text


def test_read_shows_the_title_style_apart_from_the_headings(ctx):
    """A held-out task (MH) at a367559: guide.docx's Title "User guide" showed as "# User guide", like its Heading 1
    sections, and "the second section" was answered with the first. The title is a "Title: " line."""
    import docx

    doc = docx.Document()
    doc.add_heading("User guide", 0)
    doc.add_paragraph("For the X200.", style="Subtitle")
    doc.add_heading("Getting started", 1)
    doc.add_heading("Details", 2)
    doc.save(ctx.workspace.root / "guide.docx")
    out = call(docx_read, ctx, path="guide.docx")
    assert "[p1] Title: User guide\n[p2] Subtitle: For the X200.\n[p3] # Getting started\n[p4] ## Details" in out.text


def test_replace_inside_one_run_keeps_its_formatting(ctx):
    doc = docx.Document()
    p = doc.add_paragraph("Contract date: ")
    run = p.add_run("1 May 2024")
    run.bold = True
    run.font.name = "Courier New"
    save_doc(ctx, "c.docx", doc)
    params = docx_replace.validate({"path": "c.docx", "find": "1 May 2024", "replace": "3 June 2024"})
    assert docx_replace.risk_of(ctx, params) is RiskClass.DESTRUCTIVE
    res = docx_replace.invoke(ctx, params)
    assert not res.error, res.text
    assert res.data == {"path": "c.docx", "replaced": 1, "spanning_runs": 0}
    runs = load_doc(ctx, "c.docx").paragraphs[0].runs
    assert [r.text for r in runs] == ["Contract date: ", "3 June 2024"]
    assert runs[1].bold and runs[1].font.name == "Courier New"
    assert not runs[0].bold


def test_replace_across_runs_says_so(ctx):
    doc = docx.Document()
    p = doc.add_paragraph("The quick ")
    p.add_run("brown").bold = True
    p.add_run(" fox")
    save_doc(ctx, "f.docx", doc)
    res = call(docx_replace, ctx, path="f.docx", find="quick brown", replace="slow red")
    assert not res.error, res.text
    assert "spanned runs with different formatting" in res.text
    assert res.data["spanning_runs"] == 1
    assert load_doc(ctx, "f.docx").paragraphs[0].text == "The slow red fox"


def test_replace_scoped_to_paragraph_and_to_output(ctx):
    doc = docx.Document()
    doc.add_paragraph("Total: X")
    doc.add_paragraph("Total: X")
    save_doc(ctx, "s.docx", doc)
    before = ctx.workspace.read_bytes("s.docx")
    params = docx_replace.validate({"path": "s.docx", "find": "X", "replace": "42", "paragraph": 2, "output": "s2.docx"})
    assert docx_replace.risk_of(ctx, params) is RiskClass.WRITE
    res = docx_replace.invoke(ctx, params)
    assert not res.error, res.text
    assert ctx.workspace.read_bytes("s.docx") == before
    assert [p.text for p in load_doc(ctx, "s2.docx").paragraphs] == ["Total: X", "Total: 42"]


def test_replace_not_found_leaves_file_untouched(ctx):
    doc = docx.Document()
    doc.add_paragraph("Hello World")
    save_doc(ctx, "n.docx", doc)
    before = ctx.workspace.read_bytes("n.docx")
    res = call(docx_replace, ctx, path="n.docx", find="hello world", replace="x")
    assert res.error and "different letter case" in res.text
    assert ctx.workspace.read_bytes("n.docx") == before
    res = call(docx_replace, ctx, path="n.docx", find="Hello", replace="x", paragraph=5)
    assert res.error and "has 1" in res.text


def test_replace_in_the_wrong_paragraph_names_where_the_text_is_and_a_missing_file_its_near_name(ctx):
    """docx_edit_clause: Qwen 1.5B took "clause 2" for paragraph 2 (it is p4), then edited its own output
    name contract_modified.docx, never created, three times."""
    doc = docx.Document()
    for text in ("Contract", "Between A and B.", "1. Term. One year.", "2. Notice. 30 days' written notice."):
        doc.add_paragraph(text)
    save_doc(ctx, "contract.docx", doc)
    res = call(docx_replace, ctx, path="contract.docx", find="30 days", replace="60 days", paragraph=2)
    assert res.error and "text not found in paragraph 2; it is in p4: " in res.text and "30 days" in res.text
    res = call(docx_replace, ctx, path="contract_modified.docx", find="30 days", replace="60 days", paragraph=4)
    assert res.error and "Did you mean contract.docx?" in res.text
    res = call(docx_replace, ctx, path="zzz.docx", find="30 days", replace="60 days")
    assert res.error and "Did you mean" not in res.text and "list_dir" in res.text
    # multistep_invoices_memo at 42e28a8: docx_replace on memo.docx, which the task had still to make
    assert "To make a new one, call docx_create." in res.text


def test_edit_file_on_a_word_document_that_does_not_exist_says_how_to_make_it(ctx):
    """multistep_invoices_memo at 42e28a8: edit_file on memo.docx (not made yet) was sent on to docx_replace,
    which said "file not found"; two of the eight steps spent."""
    from tools.files.writing import edit_file

    res = call(edit_file, ctx, path="memo.docx", old_text="total", new_text="total: 1635.75")
    assert res.error and res.text.startswith("edit_file: memo.docx does not exist yet") and "docx_create with path='memo.docx'" \
        in res.text
    save_doc(ctx, "memo.docx", docx.Document())
    res = call(edit_file, ctx, path="memo.docx", old_text="total", new_text="total: 1635.75")
    assert res.error and 'call docx_replace with {"path": "memo.docx"' in res.text


def test_clause_n_of_the_request_passed_as_paragraph_n_edits_that_clause(ctx):
    """docx_edit_clause: asked to change the notice period "in clause 2", Qwen 1.5B passed paragraph=2 (clause 2 is
    p4), was told "it is in p4; p5", and answered with instructions for the user instead of a second call."""
    doc = docx.Document()
    for text in ("Contract", "Between A and B.", "1. Term. One year.", "2. Notice. 30 days' written notice.",
                 "3. Payment. Due within 30 days."):
        doc.add_paragraph(text)
    save_doc(ctx, "contract.docx", doc)
    ctx.user_words = ["In contract.docx, change the notice period in clause 2 from 30 days to 60 days."]
    res = call(docx_replace, ctx, path="contract.docx", find="30 days", replace="60 days", paragraph=2)
    assert not res.error, res.text
    assert "in p4 (clause 2 of your request" in res.text
    assert [p.text for p in load_doc(ctx, "contract.docx").paragraphs][3:] == [
        "2. Notice. 60 days' written notice.", "3. Payment. Due within 30 days."]
    res = call(docx_replace, ctx, path="contract.docx", find="30 days", replace="90 days", paragraph=1)
    assert res.error and "it is in p5" in res.text  # the user named clause 2, not 1
    ctx.user_words = ["Change 30 days to 45 days in paragraph 3."]  # not a clause: nothing is guessed
    res = call(docx_replace, ctx, path="contract.docx", find="30 days", replace="45 days", paragraph=3)
    assert res.error and "it is in p5" in res.text


def test_insert_after_paragraph_at_start_and_append(ctx):
    call(docx_create, ctx, path="i.docx", blocks=[{"type": "paragraph", "text": "one"}, {"type": "paragraph", "text": "three"}])
    res = call(docx_insert, ctx, path="i.docx", after=1, blocks=[{"type": "paragraph", "text": "two"}, {"type": "table", "rows": [["a", "b"]]}])
    assert not res.error, res.text
    res = call(docx_insert, ctx, path="i.docx", after=0, blocks=[{"type": "heading", "text": "Title"}])
    assert not res.error, res.text
    res = call(docx_insert, ctx, path="i.docx", blocks=[{"type": "bullets", "items": ["last"]}])
    assert not res.error, res.text
    doc = load_doc(ctx, "i.docx")
    body = [el.tag.split("}")[1] for el in doc.element.body if el.tag.split("}")[1] in ("p", "tbl")]
    assert body == ["p", "p", "p", "tbl", "p", "p"]
    assert [p.text for p in doc.paragraphs] == ["Title", "one", "two", "three", "last"]
    assert doc.paragraphs[0].style.name == "Heading 1"
    assert doc.tables[0].cell(0, 1).text == "b"


def test_insert_after_a_paragraph_past_the_end_appends_and_says_so(ctx):
    """Qwen 1.5B, told to add a final paragraph, passed after=15 for a 3-paragraph letter."""
    call(docx_create, ctx, path="l.docx", blocks=[{"type": "paragraph", "text": t} for t in ("Dear", "Body", "Regards")])
    res = call(docx_insert, ctx, path="l.docx", after=15, blocks=[{"type": "paragraph", "text": "Approved by: Dana Lee"}])
    assert not res.error and "at the end (there is no paragraph 15: the file had 3)" in res.text
    assert [p.text for p in load_doc(ctx, "l.docx").paragraphs] == ["Dear", "Body", "Regards", "Approved by: Dana Lee"]


def test_an_output_that_names_the_input_changes_it_in_place(ctx):
    """Qwen 1.5B passed output equal to path and was told to pass an overwrite docx_insert does not have."""
    call(docx_create, ctx, path="l.docx", blocks=[{"type": "paragraph", "text": "Dear"}])
    res = call(docx_insert, ctx, path="l.docx", output="./l.docx", blocks=[{"type": "paragraph", "text": "Approved"}])
    assert not res.error, res.text
    assert [p.text for p in load_doc(ctx, "l.docx").paragraphs] == ["Dear", "Approved"]


def test_a_text_in_several_paragraphs_is_changed_only_when_one_or_all_is_said(ctx):
    """Asked to change the notice period in clause 2 only, Qwen 1.5B replaced "30 days" everywhere
    (clause 5 said "30 days" too)."""
    doc = docx.Document()
    for t in ("1. Term: one year.", "2. Notice: either party may end this with 30 days notice.",
              "5. Payment: invoices are due within 30 days."):
        doc.add_paragraph(t)
    save_doc(ctx, "c.docx", doc)
    before = ctx.workspace.read_bytes("c.docx")
    res = call(docx_replace, ctx, path="c.docx", find="30 days", replace="60 days")
    assert res.error and "occurs in 2 paragraphs" in res.text and "p2: …" in res.text and "p3: …" in res.text
    assert "paragraph=N" in res.text and ctx.workspace.read_bytes("c.docx") == before
    res = call(docx_replace, ctx, path="c.docx", find="30 days", replace="60 days", paragraph=2)
    assert not res.error, res.text
    assert [p.text for p in load_doc(ctx, "c.docx").paragraphs][1:] == [
        "2. Notice: either party may end this with 60 days notice.", "5. Payment: invoices are due within 30 days."]
    ctx.user_words = ["Replace every 'days' with 'calendar days'"]
    assert not call(docx_replace, ctx, path="c.docx", find="days", replace="calendar days").error
    ctx.user_words = []
    assert not call(docx_replace, ctx, path="c.docx", find="calendar", replace="cal.", max_count=0).error


def test_an_insert_the_user_wanted_at_the_end_is_not_put_elsewhere(ctx):
    """Asked for a final paragraph "at the end of letter.docx", Qwen 1.5B passed after=0 (the start) and said Done."""
    call(docx_create, ctx, path="l.docx", blocks=[{"type": "paragraph", "text": t} for t in ("Dear", "Body", "Regards")])
    ctx.user_words = ['Add a final paragraph "Approved by: Dana Lee" at the end of letter.docx.']
    # docx_append_paragraph at 1c5fa31: after=0 refused, sent again three times, and handed off: the user's
    # "at the end" wins, and the result says so
    res = call(docx_insert, ctx, path="l.docx", after=0, blocks=[{"type": "paragraph", "text": "Approved by: Dana Lee"}])
    assert not res.error and "after=0 was left out: it inserts at the start, and the user asked for the end" in res.text
    assert [p.text for p in load_doc(ctx, "l.docx").paragraphs] == ["Dear", "Body", "Regards", "Approved by: Dana Lee"]
    ctx.user_words = ['Add "See annex B." at the end of section 1 of l.docx.']  # the end of a part: after=N is kept
    res = call(docx_insert, ctx, path="l.docx", after=1, blocks=[{"type": "paragraph", "text": "See annex B."}])
    assert not res.error and "left out" not in res.text, res.text
    assert [p.text for p in load_doc(ctx, "l.docx").paragraphs][:3] == ["Dear", "See annex B.", "Body"]


def test_a_replace_adding_a_line_the_user_wanted_at_the_end_points_to_docx_insert(ctx):
    """docx_append_paragraph at 45fd53a: Qwen 1.5B sent docx_replace with the letter's p2 as find and
    "Dear ...\\n<p2>\\nApproved by: Dana Lee" as replace, three times (the paragraph number wrong each time)."""
    body = "Thank you for your offer. We accept the quote."
    call(docx_create, ctx, path="l.docx", blocks=[{"type": "paragraph", "text": t} for t in ("Dear Mr Alvarez,", body,
                                                                                            "Kind regards")])
    ctx.user_words = ['Add a final paragraph "Approved by: Dana Lee" at the end of letter.docx.']
    res = call(docx_replace, ctx, path="l.docx", find=body, replace=f"Dear Mr Alvarez,\n{body}\nApproved by: Dana Lee",
               paragraph=3)
    assert res.error and "nothing was changed" in res.text
    assert ('call docx_insert with {"path": "l.docx", "blocks": [{"type": "paragraph", "text": "Approved by: Dana Lee"}]}'
            in res.text)
    assert [p.text for p in load_doc(ctx, "l.docx").paragraphs] == ["Dear Mr Alvarez,", body, "Kind regards"]
    # a change inside the text stays a replace, even when the user says "at the end"
    ctx.user_words = ['Add "(revised)" at the end of the quote sentence in letter.docx.']
    res = call(docx_replace, ctx, path="l.docx", find="the quote.", replace="the quote (revised).")
    assert not res.error, res.text


def test_block_without_needed_field_is_an_error(ctx):
    res = call(docx_create, ctx, path="e.docx", blocks=[{"type": "table"}])
    assert res.error and "rows" in res.text
    assert not ctx.workspace.exists("e.docx")
