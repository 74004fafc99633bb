#!/usr/bin/env python3
"""The summary of scripts/test.sh: per step its seconds, status and JUnit counts, then the
checks that every selected step ran and wrote its reports and that the README's "Tests"
table names exactly the declared steps; the last line is "N passed, N failed".

    test_summary.py REPORTSDIR README SECONDS NAME|REPORTS|STATUS|SECONDS...

STATUS is "passed", "failed" (the step's command exited non-zero) or "not selected"
(left out by --only). Exit status 1 on any failure.
"""
import fnmatch
import pathlib
import re
import sys
import xml.etree.ElementTree as ET


def readme_steps(readme):
    """The step names in the first column of the table in README's "## Tests" section."""
    text = pathlib.Path(readme).read_text(encoding="utf-8")
    section = re.search(r"^## Tests\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    if not section:
        return []
    return re.findall(r"^\| `([^`]+)` \|", section.group(1), re.M)


def counts(xml):
    passed = failed = skipped = 0
    for case in ET.parse(xml).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            failed += 1
        elif case.find("skipped") is not None:
            skipped += 1
        else:
            passed += 1
    return passed, failed, skipped


def main(reports, readme, seconds, rows):
    reports = pathlib.Path(reports)
    stems = sorted(x.stem for x in reports.glob("*.xml"))
    steps = [row.split("|") for row in rows]
    total_p = total_f = total_s = 0
    problems = []
    claimed = set()
    for name, patterns, status, secs in steps:
        print(f"{int(secs):5d} s  {name}: {status}")
        if status == "not selected":
            continue
        step_failures = 0
        for pattern in patterns.split():
            matched = [s for s in stems if fnmatch.fnmatchcase(s, pattern)]
            if not matched:
                problems.append(f"step {name} wrote no report {pattern}.xml")
            for stem in matched:
                claimed.add(stem)
                p, f, s = counts(reports / f"{stem}.xml")
                print(f"         {stem}: {p} passed, {f} failed" + (f", {s} skipped" if s else ""))
                total_p, total_f, total_s = total_p + p, total_f + f, total_s + s
                step_failures += f
        # A step that failed without a failing test case (a crash, a build or
        # install error, a collection error) still counts as one failure.
        if status == "failed":
            print(f"step failed: {name}")
            if step_failures == 0:
                problems.append(f"step {name} failed without a failing test case")
    for stem in stems:
        if stem not in claimed:
            problems.append(f"report {stem}.xml belongs to no declared step")
    declared = [s[0] for s in steps]
    listed = readme_steps(readme)
    for name in listed:
        if name not in declared:
            problems.append(f"{readme}'s Tests table names step {name}, which scripts/test.sh does not declare")
    for name in declared:
        if name not in listed:
            problems.append(f"step {name} is missing from {readme}'s Tests table")
    not_run = [s[0] for s in steps if s[2] == "not selected"]
    if not_run:
        print(f"not run (left out by --only): {', '.join(not_run)}")
    for problem in problems:
        print(problem)
    print(f"{int(seconds):5d} s  in all")
    if total_s:
        print(f"{total_s} skipped")
    print(f"{total_p} passed, {total_f + len(problems)} failed")
    return 1 if total_f or problems or any(s[2] == "failed" for s in steps) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]))
