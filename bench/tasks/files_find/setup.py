"""Starting state: a dozen text files in nested folders; one is about the passport."""

from pathlib import Path

FILES = {
    "archive/2023/taxes.txt": "Tax return filed on 2023-04-30.",
    "archive/2023/car.txt": "Car service booked, oil change and tyres.",
    "archive/2024/misc/appt-0412.txt": "Passport renewal appointment at the city office, 12 April, 9:40. Bring two photos.",
    "archive/2024/misc/recipes.txt": "Lentil soup: lentils, carrots, cumin.",
    "archive/2024/travel.txt": "Flights to Lisbon: check baggage allowance.",
    "home/insurance.txt": "Home insurance renewal due in May.",
    "home/garden.txt": "Plant tomatoes after the last frost.",
    "work/ideas.txt": "Ideas for the team offsite.",
    "work/contacts.txt": "Dana - finance; Leo - IT support.",
    "readme.txt": "Personal archive.",
}


def setup(workspace: Path) -> None:
    for rel, text in FILES.items():
        p = workspace / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text + "\n")
