"""scripts/test.sh declares its steps once (its `steps` table); scripts/test_summary.py
fails a run where a selected step did not run or wrote no report, or where the README's
"Tests" table and the script's steps differ. These tests check that logic on made-up
reports, and that the README and the script agree today, without running any step."""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import test_summary  # noqa: E402

PASSING = '<testsuites><testsuite><testcase name="a"/></testsuite></testsuites>'
FAILING = '<testsuites><testsuite><testcase name="a"><failure/></testcase></testsuite></testsuites>'


def declared_steps():
    out = subprocess.run(["bash", str(ROOT / "scripts" / "test.sh"), "--list"], check=True,
                         capture_output=True, text=True).stdout
    return [line.split()[0] for line in out.splitlines()]


def readme(tmp_path, names):
    path = tmp_path / "README.md"
    rows = "".join(f"| `{n}` | what {n} runs |\n" for n in names)
    path.write_text(f"# x\n\n## Tests\n\n| step | what it runs |\n|---|---|\n{rows}\n## Licence\n")
    return str(path)


def summary(tmp_path, capsys, rows, listed, reports):
    (tmp_path / "reports").mkdir()
    for stem, text in reports.items():
        (tmp_path / "reports" / f"{stem}.xml").write_text(text)
    rc = test_summary.main(tmp_path / "reports", readme(tmp_path, listed), 10, rows)
    return rc, capsys.readouterr().out.splitlines()


def test_the_readme_names_exactly_the_declared_steps():
    steps = declared_steps()
    assert "safetensors" in steps and len(steps) == len(set(steps))
    assert test_summary.readme_steps(ROOT / "README.md") == steps


def test_a_clean_run_passes(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1", "b|b b-extra|passed|2"], ["a", "b"],
                      {"a": PASSING, "b": PASSING, "b-extra": PASSING})
    assert rc == 0 and out[-1] == "3 passed, 0 failed"


def test_a_step_without_its_report_fails(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1", "b|b|passed|1"], ["a", "b"], {"a": PASSING})
    assert rc == 1 and "step b wrote no report b.xml" in out and out[-1] == "1 passed, 1 failed"


def test_a_failed_step_without_a_failing_case_counts_once(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|failed|1"], ["a"], {"a": PASSING})
    assert rc == 1 and "step a failed without a failing test case" in out and out[-1] == "1 passed, 1 failed"


def test_failing_cases_are_counted(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|failed|1"], ["a"], {"a": FAILING})
    assert rc == 1 and out[-1] == "0 passed, 1 failed"


def test_the_readme_and_the_script_must_agree(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1"], ["a", "gone"], {"a": PASSING})
    assert rc == 1 and any("names step gone" in line for line in out)
    (tmp_path / "reports" / "a.xml").unlink()
    (tmp_path / "reports").rmdir()
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1", "new|new|passed|1"], ["a"],
                      {"a": PASSING, "new": PASSING})
    assert rc == 1 and "step new is missing from" in " ".join(out)


def test_steps_left_out_by_only_are_listed_not_failed(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1", "b|b|not selected|0"], ["a", "b"], {"a": PASSING})
    assert rc == 0 and "not run (left out by --only): b" in out


def test_a_report_of_no_step_fails(tmp_path, capsys):
    rc, out = summary(tmp_path, capsys, ["a|a|passed|1"], ["a"], {"a": PASSING, "stray": PASSING})
    assert rc == 1 and "report stray.xml belongs to no declared step" in out


def test_only_refuses_unknown_steps():
    run = subprocess.run(["bash", str(ROOT / "scripts" / "test.sh"), "--only", "meson,nonesuch"],
                         capture_output=True, text=True)
    assert run.returncode == 2 and "no step named 'nonesuch'" in run.stderr
