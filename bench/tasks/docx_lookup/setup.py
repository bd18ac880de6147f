"""Starting state: a lease with the rent, a deposit and a parking fee."""

from pathlib import Path

from _kit import make_docx

BLOCKS = [
    ("h1", "Residential Lease"),
    ("p", "Landlord: Karl Weber. Tenant: Amira Haddad. Property: Flat 3, 18 Linden Street."),
    ("p", "The tenant pays a security deposit of EUR 2,900 before moving in."),
    ("p", "The monthly rent is EUR 1,450, due on the first working day of each month."),
    ("p", "A parking space can be rented for EUR 60 per month."),
]


def setup(workspace: Path) -> None:
    make_docx(workspace / "lease.docx", BLOCKS)
