"""Starting state: an e-mail invitation saved as text."""

from pathlib import Path

INVITE = """From: Priya Nair
Subject: Budget review

Hi! Let's do the budget review on Thursday 2026-12-10 from 10:00 to 11:30 in Room 4B.
Please bring the November figures.
Priya
"""


def setup(workspace: Path) -> None:
    (workspace / "invite.txt").write_text(INVITE)
