"""Starting state: meeting minutes with three action items among discussion points."""

from pathlib import Path

from _kit import make_docx

BLOCKS = [
    ("h1", "Garden club meeting, 2 December 2026"),
    ("p", "Present: Ana, Bruno, Chen, Dora."),
    ("p", "We discussed the spring planting plan and the state of the tool shed."),
    ("bullet", "Action: Ana will order the seed catalogue."),
    ("p", "The shed roof leaks; a repair quote is needed."),
    ("bullet", "Action: Bruno will get a quote for the shed roof."),
    ("p", "Membership fees stay the same next year."),
    ("bullet", "Action: Chen will update the member list."),
]


def setup(workspace: Path) -> None:
    make_docx(workspace / "minutes.docx", BLOCKS)
