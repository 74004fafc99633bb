"""The type stubs: mypy's stubtest compares them with the installed module (every
public name, signatures where the runtime has them), and `mypy --strict` checks
typed_usage.py against them; typed_usage.py also runs."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(*args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=HERE, timeout=600)


def test_stubtest_finds_stubs_and_module_agree():
    r = run("-m", "mypy.stubtest", "ctensor", "--allowlist", "stubtest_allowlist.txt")
    assert r.returncode == 0, r.stdout + r.stderr


def test_typed_usage_passes_mypy_strict_and_runs():
    r = run("-m", "mypy", "--strict", "--no-incremental", "typed_usage.py")
    assert r.returncode == 0, r.stdout + r.stderr
    r = run("typed_usage.py")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_rejects_misuse():
    bad = os.path.join(HERE, "typed_misuse.py")
    with open(bad, "w") as f:
        f.write("import ctensor\nx: str = ctensor.zeros(2).numel()\nctensor.frombuffer(b'', dtype=3.5)\n")
    try:
        r = run("-m", "mypy", "--strict", "--no-incremental", bad)
    finally:
        os.unlink(bad)
    assert r.returncode == 1
    assert "typed_misuse.py:2" in r.stdout and "typed_misuse.py:3" in r.stdout, r.stdout
