"""Every api.json function is wrapped by the Go, Rust, Python and Java bindings or listed
below as deliberately not wrapped, with the reason; a function added to the header
fails here by name until each binding wraps it or lists it. (The Julia binding's
list is in tests/check_julia_ccalls.py, next to its ccall check; the Java binding's in
bindings/java/not-wrapped.txt, which bindings/java/gen_native.py --check reads.)

Run: python3 -m pytest -q tests/api/test_binding_coverage.py (meson: the abi suite's
binding_coverage test).
"""
import pathlib
import re
import sys

import binding_coverage as coverage

ROOT = coverage.ROOT
HERE = "tests/api/test_binding_coverage.py"

# The unary family (issue 25) by name; Python and Go reach them through tensor_unary
# and tensor_unary_into with the op's code.
UNARY_NAMED = ["tensor_" + n for n in (
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos",
    "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil", "round", "trunc", "frac",
    "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logical_not", "bitwise_not")]


# --------------------------------------------------------------------------- Go
# The cgo binding calls C through the ct_* wrappers of bindings/go/shim.h (CT_OUT(name,
# ...) and its sister macros wrap tensor_<name>), its .c files, and C.tensor_* in Go.
GO_NOT_WRAPPED = {
    "tensor_thread_release_caches": "for C hosts that own their threads; the Go runtime's threads free their caches when they exit and the library frees the rest at unload",
    "tensor_storage_data": "Go reads data through tensor_data of a tensor, never of a bare storage",
    "tensor_from_buffer": "Go wraps caller memory with tensor_storage_wrap + tensor_from_storage",
    "tensor_from_blob": "experimental; Go wraps caller memory with tensor_storage_wrap + tensor_from_storage",
    "tensor_retain": "a Go Tensor owns exactly one reference; copies share the Go value, not a new ref",
    "tensor_to_dlpack_legacy": "Go exchanges DLPack 1.x only (no pre-1.0 consumers in Go)",
    "tensor_from_dlpack_legacy": "Go exchanges DLPack 1.x only (no pre-1.0 producers in Go)",
    "tensor_broadcast_tensors": "experimental, not exposed in Go yet (Go has BroadcastTo per tensor)",
    **{name: "Go's named methods (Exp, ..., generated into unary_ops.go) call tensor_unary with their op code"
       for name in ["tensor_neg", "tensor_abs"] + UNARY_NAMED},
    # Arrow: Tensor.ToArrowC / FromArrowC here, arrow-go arrays in the ctensor/arrowct module.
    **dict.fromkeys(
        ["tensor_to_arrow_device", "tensor_from_arrow_device"],
        "arrow-go's cdata has no device arrays; Go tensors are CPU tensors (ToArrowC/FromArrowC)"),
    **dict.fromkeys(
        ["tensor_from_arrow_variable_shape", "tensor_arrow_list_release"],
        "arrow.variable_shape_tensor import not exposed in Go yet (fixed-shape arrays go through FromArrowC)"),
    # Python's share_memory_ and conjugate views (issue 27)
    "tensor_storage_move_to_shared": "Go has no share_memory_: shared memory is made directly (tensor_storage_new_shared)",
    **dict.fromkeys(["tensor_storage_pin", "tensor_storage_unpin"],
                    "pins guard against tensor_storage_move_to_shared, which Go never calls"),
    "tensor_is_conj": "stands for PyTorch's conjugate bit, which only Python's numpy() honours",
}


def go_used_names():
    go = ROOT / "bindings" / "go"
    shim = coverage.strip_comments((go / "shim.h").read_text())
    used = {"tensor_" + m for m in re.findall(r"^\s*CT_[A-Z_]+\(\s*(\w+)", shim, flags=re.M)}
    used |= coverage.identifiers_in([go / "shim.h", *sorted(go.glob("*.c"))])
    for path in sorted(go.glob("*.go")):
        used |= set(re.findall(r"\bC\.(tensor_\w+)", path.read_text()))
    return used


def test_go_binding_covers_api():
    coverage.assert_binding("Go", go_used_names(), GO_NOT_WRAPPED, HERE)


# --------------------------------------------------------------------------- Rust
# ctensor-sys declares everything (bindgen output, checked against the header by its
# own test); the safe crate uses a function when its source names sys::tensor_*.
RUST_SAFE_NOT_WRAPPED = {
    "tensor_thread_release_caches": "for C hosts that own their threads; the Rust runtime's threads free their caches when they exit and the library frees the rest at unload",
    "tensor_version_number": "the safe crate gives version() (the string); the number is in ctensor-sys",
    "tensor_status_name": "the safe crate's Error enum names statuses itself",
    "tensor_from_buffer": "the safe crate wraps owned Rust memory with tensor_storage_wrap + tensor_from_storage",
    "tensor_from_data": "the safe crate copies slices through tensor_empty and a typed write",
    "tensor_from_blob": "experimental; caller memory goes through tensor_storage_wrap + tensor_from_storage",
    **dict.fromkeys(
        ["tensor_to_arrow_device", "tensor_from_arrow_device"],
        "arrow-rs has no C Device Data Interface types; the arrow feature exchanges CPU arrays (ctensor-sys declares them)"),
    # Python's share_memory_ and conjugate views (issue 27)
    "tensor_storage_move_to_shared": "the safe crate has no share_memory_: shared memory is made directly (tensor_storage_new_shared)",
    **dict.fromkeys(["tensor_storage_pin", "tensor_storage_unpin"],
                    "pins guard against tensor_storage_move_to_shared, which the safe crate never calls"),
    "tensor_is_conj": "stands for PyTorch's conjugate bit, which only Python's numpy() honours",
}


def test_rust_sys_crate_declares_api():
    bindings = (ROOT / "bindings" / "rust" / "ctensor-sys" / "src" / "bindings.rs").read_text()
    declared = set(re.findall(r"\bpub fn (tensor_\w+)\s*\(", bindings))
    names = coverage.function_names()
    missing = [n for n in names if n not in declared]
    extra = sorted(declared - set(names))
    assert not missing, (f"in api.json but not declared in bindings/rust/ctensor-sys/src/bindings.rs "
                         f"(regenerate it: bindings/rust/regen): {missing}")
    assert not extra, f"declared in ctensor-sys but not in api.json: {extra}"


def test_rust_safe_crate_covers_api():
    used = coverage.identifiers_in(sorted((ROOT / "bindings" / "rust" / "ctensor" / "src").rglob("*.rs")))
    coverage.assert_binding("Rust (safe crate)", used, RUST_SAFE_NOT_WRAPPED, HERE)


# --------------------------------------------------------------------------- Python
# The extension's C sources (bindings/python/src) name every function they call, and the
# package's Python (bindings/python/ctensor) the ones it calls through ctypes (ctensor/_capi.py).
PYTHON_NOT_WRAPPED = {
    "tensor_atleast": "atleast_1d/2d/3d are built on view in ctensor/_tensor_methods.py",
    "tensor_load_npy": "ctensor.load (ctensor/_files.py) calls tensor_load_npy_with (the same load, with progress= options)",
    "tensor_safetensors_open": "safe_open and load_file (ctensor/_files.py) call tensor_safetensors_open_with (the same open, with progress= options)",
    "tensor_thread_release_caches": "for C hosts that own their threads; the Python runtime's threads free their caches when they exit and the library frees the rest at unload",
    "tensor_storage_wrap": "Python wraps buffers with tensor_from_buffer / tensor_from_blob",
    "tensor_from_data": "nested Python data is converted element by element into a tensor_empty result (ctensor/_asarray.py), numbers through tensor_scalar_* (scalar.c)",
    "tensor_storage_refcount": "a debugging aid, not exposed in Python (Python objects hold the references)",
    "tensor_refcount": "a debugging aid, not exposed in Python (each Python object owns one reference)",
    "tensor_broadcast_to": "identical to tensor_expand, which the extension calls",
    "tensor_copy": "the extension copies through tensor_copy_with (a conversion policy)",
    "tensor_set_num_threads": "not exposed in Python yet",
    "tensor_get_num_threads": "not exposed in Python yet",
    "tensor_item_float64": "Tensor.item() converts with tensor_convert into the exact Python type",
    "tensor_item_int64": "Tensor.item() converts with tensor_convert into the exact Python type",
    "tensor_storage_new_shared": "share_memory_ moves storages in place with tensor_storage_move_to_shared, which makes the shared memory",
    **{name: "the unary family goes through tensor_unary/tensor_unary_into by op code (ctensor/_unary.py)"
       for name in UNARY_NAMED},
}


def test_python_extension_covers_api():
    src, package = ROOT / "bindings" / "python" / "src", ROOT / "bindings" / "python" / "ctensor"
    used = coverage.identifiers_in(sorted(src.glob("*.c")) + sorted(src.glob("*.h")))
    used |= coverage.identifiers_in(sorted(package.glob("*.py")), line_comment="#")  # through ctensor/_capi.py
    coverage.assert_binding("Python", used, PYTHON_NOT_WRAPPED, HERE)


# --------------------------------------------------------------------------- Java
# bindings/java/gen_native.py --check applies the same rules to the Java safe layer and
# its list, bindings/java/not-wrapped.txt; run here too, so that a machine without a JDK
# still names a function the Java binding forgot.
def test_java_binding_covers_api():
    sys.path.insert(0, str(ROOT / "bindings" / "java"))
    import gen_native
    problems = gen_native.coverage_problems(coverage.load_api())
    assert not problems, "\n" + "\n".join(problems)


# --------------------------------------------------------------------------- the helper

def test_a_new_function_fails_by_name():
    api = coverage.load_api()
    api["functions"].append({"name": "tensor_brand_new"})
    problems = coverage.check_binding("Go", go_used_names(), GO_NOT_WRAPPED, HERE, api)
    assert problems == [f"tensor_brand_new is in api.json but the Go binding neither wraps it nor lists it "
                        f"in {HERE} (wrap it, or list it there with the reason)"]


def test_stale_entries_of_a_list_fail_by_name():
    names = coverage.function_names()
    problems = coverage.check_binding("Go", set(names), {"tensor_gone": "x", names[0]: "y"}, HERE)
    assert problems == [
        f"{HERE} lists tensor_gone as not wrapped by the Go binding, but api.json has no such function",
        f"the Go binding wraps {names[0]} but {HERE} still lists it as not wrapped (remove it from the list)"]
