"""Starting state: a one-page project status report."""

from pathlib import Path

from _kit import make_docx

BLOCKS = [
    ("h1", "Project Falcon - Status Report"),
    ("p", "Project Falcon replaces the old booking system of the community centre with a web application "
          "that members can use from their phones. The team is led by Maria Chen."),
    ("h2", "Budget"),
    ("p", "The approved budget is EUR 48,000, of which EUR 19,500 has been spent so far on design and the "
          "first development sprint. No increase is expected."),
    ("h2", "Schedule"),
    ("p", "The launch deadline is 30 June 2027. Testing with volunteers starts in May. The schedule is "
          "on track as of this report."),
    ("h2", "Risks"),
    ("p", "The main risk is a supplier delay: the payment provider has not yet confirmed the contract, and "
          "without it online payments cannot be tested. A fallback of invoices by email is prepared."),
    ("p", "Minor risks are volunteer availability during the summer and the migration of old member data."),
    ("h2", "Next steps"),
    ("p", "Sign the payment provider contract, finish sprint two, and plan the volunteer test sessions."),
]


def setup(workspace: Path) -> None:
    make_docx(workspace / "report.docx", BLOCKS)
