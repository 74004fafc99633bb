"""Shared by the bindings' coverage checks: every function in api.json is used by a
binding or listed, with a reason, in that binding's not-wrapped list, so a function
added to the header fails CI by name until each binding wraps it or says why not.

A new binding's check is three lines (see tests/api/test_binding_coverage.py):

    used = binding_coverage.identifiers_in(pathlib.Path("bindings/java").rglob("*.java"))
    NOT_WRAPPED = {"tensor_foo": "why the Java binding leaves it out"}
    binding_coverage.assert_binding("Java", used, NOT_WRAPPED, "tests/api/test_binding_coverage.py")
"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
API_JSON = ROOT / "api.json"


def load_api():
    return json.loads(API_JSON.read_text())


def function_names(api=None):
    """The names of api.json's functions, in header order."""
    return [f["name"] for f in (api or load_api())["functions"]]


def strip_comments(text, line_comment="//"):
    """Source text without /* */ comments and without line comments."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(re.escape(line_comment) + r"[^\n]*", " ", text)


def identifiers_in(paths, line_comment="//"):
    """Every tensor_* identifier in the given source files, comments left out (a
    function named in code counts: called, or passed as a function pointer)."""
    found = set()
    for path in paths:
        found |= set(re.findall(r"\btensor_\w+\b", strip_comments(pathlib.Path(path).read_text(),
                                                                    line_comment)))
    return found


def check_binding(binding, used_names, not_wrapped, where, api=None):
    """The problems (a list of messages, empty when none) of one binding's coverage:
    api.json functions neither used nor listed, listed names that are not (or no
    longer) in api.json, and listed names that the binding does use after all."""
    names = function_names(api)
    known = set(names)
    used = set(used_names) & known
    problems = []
    for name in names:
        if name not in used and name not in not_wrapped:
            problems.append(f"{name} is in api.json but the {binding} binding neither wraps it nor "
                            f"lists it in {where} (wrap it, or list it there with the reason)")
    for name in sorted(not_wrapped):
        if name not in known:
            problems.append(f"{where} lists {name} as not wrapped by the {binding} binding, "
                            f"but api.json has no such function")
        elif name in used:
            problems.append(f"the {binding} binding wraps {name} but {where} still lists it as not "
                            f"wrapped (remove it from the list)")
    for name, reason in sorted(not_wrapped.items()):
        if not str(reason).strip():
            problems.append(f"{where} lists {name} for the {binding} binding without a reason")
    return problems


def assert_binding(binding, used_names, not_wrapped, where, api=None):
    problems = check_binding(binding, used_names, not_wrapped, where, api)
    assert not problems, "\n" + "\n".join(problems)
