#!/usr/bin/python3
"""Generates the boundary test from api.json (the public header as data, made by
scripts/gen_api.py): for every function of ctensor.h, a call with valid arguments,
then one call per pointer parameter with that pointer NULL (TENSOR_E_INVALID with a message, *out left NULL; getters just
must not crash), `ndim` out of range, unknown dtypes, unknown flag bits, copy
modes, memory formats and conversion policies (TENSOR_E_INVALID; 0 or NULL from
functions without a status).
A pointer may be NULL where its doc comment says so ("`p` NULL means ...",
"accepts NULL", "may be NULL"), and callbacks and their contexts are opaque.
A parameter type without a rule below stops the build, so a new function is
covered as soon as it is declared (and api.json regenerated), or its new type
gets a rule.

usage: gen_boundary.py API_JSON OUTPUT.c
"""
import json
import re
import sys

# The headers whose functions are covered (another header's join once its types have rules).
BOUNDARY_HEADERS = {"ctensor.h"}

# type -> (C expression of a valid value, kind)
#   kind: "out:<release>" a result the test releases, "in" an input, "opaque"
VALID = {
    "tensor_t **": ("&out_tensor", "out:tensor"),
    "tensor_storage_t **": ("&out_storage", "out:storage"),
    "DLManagedTensorVersioned **": ("&out_managed", "out:managed"),
    "DLManagedTensor **": ("&out_legacy", "out:legacy"),
    "const tensor_t *": ("fx.t", "in"),
    "tensor_t *": ("fx.t", "in"),
    "tensor_storage_t *": ("fx.s", "in"),
    "const tensor_storage_t *": ("fx.s", "in"),
    "DLManagedTensorVersioned *": ("fresh_managed()", "in:managed"),
    "DLManagedTensor *": ("fresh_legacy()", "in:legacy"),
    "const int64_t *": (None, "in"),  # by name below
    "const int32_t *": ("fx_index_kinds", "in"),
    "void *": ("fx.buffer", "in"),
    "const void *": ("fx.buffer + 32", "in"),  # apart from "void *": tensor_convert refuses overlap
    "int32_t *": ("&out_i32", "in"),
    "const char *": ('"/nonexistent/ctensor-boundary"', "in"),
    "tensor_release_fn": ("NULL", "opaque"),
    "const tensor_load_options_t *": ("&fx_load_options", "in"),
    "int64_t": ("0", "value"),
    "int32_t": ("1", "value"),
    "uint32_t": ("0", "value"),
    "size_t": ("24", "value"),
    "double": ("1.0", "value"),
    "tensor_dtype_t": ("TENSOR_FLOAT32", "value"),
    "tensor_status_t": ("TENSOR_OK", "value"),
    "uint64_t": ("0", "value"),
    "tensor_op_t": ("0", "value"),
    "tensor_unary_op_t": ("0", "value"),
    "tensor_dtype_t *": ("&out_dtype", "in"),
    "double *": ("&out_f64", "in"),
    "int64_t *": ("&out_i64", "in"),
    "const tensor_t * const *": ("fx.tensors", "in"),
    "const char * const *": ("fx.names", "in"),
    "tensor_safetensors_t **": ("&out_safetensors", "out:safetensors"),
    "const tensor_safetensors_t *": ("fx_safetensors()", "in"),
    "tensor_safetensors_t *": ("fx_safetensors()", "in"),
}
# Code a type's rule needs, emitted only when the header uses the type (so the
# generated test compiles against headers with and without it).
EXTRA = {
    "int32_t fd": """#include <sys/mman.h>
static int fx_descriptor = -1;
/* A 24-byte memory file, as tensor_storage_new_shared makes. */
static int fx_fd(void) {
  if (fx_descriptor < 0) {
    fx_descriptor = memfd_create("ctensor-boundary", MFD_CLOEXEC);
    if (fx_descriptor < 0 || ftruncate(fx_descriptor, 24) != 0) abort();
  }
  return fx_descriptor;
}""",
    "tensor_dtype_t *": "static tensor_dtype_t out_dtype;",
    "const tensor_load_options_t *": "static const tensor_load_options_t fx_load_options = {sizeof(tensor_load_options_t), NULL, NULL, 0, 0};",
    # tensor_index's two arrays: one item, the integer 0 (fx.t[0])
    "const int32_t *": """static const int32_t fx_index_kinds[1] = {TENSOR_INDEX_INT};
static const int64_t fx_index_values[3] = {0, 0, 0};""",
    # tensor_item_* (the only users of double * results) read a one-element tensor
    "double *": """static double out_f64;
static tensor_t *fx_one_tensor;
static const tensor_t *fx_one(void) {
  if (!fx_one_tensor && tensor_zeros(&fx_one_tensor, 0, NULL, TENSOR_FLOAT32) != TENSOR_OK) abort();
  return fx_one_tensor;
}""",
    "int64_t *": "static int64_t out_i64;",
    # tensor_index_gather/put: one int64 index tensor [1] holding 0 (fx.t[:, [0]]) and a 0-dim value
    "const tensor_t * const * indices": """static tensor_t *fx_index_list[1], *fx_index_value_tensor;
static const tensor_t *const *fx_indices(void) {
  const int64_t zero = 0, one = 1;
  if (!fx_index_list[0] && tensor_from_data(&fx_index_list[0], &zero, 1, &one, TENSOR_INT64) != TENSOR_OK) abort();
  return (const tensor_t *const *)fx_index_list;
}
static const tensor_t *fx_index_value(void) {
  if (!fx_index_value_tensor && tensor_zeros(&fx_index_value_tensor, 0, NULL, TENSOR_FLOAT32) != TENSOR_OK) abort();
  return fx_index_value_tensor;
}""",
    # tensor_where's condition: a bool tensor of the fixture's shape; and the int64 [1, 3]
    # destination of tensor_argmax_into/argmin_into over dim 0 with keepdim
    "const tensor_t * cond": """static tensor_t *fx_cond_tensor, *fx_index_dst_tensor;
static const tensor_t *fx_cond(void) {
  if (!fx_cond_tensor && tensor_zeros(&fx_cond_tensor, 2, fx.sizes, TENSOR_BOOL) != TENSOR_OK) abort();
  return fx_cond_tensor;
}
static tensor_t *fx_index_dst(void) {
  const int64_t sizes[2] = {1, 3};
  if (!fx_index_dst_tensor && tensor_zeros(&fx_index_dst_tensor, 2, sizes, TENSOR_INT64) != TENSOR_OK) abort();
  return fx_index_dst_tensor;
}""",
    "tensor_safetensors_t **": """static tensor_safetensors_t *out_safetensors;""",
    "const tensor_safetensors_t *": """static tensor_safetensors_t *fx_st;
/* An open file holding the fixture tensor as "a". */
static tensor_safetensors_t *fx_safetensors(void) {
  if (!fx_st) {
    char path[64];
    snprintf(path, sizeof path, "/tmp/ctensor-boundary-%d.safetensors", (int)getpid());
    const tensor_t *tensors[1] = {fx.t};
    if (tensor_safetensors_save(path, 1, fx.names, tensors, 0, fx.names, fx.names) != TENSOR_OK ||
        tensor_safetensors_open(&fx_st, path, 0) != TENSOR_OK)
      abort();
    remove(path);
  }
  return fx_st;
}""",
}
# How a result of each out kind is released (beyond the fixture's own kinds).
RELEASE = {"safetensors": "tensor_safetensors_release"}
ARRAYS = {"sizes": "fx.sizes", "strides": "fx.strides", "dims": "fx.dims", "values": "fx_index_values",
          "source": "fx.dims", "destination": "fx.dims", "indices": "fx.dims"}
VALUES = {"fd": "fx_fd()", "ndim": "2", "n": "1", "n_meta": "1", "dim1": "1", "end_dim": "-1", "length": "1", "stop": "1", "step": "1",
          "count": "-1", "copy": "TENSOR_COPY_ALWAYS", "memory_format": "TENSOR_PRESERVE_FORMAT",
          "conversion": "TENSOR_CONVERT_TORCH_X86",
          # the splits fill one handle (out is &out_tensor): valid calls make one piece
          "capacity": "1", "ndims": "1", "split_size": "8", "chunks": "1", "sections": "1", "min_dims": "2"}
# Values for one function's parameter, where the name's own value does not fit.
FN_VALUES = {("tensor_tensor_split_indices", "n"): "0", ("tensor_convert", "count"): "1",
             ("tensor_item_float64", "t"): "fx_one()", ("tensor_item_int64", "t"): "fx_one()",
             ("tensor_index_gather", "indices"): "fx_indices()", ("tensor_index_put", "indices"): "fx_indices()",
             ("tensor_index_put", "values"): "fx_index_value()",
             # bitwise_not takes bool and integers only: the int64 index tensor
             ("tensor_bitwise_not", "a"): "fx_indices()[0]",
             # a real dtype takes only a complex number with no imaginary part
             ("tensor_scalar_convert_complex128", "im"): "0.0",
             ("tensor_where", "cond"): "fx_cond()", ("tensor_where_into", "cond"): "fx_cond()",
             ("tensor_argmax_into", "dst"): "fx_index_dst()", ("tensor_argmin_into", "dst"): "fx_index_dst()"}
# What a function without a status gives for bad arguments, where it is not 0/NULL.
BAD_RESULTS = {"tensor_dtype_kind": "-1"}
# Strings by parameter name (paths stay nonexistent: files are opened only by the fixture).
STRINGS = {"name": '"a"', "key": '"k"'}
BAD_NDIMS = ["-1", "65", "INT64_MAX", "INT64_MIN"]
BAD_DTYPES = ["-1", "8", "12", "16", "26", "30", "INT32_MIN", "INT32_MAX"]
BAD_FLAGS = ["0x80000000u", "0xFFFFFFFFu"]
BAD_COPY_MODES = ["-1", "3", "INT32_MAX"]
BAD_MEMORY_FORMATS = ["-1", "2", "INT32_MAX", "INT32_MIN"]
BAD_CONVERSIONS = ["2u", "0x80000000u", "0xFFFFFFFFu"]


def declarations(api_json):
    """(name, return type, [(type, name)], doc) of each covered function, types spelled
    as the rules above spell them."""
    with open(api_json) as f:
        api = json.load(f)
    for fn in api["functions"]:
        if fn["header"] not in BOUNDARY_HEADERS:
            continue
        params = [(p["c"].replace("*const", "* const"), p["name"]) for p in fn["params"]]
        yield fn["name"], fn["returns"]["c"], params, " ".join(fn["doc"].split())


def null_allowed(doc, pname, ptype):
    if VALID[ptype][1] == "opaque" or pname == "ctx":
        return True
    if re.search(r"\baccepts NULL\b", doc) or re.search(r"\bEither out pointer may be NULL\b", doc):
        return True
    return bool(re.search(rf"`{pname}` (NULL means|may be NULL(?! only))", doc) or
                re.search(rf"NULL {pname} means", doc))


def valid_flags(fn, doc, docs):
    """0 unless the doc's "@param flags" names the flags to pass (or refers to
    another function's, "as tensor_x"): then the first flag it names."""
    m = re.search(r"@param flags (.*?)(?:@|$)", doc)
    text = m.group(1) if m else ""
    if not text or re.match(r"(0\b|reserved)", text):
        return "0"
    ref = re.match(r"as (tensor_\w+)", text)
    if ref and ref.group(1) in docs and ref.group(1) != fn:
        return valid_flags(ref.group(1), docs[ref.group(1)], docs)
    flag = re.search(r"\bTENSOR_[A-Z_]+\b", text)
    return flag.group(0) if flag else "0"


def valid_value(fn, ptype, pname):
    if ptype not in VALID:
        sys.exit(f"gen_boundary.py: no rule for parameter type '{ptype}' ({fn}'s {pname}); add one")
    if ptype == "const int64_t *":
        if pname not in ARRAYS:
            sys.exit(f"gen_boundary.py: no array rule for {fn}'s {pname}; add one")
        return ARRAYS[pname]
    if (fn, pname) in FN_VALUES:
        return FN_VALUES[(fn, pname)]
    if ptype == "const char *" and pname in STRINGS:
        return STRINGS[pname]
    if VALID[ptype][1] == "value":
        return FN_VALUES.get((fn, pname), VALUES.get(pname, VALID[ptype][0]))
    return VALID[ptype][0]


def emit_call(out, fn, ret, params, args, expect, what):
    """One call; `expect` is 'ok' (the valid call: anything but a crash, results
    released), 'invalid' or 'zero'."""
    out.append("  {")
    out.append("    reset_outputs();")
    extra_outs = [VALID[t][0].lstrip("&") for t, _ in params if VALID[t][1].split(":")[-1] in RELEASE]
    for var in extra_outs:
        out.append(f"    {var} = UNTOUCHED;")
    managed = [i for i, (t, _) in enumerate(params) if VALID[t][1].startswith("in:")]
    for i in managed:
        out.append(f"    void *arg{i} = {args[i]};")
        args = list(args)
        args[i] = f"arg{i}"
    call = f"{fn}({', '.join(args)})"
    status = ret == "tensor_status_t"
    if status:
        out.append(f"    const tensor_status_t st = {call};")
    elif ret == "void":
        out.append(f"    {call};")
    else:
        out.append(f"    {ret} const r = {call};")
    label = f'"{fn}: {what}"'
    if expect == "invalid" and status:
        op = fn.removeprefix("tensor_")
        out.append(f'    expect_invalid(st, {label}, "{op}");')
        for i, (t, _) in enumerate(params):
            if VALID[t][1].startswith("out:") and args[i] != "NULL":
                var = VALID[t][0].lstrip("&")
                out.append(f'    if ({var} != NULL) fail_case({label}, "*out not NULL after the failure");')
    elif expect == "ok" and status and any(n == "path" for _, n in params):
        out.append(f'    if (st == TENSOR_E_INVALID) fail_case({label}, "valid arguments refused");')
    elif expect == "ok" and status:
        out.append(f'    if (st != TENSOR_OK) fail_case({label}, tensor_status_name(st));')
    elif expect == "none" and status:
        out.append("    (void)st;")
    elif expect == "zero" and ret != "void":
        zero = BAD_RESULTS.get(fn, "NULL" if "*" in ret else "0")
        out.append(f"    if (r != {zero}) fail_case({label}, \"did not give {zero}\");")
    elif ret not in ("void", "tensor_status_t"):
        out.append("    (void)r;")
    if status:
        ok = "st == TENSOR_OK" if expect == "ok" else "0"
    else:
        ok = "1"
    for i in managed:
        kind = VALID[params[i][0]][1].split(":")[1]
        # Taken over only by a successful import; otherwise the test deletes it.
        out.append(f"    if (!({ok})) delete_{kind}(arg{i});")
    if expect == "ok":
        out.append("    ++valid_calls;")
    out.append("    release_outputs();")
    for t, _ in params:
        kind = VALID[t][1].split(":")[-1]
        if VALID[t][1].startswith("out:") and kind in RELEASE:
            var = VALID[t][0].lstrip("&")
            out.append(f"    if ({var} != UNTOUCHED) {RELEASE[kind]}({var});")
    out.append("  }")


def main(api_json, output):
    out = []
    functions = list(declarations(api_json))
    if not functions:
        sys.exit(f"gen_boundary.py: no functions of {sorted(BOUNDARY_HEADERS)} in {api_json}")
    used = {t for _, _, params, _ in functions for t, _ in params}
    used |= {f"{t} {n}" for _, _, params, _ in functions for t, n in params}
    if "tensor_safetensors_t *" in used:
        used.add("const tensor_safetensors_t *")
    out.extend(code for t, code in EXTRA.items() if t in used)
    cleanup = "  tensor_safetensors_release(fx_st);\n" if "const tensor_safetensors_t *" in used else ""
    cleanup += "  close(fx_descriptor);\n" if "int32_t fd" in used else ""
    if "const tensor_t * cond" in used:
        cleanup += "  tensor_release(fx_cond_tensor);\n  tensor_release(fx_index_dst_tensor);\n"
    out.append(f"static void release_extras(void) {{\n{cleanup}}}")
    docs = {fn: doc for fn, _, _, doc in functions}
    for fn, ret, params, doc in functions:
        if fn.endswith("_release") or fn.endswith("_retain"):
            # Take and drop a reference: NULL is the only boundary value.
            out.append(f"static void test_{fn}(void) {{")
            out.append(f"  {fn}(NULL);")
            out.append("}")
            continue
        out.append(f"static void test_{fn}(void) {{")
        valid = [valid_flags(fn, doc, docs) if (t, n) == ("uint32_t", "flags") else valid_value(fn, t, n)
                 for t, n in params]
        emit_call(out, fn, ret, params, valid, "ok", "valid arguments")
        expect_bad = "invalid" if ret == "tensor_status_t" else "zero"
        for i, (t, n) in enumerate(params):
            if "*" in t and not null_allowed(doc, n, t):
                args = list(valid)
                args[i] = "NULL"
                emit_call(out, fn, ret, params, args, "invalid" if ret == "tensor_status_t" else "none",
                          f"NULL {n}")
            bad = []
            if t == "int64_t" and n == "ndim":
                bad = BAD_NDIMS
            elif t == "tensor_dtype_t":
                bad = BAD_DTYPES
            elif t == "uint32_t" and n == "flags":
                bad = BAD_FLAGS
            elif t == "int32_t" and n == "copy":
                bad = BAD_COPY_MODES
            elif t == "int32_t" and n == "memory_format":
                bad = BAD_MEMORY_FORMATS
            elif t == "uint32_t" and n == "conversion":
                bad = BAD_CONVERSIONS
            for value in bad:
                args = list(valid)
                args[i] = value
                emit_call(out, fn, ret, params, args, expect_bad, f"{n} = {value}")
        out.append("}")
    out.append("static void (*const all_tests[])(void) = {")
    out.extend(f"    test_{fn}," for fn, *_ in functions)
    out.append("};")
    out.append(f"static const int n_functions = {len(functions)};")
    with open(output, "w") as f:
        f.write("/* Generated by tests/boundary/gen_boundary.py from api.json. */\n")
        f.write("#define _GNU_SOURCE\n")
        f.write('#include "boundary_fixture.h"\n\n')
        f.write("\n".join(out) + "\n\n")
        f.write('#include "boundary_main.h"\n')


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
