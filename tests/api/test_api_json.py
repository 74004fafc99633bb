"""scripts/gen_api.py and api.json: drift is caught by name, the header's style is read
as docs/api-json.md says, and api.json's tables agree with the built library.

Run: python3 -m pytest -q tests/api/test_api_json.py (meson: the abi suite's
api_json_drift test, which passes CTENSOR_LIB).
"""
import ctypes
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GEN = ROOT / "scripts" / "gen_api.py"
API = json.loads((ROOT / "api.json").read_text())


def run_gen(*args):
    return subprocess.run([sys.executable, str(GEN), *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def copy(tmp_path):
    """A copy of include/ and api.json that a test may change."""
    shutil.copytree(ROOT / "include", tmp_path / "include")
    shutil.copy(ROOT / "api.json", tmp_path / "api.json")
    return tmp_path


def check(tmp):
    return run_gen("--check", "--include", tmp / "include", "--output", tmp / "api.json")


def remove_declaration(header, name):
    """Removes the doc comment and CTENSOR_API declaration of `name` from header."""
    text = header.read_text()
    pattern = re.compile(r"/\*\*(?:(?!\*/).)*\*/\s*\nCTENSOR_API[^;]*\b" + name + r"\s*\([^;]*;\n", re.S)
    new, count = pattern.subn("", text)
    assert count == 1, f"{name} not found once in {header.name}"
    header.write_text(new)


def add_before_closing(header, text):
    """Inserts `text` before the header's closing `#ifdef __cplusplus`."""
    body = header.read_text()
    at = body.rindex("#ifdef __cplusplus")
    header.write_text(body[:at] + text + "\n" + body[at:])


def test_api_json_is_up_to_date():
    result = run_gen("--check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_output_is_deterministic(tmp_path):
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert run_gen("--output", first).returncode == 0
    assert run_gen("--output", second).returncode == 0
    assert first.read_bytes() == second.read_bytes() == (ROOT / "api.json").read_bytes()


def test_check_names_a_removed_function(copy):
    remove_declaration(copy / "include" / "ctensor.h", "tensor_narrow")
    result = check(copy)
    assert result.returncode == 1
    assert "function tensor_narrow: in api.json but no longer in the headers" in result.stdout
    # only that function changed
    assert [l for l in result.stdout.splitlines() if "function " in l] == [
        "api.json is stale: function tensor_narrow: in api.json but no longer in the headers"]


def test_check_names_an_added_function(copy):
    add_before_closing(copy / "include" / "ctensor.h", (
        "/**\n * A new function nobody has wrapped yet.\n"
        " * @param out receives the new tensor (a new reference), or NULL on failure.\n"
        " * @return TENSOR_OK; TENSOR_E_INVALID (NULL out); TENSOR_E_NOMEM.\n * @since 0.2\n */\n"
        "CTENSOR_API tensor_status_t tensor_brand_new(tensor_t **out, const tensor_t *t);\n"))
    result = check(copy)
    assert result.returncode == 1
    assert "function tensor_brand_new: in the headers but not in api.json" in result.stdout


def test_check_names_a_changed_signature(copy):
    header = copy / "include" / "ctensor.h"
    text = header.read_text()
    old = "CTENSOR_API tensor_status_t tensor_squeeze(tensor_t **out, const tensor_t *t, int64_t dim);"
    assert old in text
    header.write_text(text.replace(old, old.replace("int64_t dim", "int32_t dim")))
    result = check(copy)
    assert result.returncode == 1
    assert "function tensor_squeeze: differs in params" in result.stdout


def test_an_unreadable_declaration_fails_by_name(copy):
    add_before_closing(copy / "include" / "ctensor.h", (
        "/** Broken. @since 0.2 */\nCTENSOR_API tensor_status_t tensor_broken(tensor_t **out, unsigned long x);\n"))
    result = check(copy)
    assert result.returncode == 1
    assert "tensor_broken" in result.stderr and "unsigned" in result.stderr


@pytest.mark.parametrize("doc, complaint", [
    ("/** No since tag. @return TENSOR_OK. */", "no @since"),
    ("/** No statuses. @since 0.2 */", "no @return"),
    ("/** Names a status that does not exist. @return TENSOR_OK; TENSOR_E_NOPE. @since 0.2 */",
     "TENSOR_E_NOPE"),
    ("/** As tensor_nothing_like_it. @since 0.2 */", "tensor_nothing_like_it"),
    ("/**\n * Bad param doc.\n * @param nope what.\n * @return TENSOR_OK.\n * @since 0.2\n */", "@param nope"),
])
def test_an_incomplete_doc_comment_fails_by_name(copy, doc, complaint):
    add_before_closing(copy / "include" / "ctensor.h",
                       doc + "\nCTENSOR_API tensor_status_t tensor_doc_test(tensor_t **out);\n")
    result = check(copy)
    assert result.returncode == 1
    assert "tensor_doc_test" in result.stderr and complaint in result.stderr


def test_a_declaration_it_cannot_see_fails(copy):
    # a declaration made by a macro would be missing from api.json: refused, with its line
    add_before_closing(copy / "include" / "ctensor.h", "/** Unary ops. @since 0.2 */\nCTENSOR_UNARY(sqrt);\n")
    result = check(copy)
    assert result.returncode == 1
    assert "ctensor.h:" in result.stderr and "CTENSOR_UNARY(sqrt);" in result.stderr


def test_an_undocumented_declaration_fails_by_name(copy):
    add_before_closing(copy / "include" / "ctensor.h",
                       "\nCTENSOR_API int64_t tensor_undocumented(const tensor_t *t);\n")
    result = check(copy)
    assert result.returncode == 1
    assert "tensor_undocumented: no /** ... */ doc comment" in result.stderr


def test_a_new_header_with_arrow_structs_and_an_experimental_block(copy):
    (copy / "include" / "ctensor_extra.h").write_text("""/* extra */
#ifndef CTENSOR_EXTRA_H
#define CTENSOR_EXTRA_H
#include "ctensor.h"

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_NULLABLE 2 /**< a doc comment that goes on
                                   on the next line */
// the Arrow C data interface, as its specification spells it
struct ArrowSchema {
  // Array type description
  const char* format;
  int64_t n_children;
  struct ArrowSchema** children;
  void (*release)(struct ArrowSchema*);
  void* private_data;
};

struct ArrowArray {
  int64_t length;
  const void** buffers;
  struct ArrowArray* dictionary;
  void (*release)(struct ArrowArray*);
};
#endif

/* ------------------------------------------------------------------------- */
/* Arrow exchange                                                             */
/* ------------------------------------------------------------------------- */

/**
 * Exports t.
 * @param out receives the schema; the caller calls its release.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_extra_export(struct ArrowSchema *out, const tensor_t *t);

#ifdef CTENSOR_EXPERIMENTAL
/** As tensor_extra_export, likewise, but faster. @since 0.2 */
CTENSOR_API tensor_status_t tensor_extra_fast(struct ArrowSchema *out, const tensor_t *t);

/**
 * Both.
 * @return as tensor_extra_export and tensor_extra_fast; also TENSOR_E_READONLY.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_extra_both(struct ArrowSchema *out, tensor_t *t);
#endif /* CTENSOR_EXPERIMENTAL */

#endif
""")
    out = copy / "new.json"
    result = run_gen("--include", copy / "include", "--output", out)
    assert result.returncode == 0, result.stderr
    api = json.loads(out.read_text())
    assert "ctensor_extra.h" in api["headers"]
    # (include/ctensor_arrow.h defines the real ones; this header's copies are checked)
    schema = next(s for s in api["structs"] if s["name"] == "ArrowSchema" and s["header"] == "ctensor_extra.h")
    assert [f["name"] for f in schema["fields"]] == ["format", "n_children", "children", "release",
                                                     "private_data"]
    assert schema["fields"][2]["c"] == "struct ArrowSchema **"
    assert schema["fields"][3]["kind"] == "function_pointer"
    array = next(s for s in api["structs"] if s["name"] == "ArrowArray" and s["header"] == "ctensor_extra.h")
    assert [(f["name"], f["c"]) for f in array["fields"]] == [
        ("length", "int64_t"), ("buffers", "const void **"), ("dictionary", "struct ArrowArray *"),
        ("release", "void (*)(struct ArrowArray*)")]
    functions = {f["name"]: f for f in api["functions"]}
    export, fast = functions["tensor_extra_export"], functions["tensor_extra_fast"]
    assert export["section"] == "Arrow exchange" and not export["experimental"]
    assert export["params"][0]["c"] == "struct ArrowSchema *"
    assert (export["params"][0]["direction"], export["params"][0]["ownership"]) == ("out", "new")
    assert fast["experimental"] and fast["statuses_from"] == ["tensor_extra_export"]
    both = functions["tensor_extra_both"]
    assert both["statuses_from"] == ["tensor_extra_export", "tensor_extra_fast"]
    assert both["statuses"] == export["statuses"][:1] + ["TENSOR_E_INVALID", "TENSOR_E_NOMEM", "TENSOR_E_READONLY"]
    assert fast["statuses"] == export["statuses"]
    nullable = next(c for c in api["constants"] if c["name"] == "ARROW_FLAG_NULLABLE" and c["header"] == "ctensor_extra.h")
    assert (nullable["value"], nullable["doc"]) == (2, "a doc comment that goes on on the next line")


def test_statuses_inherit_through_references():
    functions = {f["name"]: f for f in API["functions"]}
    assert functions["tensor_sub"]["statuses_from"] == ["tensor_add"]
    assert functions["tensor_sub"]["statuses"] == functions["tensor_add"]["statuses"]
    # "as tensor_view, without TENSOR_E_STRIDE"
    reshape, view = functions["tensor_reshape"], functions["tensor_view"]
    assert set(reshape["statuses"]) == set(view["statuses"]) - {"TENSOR_E_STRIDE"}
    # mean: tensor_sum's statuses and the TENSOR_E_DTYPE its doc names
    assert set(functions["tensor_mean"]["statuses"]) == set(functions["tensor_sum"]["statuses"]) | {
        "TENSOR_E_DTYPE"}
    for f in API["functions"]:
        if f["returns"]["kind"] == "status":
            assert f["statuses"][0] == "TENSOR_OK", f["name"]
        else:
            assert f["statuses"] == [], f["name"]


def test_ownership_words():
    functions = {f["name"]: f for f in API["functions"]}
    assert functions["tensor_empty"]["params"][0]["ownership"] == "new"
    assert functions["tensor_storage"]["returns_ownership"] == "borrowed"
    assert functions["tensor_retain"]["returns_ownership"] == "new"
    assert functions["tensor_dtype_name"]["returns_ownership"] == "static"
    assert functions["tensor_last_error"]["returns_ownership"] == "borrowed"
    assert functions["tensor_from_dlpack"]["params"][1]["ownership"] == "consumed"
    assert functions["tensor_add"]["params"][1]["ownership"] == "borrowed"
    assert functions["tensor_release"]["params"][0]["nullable"] is True


def library():
    path = os.environ.get("CTENSOR_LIB") or str(ROOT / "build" / "src" / "libctensor.so")
    assert pathlib.Path(path).exists(), f"no library at {path}: build it or set CTENSOR_LIB"
    return ctypes.CDLL(path)


def test_tables_agree_with_the_library():
    lib = library()
    lib.tensor_dtype_name.restype = ctypes.c_char_p
    lib.tensor_dtype_size.restype = ctypes.c_size_t
    lib.tensor_status_name.restype = ctypes.c_char_p
    kinds = {c["name"][len("TENSOR_KIND_"):].lower(): c["value"]
             for c in API["constants"] if c["group"] == "dtype_kind"}
    for d in API["dtypes"]:
        assert lib.tensor_dtype_name(d["value"]).decode() == d["name"]
        assert lib.tensor_dtype_size(d["value"]) == d["size"], d["name"]
        assert lib.tensor_dtype_kind(d["value"]) == kinds[d["kind"]], d["name"]
        assert lib.tensor_dtype_is_signed(d["value"]) == int(d["signed"]), d["name"]
    for s in API["statuses"]:
        assert lib.tensor_status_name(s["value"]).decode() == s["name"]
    for f in API["functions"]:
        assert hasattr(lib, f["name"]), f"{f['name']} is in api.json but not exported"
