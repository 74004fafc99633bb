#!/usr/bin/env python3
"""Turns a test runner's output into a JUnit XML report for scripts/test.sh's summary.

    go test -json ./... | python3 scripts/junit.py go   OUT.xml
    cargo test 2>&1     | python3 scripts/junit.py cargo OUT.xml

The runner's output is echoed to stdout unchanged (go's JSON as its plain text), so the
log still reads as the runner's own. The exit status is 1 when a test failed or when no
test ran at all, else 0; callers also check the runner's own exit status.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET


def go_cases(lines):
    """(name, outcome) pairs from `go test -json` events, printing their output."""
    for line in lines:
        try:
            event = json.loads(line)
        except ValueError:
            sys.stdout.write(line)
            continue
        if event.get("Action") == "output":
            sys.stdout.write(event.get("Output", ""))
        elif event.get("Test") and event.get("Action") in ("pass", "fail", "skip"):
            yield f'{event["Package"]}.{event["Test"]}', event["Action"]


CARGO_RESULT = re.compile(r"^test (.+?) \.\.\. (ok|FAILED|ignored)")


def cargo_cases(lines):
    """(name, outcome) pairs from libtest's `test NAME ... ok` lines, printing every line."""
    outcomes = {"ok": "pass", "FAILED": "fail", "ignored": "skip"}
    for line in lines:
        sys.stdout.write(line)
        match = CARGO_RESULT.match(line)
        if match:
            yield match.group(1), outcomes[match.group(2)]


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("go", "cargo"):
        sys.exit(__doc__)
    parse = go_cases if sys.argv[1] == "go" else cargo_cases
    suite = ET.Element("testsuite", name=sys.argv[1])
    failed = total = 0
    for name, outcome in parse(sys.stdin):
        case = ET.SubElement(suite, "testcase", name=name)
        total += 1
        if outcome == "fail":
            failed += 1
            ET.SubElement(case, "failure", message="failed")
        elif outcome == "skip":
            ET.SubElement(case, "skipped")
    suite.set("tests", str(total))
    suite.set("failures", str(failed))
    ET.ElementTree(suite).write(sys.argv[2], encoding="utf-8", xml_declaration=True)
    sys.exit(1 if failed or total == 0 else 0)


if __name__ == "__main__":
    main()
