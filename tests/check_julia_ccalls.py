"""Static check of the Julia binding against api.json (made from include/*.h by
scripts/gen_api.py), without Julia.

Parses every `ccall((:tensor_xxx, libctensor()), Ret, (ArgTypes...), args...)` in
bindings/julia/CTensor.jl/src and checks that the function is in api.json with the
same number of parameters, compatible types (Int32 <-> int32_t and the int32_t
typedefs, Int64 <-> int64_t, UInt32 <-> uint32_t, UInt64 <-> uint64_t, Csize_t <-> size_t,
Cdouble <-> double, Ptr{Int64} <-> int64_t *, Ptr{UInt8} <-> char *, Ptr{Cvoid} <->
pointers to void, opaque structs and functions, Ptr{Ptr{Cvoid}} <-> tensor_t **) and
a compatible return type; that each raw wrapper is named after its C function
and passes its parameters through in order; that every api.json function is either
called or listed in JULIA_NOT_WRAPPED below with the reason; and that the package's
status codes, dtype table, read-only flag, memory formats and conversion policies
have the header's values.

Run by scripts/test.sh: python3 -m pytest tests/check_julia_ccalls.py
"""
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
API = json.loads((ROOT / "api.json").read_text())
JULIA_SRC = ROOT / "bindings" / "julia" / "CTensor.jl" / "src"
RAW_LAYER = "LibCTensor.jl"
sys.path.insert(0, str(ROOT / "tests" / "api"))
import binding_coverage  # noqa: E402

# The functions the Julia binding leaves out on purpose: the package is the array
# bridge (storages, tensors, views, copies, casts, indexing) over Julia arrays.
JULIA_NOT_WRAPPED = {
    "tensor_thread_release_caches": "for C hosts that own their threads; Julia's threads free their caches as they "
                                    "exit and the library frees the rest at unload",
    **dict.fromkeys(
        ["tensor_dtype_size", "tensor_dtype_kind", "tensor_dtype_is_signed"],
        "the dtype table lives in src/dtypes.jl (checked against api.json below)"),
    **dict.fromkeys(
        ["tensor_storage_new", "tensor_storage_data", "tensor_storage_nbytes", "tensor_storage_is_readonly",
         "tensor_storage_retain", "tensor_from_buffer", "tensor_from_data", "tensor_retain"],
        "Julia memory is wrapped with tensor_storage_wrap/tensor_from_storage; a Julia Tensor owns one reference"),
    **dict.fromkeys(
        ["tensor_copy", "tensor_to"],
        "copies and casts go through tensor_copy_with/tensor_to_with (conversion policies)"),
    **dict.fromkeys(
        ["tensor_device", "tensor_to_dlpack", "tensor_to_dlpack_legacy", "tensor_from_dlpack",
         "tensor_from_dlpack_legacy"],
        "no DLPack in the Julia binding yet"),
    **dict.fromkeys(
        ["tensor_to_arrow", "tensor_to_arrow_device", "tensor_from_arrow", "tensor_from_arrow_device",
         "tensor_from_arrow_variable_shape", "tensor_arrow_list_release"],
        "no Arrow exchange in the Julia binding yet"),
    **dict.fromkeys(
        ["tensor_storage_map_file", "tensor_storage_new_shared", "tensor_storage_fd", "tensor_storage_from_fd",
         "tensor_load_npy", "tensor_load_npy_with", "tensor_save_npy", "tensor_safetensors_open",
         "tensor_safetensors_open_with", "tensor_safetensors_release",
         "tensor_safetensors_count", "tensor_safetensors_name", "tensor_safetensors_get",
         "tensor_safetensors_metadata", "tensor_safetensors_metadata_count", "tensor_safetensors_metadata_key",
         "tensor_safetensors_save", "tensor_storage_move_to_shared", "tensor_storage_pin",
         "tensor_storage_unpin"],
        "files and shared memory are not exposed in Julia yet"),
    **dict.fromkeys(
        ["tensor_scalar_complex128",
         "tensor_result_type", "tensor_promote_types", "tensor_add", "tensor_sub", "tensor_mul", "tensor_div",
         "tensor_pow",
         "tensor_maximum", "tensor_minimum", "tensor_eq", "tensor_ne", "tensor_lt", "tensor_le", "tensor_gt",
         "tensor_ge", "tensor_binary_into", "tensor_sum", "tensor_mean",
         "tensor_prod", "tensor_amax", "tensor_amin", "tensor_item_float64", "tensor_item_int64",
         "tensor_cat", "tensor_stack", "tensor_equal", "tensor_allclose", "tensor_conj_physical",
         "tensor_conj", "tensor_is_conj"],
        "binary math, reductions and joins are not in the Julia binding (Julia computes on the wrapped "
        "arrays with Base); src/math.jl has the unary family, clamp, where, argmax, cumsum and softmax"),
    **dict.fromkeys(
        ["tensor_from_blob", "tensor_convert", "tensor_diagonal", "tensor_unfold", "tensor_movedim",
         "tensor_unflatten", "tensor_atleast", "tensor_split", "tensor_split_with_sizes", "tensor_chunk",
         "tensor_tensor_split", "tensor_tensor_split_indices", "tensor_broadcast_tensors"],
        "experimental view family and helpers, not exposed in Julia yet"),
    **dict.fromkeys(
        ["tensor_neg", "tensor_abs"] + ["tensor_" + n for n in (
            "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
            "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil", "round",
            "trunc", "frac", "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logical_not",
            "bitwise_not")],
        "the unary family goes through tensor_unary/tensor_unary_into by op code (src/math.jl's UNARY_OPS)"),
}

# ---------------------------------------------------------------------------------
# C side: api.json's functions -> (return type, [parameter types]), each type a
# canonical value: "i32", "i64", "u32", "u64", "size", "f64", "void", or ("ptr", pointee).

C_INTEGERS = {"int8_t": "i8", "uint8_t": "u8", "int16_t": "i16", "uint16_t": "u16", "int32_t": "i32",
              "uint32_t": "u32", "int64_t": "i64", "uint64_t": "u64", "size_t": "size"}
INTEGER_TYPEDEFS = {t["name"]: t["c"] for t in API["typedefs"] if t["kind"] in ("integer", "enum")}


def c_type(t):
    """Canonical type of an api.json type (a parameter or a function's "returns")."""
    kind, base = t["base_kind"], t["base"]
    if kind == "function_pointer":
        canonical = ("ptr", "fn")
    elif kind in ("handle", "struct"):
        canonical = "opaque"
    elif kind == "integer":
        canonical = C_INTEGERS[INTEGER_TYPEDEFS.get(base, base)]
    elif kind == "float":
        canonical = {"double": "f64", "float": "f32"}[base]
    else:
        canonical = base  # void, char
    for _ in range(t["pointer_depth"]):
        canonical = ("ptr", canonical)
    return canonical


API_FUNCTIONS = {f["name"]: (c_type(f["returns"]), [c_type(p) for p in f["params"]]) for f in API["functions"]}


def api_type(function, param=None):
    """The api.json type of a function's parameter (or return), for the checker's own tests."""
    f = next(f for f in API["functions"] if f["name"] == function)
    return f["returns"] if param is None else next(p for p in f["params"] if p["name"] == param)


# ---------------------------------------------------------------------------------
# Julia side

JULIA_SCALARS = {"Int32": "i32", "Cint": "i32", "Int64": "i64", "UInt32": "u32", "Cuint": "u32", "UInt64": "u64",
                 "Csize_t": "size", "Cdouble": "f64", "Float64": "f64", "Cvoid": "void",
                 "UInt8": "u8"}


def julia_type(text):
    text = text.strip()
    if text == "Cstring":
        return ("ptr", "char")
    m = re.fullmatch(r"Ptr\{(.*)\}", text)
    if m:
        pointee = m.group(1).strip()
        return ("ptr", "char" if pointee in ("UInt8", "Cchar") else julia_type(pointee))
    if text in JULIA_SCALARS:
        return JULIA_SCALARS[text]
    raise ValueError(f"unknown Julia type {text!r}")


def compatible(jl, c):
    """Whether a Julia ccall type passes the C type: equal, or Ptr{Cvoid} for a pointer
    to void, an opaque struct or a function (at any pointer depth)."""
    if isinstance(jl, tuple) and isinstance(c, tuple):
        if jl[1] == "void" and c[1] in ("void", "opaque", "fn"):
            return True
        return compatible(jl[1], c[1])
    return jl == c


def split_top_level(text):
    """Splits on commas outside (), {} and []."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def balanced(text, open_at):
    """The text inside the parenthesis opening at open_at, and the index after it."""
    depth = 0
    for i in range(open_at, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[open_at + 1:i], i + 1
    raise ValueError("unbalanced parentheses")


def statement_start(text, pos):
    """Start of the last unindented line at or before pos (where a definition begins)."""
    start = text.rfind("\n", 0, pos) + 1
    while start > 0 and text[start:start + 1].isspace():
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def parse_ccalls(text, filename="<text>"):
    """Every ccall in a Julia source, with the wrapper that contains it (if it is a
    one-definition wrapper `name(params) = ccall(...)`)."""
    calls = []
    for m in re.finditer(r"\bccall\(", text):
        inner, _ = balanced(text, m.end() - 1)
        parts = split_top_level(inner)
        target = re.fullmatch(r"\(\s*:(\w+)\s*,\s*(.*?)\s*\)", parts[0], flags=re.S)
        types_text = parts[2].strip()
        if not (types_text.startswith("(") and types_text.endswith(")")):
            raise ValueError(f"{filename}: argument types of a ccall are not a tuple: {types_text}")
        # The definition starts at the last unindented line before the ccall.
        definition = statement_start(text, m.start())
        head = re.match(r"(\w+)\(([^)]*)\)\s*=", text[definition:m.start()])
        calls.append({
            "where": f"{filename}:{text.count(chr(10), 0, m.start()) + 1}",
            "name": target.group(1) if target else None,
            "library": target.group(2) if target else parts[0],
            "ret": parts[1],
            "arg_types": split_top_level(types_text[1:-1]),
            "args": parts[3:],
            "wrapper": head.group(1) if head else None,
            "wrapper_params": split_top_level(head.group(2)) if head else None,
        })
    return calls


def problems(call, header):
    """What is wrong with one ccall against api.json's functions ([] if nothing)."""
    name = call["name"]
    if name is None or not name.startswith("tensor_"):
        return [f"{call['where']}: ccall target {call['library']!r} is not a (:tensor_*, lib) pair"]
    if name not in header:
        return [f"{call['where']}: {name} is not in api.json (not declared in include/)"]
    out = []
    if call["library"] != "libctensor()":
        out.append(f"{call['where']}: {name} is not called through libctensor()")
    c_ret, c_params = header[name]
    if len(call["arg_types"]) != len(c_params):
        out.append(f"{call['where']}: {name} has {len(call['arg_types'])} argument types, "
                   f"the header {len(c_params)} parameters")
    for i, (jl, c) in enumerate(zip(call["arg_types"], c_params), 1):
        if not compatible(julia_type(jl), c):
            out.append(f"{call['where']}: {name} argument {i}: {jl} does not match C {c}")
    if not compatible(julia_type(call["ret"]), c_ret):
        out.append(f"{call['where']}: {name} returns C {c_ret}, not {call['ret']}")
    if len(call["args"]) != len(call["arg_types"]):
        out.append(f"{call['where']}: {name} passes {len(call['args'])} arguments for "
                   f"{len(call['arg_types'])} types")
    if call["wrapper"] != name:
        out.append(f"{call['where']}: the wrapper of {name} is named {call['wrapper']!r}")
    elif call["wrapper_params"] != call["args"]:
        out.append(f"{call['where']}: {name} passes {call['args']}, not its parameters "
                   f"{call['wrapper_params']} in order")
    return out


JULIA_FILES = sorted(JULIA_SRC.glob("*.jl"))
CCALLS = [c for f in JULIA_FILES if f.name == RAW_LAYER
          for c in parse_ccalls(f.read_text(), f"src/{f.name}")]


# ---------------------------------------------------------------------------------
# Tests of the binding

@pytest.mark.parametrize("call", CCALLS, ids=[c["name"] or c["where"] for c in CCALLS])
def test_ccall_matches_header(call):
    assert problems(call, API_FUNCTIONS) == []


def test_every_ccall_is_in_the_raw_layer_and_parsed():
    for f in JULIA_FILES:
        count = len(re.findall(r"\bccall\(", f.read_text()))
        if f.name == RAW_LAYER:
            assert count == len(CCALLS) > 30
        else:
            assert count == 0, f"{f.name} calls C directly; ccalls belong in {RAW_LAYER}"


def test_each_function_is_wrapped_once():
    names = [c["name"] for c in CCALLS]
    assert len(names) == len(set(names))


def test_every_api_function_is_called_or_listed():
    binding_coverage.assert_binding("Julia", {c["name"] for c in CCALLS}, JULIA_NOT_WRAPPED,
                                    "JULIA_NOT_WRAPPED in tests/check_julia_ccalls.py")


def test_api_types_read_as_canonical():
    assert API_FUNCTIONS["tensor_from_storage"] == (
        "i32", [("ptr", ("ptr", "opaque")), ("ptr", "opaque"), "i32", "i64",
                ("ptr", "i64"), ("ptr", "i64"), "i64"])
    assert API_FUNCTIONS["tensor_storage_wrap"][1][4] == ("ptr", "fn")
    assert API_FUNCTIONS["tensor_last_error"] == (("ptr", "char"), [])


def header_defines(pattern):
    """api.json's constants whose names match pattern, with their values."""
    return {c["name"]: c["value"] for c in API["constants"] if re.fullmatch(pattern, c["name"])}


def test_status_constants_match_header():
    julia = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"^const (TENSOR_(?:OK|E_\w+)) = Int32\((\d+)\)", (JULIA_SRC / "errors.jl").read_text(), flags=re.M)}
    assert julia == header_defines(r"TENSOR_(?:OK|E_\w+)")


# Julia element type -> the header's dtype macro.
JULIA_DTYPE_NAMES = {"UInt8": "UINT8", "Int8": "INT8", "Int16": "INT16", "Int32": "INT32",
                     "Int64": "INT64", "Float16": "FLOAT16", "Float32": "FLOAT32",
                     "Float64": "FLOAT64", "ComplexF32": "COMPLEX64", "ComplexF64": "COMPLEX128",
                     "Bool": "BOOL", "BFloat16": "BFLOAT16", "UInt16": "UINT16",
                     "UInt32": "UINT32", "UInt64": "UINT64"}


def test_dtype_table_matches_header():
    table = re.search(r"const DTYPES = \((.*?)\)\n", (JULIA_SRC / "dtypes.jl").read_text(), flags=re.S)
    julia = {f"TENSOR_{JULIA_DTYPE_NAMES[m.group(1)]}": int(m.group(2))
             for m in re.finditer(r"(\w+) => (\d+)", table.group(1))}
    names = "|".join(JULIA_DTYPE_NAMES.values())
    assert julia == header_defines(rf"TENSOR_(?:{names})")
    assert len(julia) == 15


def test_readonly_flag_matches_header():
    julia = re.search(r"^const TENSOR_READONLY = UInt32\((\d+)\)", (JULIA_SRC / "tensor.jl").read_text(), flags=re.M)
    assert {"TENSOR_READONLY": int(julia.group(1))} == header_defines("TENSOR_READONLY")


def test_memory_formats_and_conversions_match_header():
    pattern = r"TENSOR_(?:PRESERVE|CONTIGUOUS)_FORMAT|TENSOR_CONVERT_\w+"
    julia = {m.group(1): int(m.group(2)) for m in re.finditer(
        rf"^const ({pattern}) = (?:Int32|UInt32)\((\d+)\)", (JULIA_SRC / "tensor.jl").read_text(), flags=re.M)}
    assert julia == header_defines(pattern)
    assert len(julia) == 4


# ---------------------------------------------------------------------------------
# Tests of the checker itself: it must reject what does not match.

def _problems_of(julia_source):
    (call,) = parse_ccalls(julia_source)
    return problems(call, API_FUNCTIONS)


GOOD = ("tensor_transpose(out, t, dim0, dim1) =\n"
        "    ccall((:tensor_transpose, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64),\n"
        "          out, t, dim0, dim1)\n")


@pytest.mark.parametrize("source,expected", [
    (GOOD, None),
    (GOOD.replace(", Int64, Int64)", ", Int64)"), "3 argument types, the header 4"),
    (GOOD.replace("Int64, Int64)", "Int64, Int32)"), "argument 4: Int32"),
    (GOOD.replace("Ptr{Ptr{Cvoid}}", "Ptr{Cvoid}"), "argument 1: Ptr{Cvoid}"),
    (GOOD.replace("Int32,", "Int64,", 1), "returns C i32"),
    (GOOD.replace(":tensor_transpose", ":tensor_transpos"), "not declared"),
    (GOOD.replace("libctensor()", '"libctensor"'), "not called through libctensor()"),
    (GOOD.replace("dim0, dim1)\n", "dim1, dim0)\n"), "not its parameters"),
    (GOOD.replace(", dim1)\n", ")\n"), "passes 3 arguments for 4 types"),
    ("f(n) = ccall((:tensor_set_num_threads, libctensor()), Int32, (Int32,), n)\n", "named 'f'"),
    ("tensor_empty(out, ndim, sizes, dtype) = ccall((:tensor_empty, libctensor()), Int32,"
     " (Ptr{Ptr{Cvoid}}, Int64, Ptr{Cvoid}, Int32), out, ndim, sizes, dtype)\n", "argument 3: Ptr{Cvoid}"),
    ("tensor_storage_new(out, nbytes) = ccall((:tensor_storage_new, libctensor()), Int32,"
     " (Ptr{Ptr{Cvoid}}, Int64), out, nbytes)\n", "argument 2: Int64"),
    ("tensor_fill(dst, value) = ccall((:tensor_fill, libctensor()), Int32,"
     " (Ptr{Cvoid}, Float64), dst, value)\n", None),
])
def test_checker_rejects_mismatches(source, expected):
    found = _problems_of(source)
    if expected is None:
        assert found == []
    else:
        assert any(expected in p for p in found), found


def test_checker_type_rules():
    assert compatible(julia_type("Csize_t"), c_type(api_type("tensor_storage_new", "nbytes")))
    assert not compatible(julia_type("Int64"), c_type(api_type("tensor_storage_new", "nbytes")))
    assert compatible(julia_type("Ptr{Cvoid}"), c_type(api_type("tensor_add", "a")))
    assert compatible(julia_type("Ptr{Cvoid}"), c_type(api_type("tensor_storage_wrap", "release")))
    assert compatible(julia_type("Ptr{UInt8}"), c_type(api_type("tensor_last_error")))
    assert not compatible(julia_type("Ptr{Int64}"), c_type(api_type("tensor_add", "a")))
    assert not compatible(julia_type("Ptr{Cvoid}"), c_type(api_type("tensor_add", "out")))
    assert not compatible(julia_type("UInt32"), c_type(api_type("tensor_set_num_threads", "n")))
    with pytest.raises(ValueError):
        julia_type("Culong")


def test_unary_op_codes_match_header():
    table = re.search(r"const UNARY_OPS = \((.*?)\)\n", (JULIA_SRC / "math.jl").read_text(), flags=re.S)
    julia = {f"TENSOR_UOP_{m.group(1).upper()}": int(m.group(2))
             for m in re.finditer(r"(\w+) = (\d+)", table.group(1))}
    assert julia == header_defines(r"TENSOR_UOP_\w+")
    assert len(julia) == 37
