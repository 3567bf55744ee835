"""docs/rules.md, the project's rules reference: everything cited from it must be in it.

The code, the tests and the documents cite the reference in three ways: a
section by its anchor (``docs/rules.md §excess-trumps``, or a link
``rules.md#excess-trumps``), a note by its id (``note K19``, ``notes C2, N5``,
``[default J4]``) and an example by its number (``edge case 99``, and every
test named ``test_edge_case_NN_...``). These tests collect every such
citation in the project and fail when docs/rules.md has no section, note or
edge case to answer it. The project stands alone: no file may point at a rules
file outside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from pedro.variants.catalog import VARIANTS
from pedro.variants.options import OPTIONS

THIS_FILE = Path(__file__).resolve()
ROOT = THIS_FILE.parents[1]
RULES_DOC = ROOT / "docs" / "rules.md"

#: Where citations are looked for: these folders (recursively) and files of the project.
SCANNED_DIRS = ("src", "tests", "docs", "benchmarks", "examples")
SCANNED_FILES = ("README.md", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".txt", ".toml", ".html", ".js", ".css", ".json", ".ini", ".cfg", ".sh"}

#: ``§anchor``: a section of docs/rules.md by its GitHub anchor.
SECTION = re.compile(r"§([A-Za-z][\w-]*)")
#: ``rules.md#anchor``: a link to a section.
LINK = re.compile(r"rules\.md#([\w-]+)")
#: ``note K19``, ``notes C2, N5, T5``, ``notes K11/K19``, ``note J6 / K19``.
_ID = r"[A-Z]\d{1,2}"
NOTE_LIST = re.compile(rf"(?i:\bnotes?)\s+({_ID}(?:\s*(?:,|/|\band\b|\bor\b)\s*{_ID})*)\b")
#: ``[K19]``, ``[default J4]``.
NOTE_BRACKET = re.compile(rf"\[(?:default )?({_ID})\]")
NOTE_ID = re.compile(_ID)
#: ``edge case 99``, ``edge cases 23``, and tests named ``test_edge_case_07_...``.
EDGE_CASE = re.compile(r"(?i:\bedge cases? )(\d+)|\btest_edge_case_0*(\d+)")


# ---------------------------------------------------------------- reading docs/rules.md


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def headings(markdown: str) -> list[str]:
    """The text of every heading, outside fenced code blocks."""
    out = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        match = re.match(r"#{1,6} (.+)", line)
        if match and not fenced:
            out.append(match.group(1).strip())
    return out


def anchors(markdown: str) -> set[str]:
    """Every heading anchor, numbered ``-1``, ``-2`` ... when a heading repeats, as GitHub does."""
    seen: dict[str, int] = {}
    out = set()
    for heading in headings(markdown):
        anchor = github_anchor(heading)
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        out.add(anchor if count == 0 else f"{anchor}-{count}")
    return out


def note_ids(markdown: str) -> set[str]:
    """Ids of the notes: each has a heading that starts with its id (``#### K19: ...``)."""
    return {m.group(0) for h in headings(markdown) if (m := re.match(_ID + r"\b", h))}


def edge_case_numbers(markdown: str) -> list[int]:
    """The numbers of the items of the Edge cases section, in order."""
    section = markdown.split("\n## Edge cases\n", 1)[1].split("\n## ", 1)[0]
    return [int(m.group(1)) for m in re.finditer(r"^(\d+)\. ", section, re.MULTILINE)]


# ---------------------------------------------------------------- citations


def project_files() -> list[Path]:
    """The project's text files that may cite the reference."""
    files = [ROOT / name for name in SCANNED_FILES]
    for folder in SCANNED_DIRS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and path.suffix in TEXT_SUFFIXES and "__pycache__" not in path.parts:
                files.append(path)
    return files


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def cited_sections(text: str) -> set[str]:
    return set(SECTION.findall(text)) | set(LINK.findall(text))


def cited_notes(text: str) -> set[str]:
    ids = {i for group in NOTE_LIST.findall(text) for i in NOTE_ID.findall(group)}
    return ids | set(NOTE_BRACKET.findall(text))


def cited_edge_cases(text: str) -> set[int]:
    return {int(a or b) for a, b in EDGE_CASE.findall(text)}


def missing_citations(texts: Iterable[tuple[str, str]], doc: str) -> list[str]:
    """Every citation in ``(name, text)`` pairs that ``doc`` does not answer, as ``name: what``."""
    sections, notes, cases = anchors(doc), note_ids(doc), set(edge_case_numbers(doc))
    missing = []
    for name, text in texts:
        missing += [f"{name}: §{s}" for s in sorted(cited_sections(text) - sections)]
        missing += [f"{name}: note {n}" for n in sorted(cited_notes(text) - notes)]
        missing += [f"{name}: edge case {c}" for c in sorted(cited_edge_cases(text) - cases)]
    return missing


@pytest.fixture(scope="module")
def doc() -> str:
    return read(RULES_DOC)


@pytest.fixture(scope="module")
def all_texts() -> list[tuple[str, str]]:
    return [(str(path.relative_to(ROOT)), read(path)) for path in project_files()]


@pytest.fixture(scope="module")
def texts(all_texts: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The project's texts but this file, whose examples of broken citations are meant to be broken."""
    return [(name, text) for name, text in all_texts if ROOT / name != THIS_FILE]


# ---------------------------------------------------------------- the tests


def test_every_citation_is_answered_by_the_reference(doc: str, texts: list[tuple[str, str]]) -> None:
    missing = missing_citations(texts, doc)
    assert not missing, "cited but not in docs/rules.md:\n" + "\n".join(missing)


def test_the_citations_are_found(texts: list[tuple[str, str]]) -> None:
    """The collectors see the citations the code is known to make (a scan that finds nothing passes)."""
    everything = "\n".join(text for _, text in texts)
    assert {"excess-trumps", "house-rules", "auction", "stock-shortage"} <= cited_sections(everything)
    assert {"K19", "E9", "J6", "C5", "G3", "J4", "R11"} <= cited_notes(everything)
    assert {1, 23, 57, 99, 101} <= cited_edge_cases(everything)


def test_a_broken_citation_is_reported(doc: str) -> None:
    broken = [
        ("a.py", "see docs/rules.md §no-such-section and [rules](rules.md#nor-this)"),
        ("b.py", "the reading of note K99 (notes K19, Q7 / E9) and [default Z1]"),
        ("c.py", "docs/rules.md, edge case 102; def test_edge_case_0_nothing(): ..."),
        ("d.py", "docs/rules.md §excess-trumps, note K19, edge case 99, test_edge_case_07_x"),
    ]
    assert missing_citations(broken, doc) == [
        "a.py: §no-such-section",
        "a.py: §nor-this",
        "b.py: note K99",
        "b.py: note Q7",
        "b.py: note Z1",
        "c.py: edge case 0",
        "c.py: edge case 102",
    ]


def test_edge_cases_are_numbered_one_to_one_hundred_and_one(doc: str) -> None:
    assert edge_case_numbers(doc) == list(range(1, 102))


def test_every_variant_has_a_section(doc: str) -> None:
    assert set(VARIANTS) <= anchors(doc)


def test_every_option_is_described_with_its_reference(doc: str) -> None:
    house_rules = doc.split("\n## House rules\n", 1)[1].split("\n## ", 1)[0]
    for name, spec in OPTIONS.items():
        assert f"`{name}`" in house_rules, f"option {name} is missing from docs/rules.md §house-rules"
        assert spec.reference.startswith("docs/rules.md §"), f"option {name}: {spec.reference!r}"
        assert not missing_citations([(name, spec.reference)], doc)


def test_the_note_ids_are_unique(doc: str) -> None:
    ids = [m.group(0) for h in headings(doc) if (m := re.match(_ID + r"\b", h))]
    assert len(ids) == len(set(ids))


def test_no_file_points_outside_the_project(all_texts: list[tuple[str, str]]) -> None:
    """Nothing may read, name or cite a rules file kept outside the project."""
    outside = ("RULES" + ".md", "shared" + "/")
    found = [f"{name}: {word}" for name, text in all_texts for word in outside if word in text]
    assert not found, "the project must stand alone:\n" + "\n".join(found)
