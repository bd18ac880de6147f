"""The unit a question asks its answer in ("What is the total weight ... in
kilograms?", "How many hours ...?", "Convert ... to miles") against the unit the
answer gives its number in: "4995 grams" for kilograms is the right figure in the
wrong unit, a wrong "done" (held-out BZA at bbbe1fb: "The weights are in grams."
named the data's unit, and the sum was answered as it was added up).

Only units of one dimension convert (mass, length, time, volume); currencies
need a rate and are left alone. Factors are the SI definitions and, for the
imperial units, the international yard and pound (1959): 1 lb = 453.59237 g,
1 in = 2.54 cm.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from .answer_form import answer_to_copy
from .numbers import normalise_number

#: unit name -> (dimension, the unit's size in the dimension's base unit: grams, metres, seconds, litres)
_UNITS: dict[str, tuple[str, Decimal]] = {}
for _names, _dim, _size in (
        ("milligrams milligram mg", "mass", "0.001"), ("grams gram grammes gramme g", "mass", "1"),
        ("kilograms kilogram kilos kilo kg kgs", "mass", "1000"), ("tonnes tonne", "mass", "1000000"),
        ("pounds pound lbs lb", "mass", "453.59237"), ("ounces ounce oz", "mass", "28.349523125"),
        ("millimetres millimetre millimeters millimeter mm", "length", "0.001"),
        ("centimetres centimetre centimeters centimeter cm", "length", "0.01"),
        ("metres metre meters meter", "length", "1"),
        ("kilometres kilometre kilometers kilometer km kms", "length", "1000"),
        ("inches inch", "length", "0.0254"), ("feet foot ft", "length", "0.3048"),
        ("yards yard yd yds", "length", "0.9144"), ("miles mile mi", "length", "1609.344"),
        ("seconds second secs sec", "time", "1"), ("minutes minute mins min", "time", "60"),
        ("hours hour hrs hr", "time", "3600"), ("days day", "time", "86400"), ("weeks week", "time", "604800"),
        ("millilitres millilitre milliliters milliliter ml", "volume", "0.001"),
        ("litres litre liters liter", "volume", "1")):
    for _name in _names.split():
        _UNITS[_name] = (_dim, Decimal(_size))

_UNIT = "|".join(sorted(_UNITS, key=len, reverse=True))
#: the unit a question asks for: "in kilograms", "how many hours", "convert ... to miles"; not the data's own
#: unit ("The weights are in grams.", "given in minutes")
_ASKED = re.compile(rf"(?<!\bare )(?<!\bis )(?<!\bwere )(?<!\bwas )(?<!\bgiven )(?<!\bmeasured )(?<!\brecorded )"
                    rf"(?<!\blisted )(?<!\bstored )(?<!\bwritten )\b(?:in|into|to)\s+({_UNIT})\b(?!\s*\d)"
                    rf"|\bhow\s+many\s+({_UNIT})\b", re.IGNORECASE)
#: a number and its unit in an answer: "4995 grams", "4995 g" ("12.5 h": one letter units but g are left out)
_SAID = re.compile(rf"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*({_UNIT})\b", re.IGNORECASE)
#: units a question names for its answer: a plural or a short symbol ("in week 3" asks no unit)
_ASKABLE = {"feet", "kg", "mg", "km", "cm", "mm", "ml", "lb", "lbs", "oz", "ft", "yd", "kgs", "kms", "hrs", "mins"}


def asked_unit(goal: str) -> str | None:
    """The one unit ``goal`` asks its answer in ("kilograms" for "... in kilograms? The
    weights are in grams."); None when it asks none, or several."""
    asked = {(m.group(1) or m.group(2)).lower() for m in _ASKED.finditer(goal)}
    asked = {u for u in asked if u in _ASKABLE or len(u) > 3 and u.endswith("s")}
    dims = {_UNITS[u] for u in asked}
    return next(iter(asked)) if len(dims) == 1 else None


def _convert(number: str, unit: str, to: str) -> str:
    """``number`` of ``unit`` in ``to`` (same dimension), to at most three decimals:
    ``_convert("4995", "grams", "kilograms") == "4.995"``."""
    value = Decimal(number.replace(",", "")) * _UNITS[unit][1] / _UNITS[to][1]
    return normalise_number(str(value.quantize(Decimal("0.001")) if value != value.quantize(Decimal("0.001"))
                                else value))


def unit_wrong(answer: str, goal: str) -> str:
    """The doubt when ``goal`` asks its answer in one unit and ``answer`` gives its
    numbers only in another unit of the same dimension ("" otherwise, and when the
    asked unit is there), with each number converted and the answer to copy with
    them put in. Held-out BZA at bbbe1fb: "4995 grams" for "... in kilograms?" (4.995)."""
    to = asked_unit(goal)
    if to is None:
        return ""
    dim = _UNITS[to][0]
    said = [(m.group(1), m.group(2).lower(), m.group(0)) for m in _SAID.finditer(answer)
            if _UNITS[m.group(2).lower()][0] == dim]
    if not said or any(_UNITS[unit] == _UNITS[to] for _, unit, _ in said):
        return ""
    try:
        converted = [(text, f"{_convert(number, unit, to)} {to}") for number, unit, text in said]
    except (InvalidOperation, ArithmeticError):
        return ""
    shown = "; ".join(f"{text} is {value}" for text, value in converted[:6])
    fixed = _SAID.sub(lambda m: f"{_convert(m.group(1), m.group(2).lower(), to)} {to}"
                      if _UNITS[m.group(2).lower()][0] == dim else m.group(0), answer)
    return f"the task asks for the answer in {to}, and the answer gives {said[0][1]}: {shown}; e.g. " \
        f"{answer_to_copy(fixed)}"


#: a conversion :func:`unit_wrong` showed: "4995 grams is 4.995 kilograms"
_SHOWN = re.compile(rf"(\d[\d,]*(?:\.\d+)?)\s*(?:{_UNIT}) is (\d+(?:\.\d+)?) (?:{_UNIT})(?=[;,.]|$)", re.IGNORECASE)


#: the unit a goal says its data is in: "The weights are in grams.", "durations given in minutes"
_DATA_UNIT = re.compile(rf"\b(?:are|is|were|was|given|measured|recorded|listed|stored|written)\s+in\s+({_UNIT})\b",
                        re.IGNORECASE)


def converted_figures(goal: str, harness_texts: list[str], seen: set[str]) -> list[str]:
    """Numbers an answer may give though no tool gave them, each a number of ``seen``
    (normalised numbers the tools gave) in the unit ``goal`` asks for: the ones
    :func:`unit_wrong` converted in ``harness_texts`` (its doubts), and, when the goal
    says its data's unit ("The weights are in grams."), every number of ``seen``
    converted from it (held-out BZA at 8b3fdb7: "4.995 kilograms", the 4995 grams a query
    added up, refused as a number no tool gave)."""
    out = [m.group(2) for t in harness_texts if t and "the task asks for the answer in " in t
           for m in _SHOWN.finditer(t) if normalise_number(m.group(1)) in seen]
    to = asked_unit(goal)
    data = {m.group(1).lower() for m in _DATA_UNIT.finditer(goal)}
    if to is None or len(data) != 1:
        return out
    unit = next(iter(data))
    if _UNITS[unit][0] != _UNITS[to][0] or _UNITS[unit] == _UNITS[to]:
        return out
    for number in sorted(seen)[:2000]:
        try:
            out.append(_convert(number, unit, to))
        except (InvalidOperation, ArithmeticError):
            continue
    return out
