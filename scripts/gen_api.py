#!/usr/bin/python3
"""Generates api.json, the public C API as data, from include/*.h.

usage: gen_api.py [--check] [--include DIR] [--output FILE]

Without options it reads every include/*.h (in name order) and writes api.json at the
repository root. --check regenerates it in memory, prints every difference by name
(function, constant, struct, ...) and exits 1 when api.json is stale. Any declaration
or doc comment it cannot read makes it exit 1 naming the function, so nothing is ever
dropped silently. docs/api-json.md describes the keys.

How the header's style is read:
- Sections: a run of one-line `/* ... */` comments holding a `/* ---- */` rule opens a
  section titled by its first line, cut at the first " (", ". ", ": " or ";" (but
  "Experimental: advanced indexing" keeps its colon); `/* ---- Title ---- */` opens a
  subsection of it and `/* ---- end of ... ---- */` closes that.
- Experimental: a function is experimental inside `#ifdef CTENSOR_EXPERIMENTAL` (or
  `#if defined(CTENSOR_EXPERIMENTAL)`), inside a section or subsection whose title says
  "experimental", or when its `@since` says "(experimental)".
- Every CTENSOR_API declaration needs the `/** ... */` comment directly above it, with
  `@since`; a function returning tensor_status_t needs its statuses, either a `@return`
  naming them (`TENSOR_OK; TENSOR_E_INVALID (...); ...`) or a reference: a `@return`
  or doc that says "as tensor_x" (or "as tensor_x and tensor_y") / "See tensor_x" /
  "likewise" (the function above) inherits their statuses ("statuses_from"), minus
  those after "without", plus every other status the text names.
- Ownership: handles (pointers to an opaque typedef or a struct) given out through an
  out-parameter (`T **`, `T ***`), or returned, are "new" (the caller releases them)
  unless the doc says "borrowed"; other returned pointers (getters) are "borrowed"; a
  `const char *` return is "static" when the doc says "static string", else
  "borrowed"; a handle parameter is "borrowed" unless its @param says "taken over",
  "takes over" or "moved" ("consumed"), as is the handle a `*_release` function
  drops; plain values are "none".
- Direction: a parameter called `out`, `out_*` or `*_out`, and a non-const pointer to
  a number, or to memory or a struct whose @param says "receives", "filled" or "where
  to write", is "out"; every other parameter is "in". An out struct (e.g. an Arrow
  struct the call fills) is "new": the caller calls its release.
- Nullable (pointers passed in): the @param or the doc says "may be NULL", "or NULL"
  (not "NULL on failure"), "accepts NULL", "for NULL", "NULL-safe".
"""
import argparse
import ast
import json
import operator
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]

INTEGER_TYPES = {"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t",
                 "uint64_t", "size_t", "int"}
FLOAT_TYPES = {"double", "float"}
C_LIMITS = {"INT64_MAX": 2**63 - 1, "INT64_MIN": -2**63, "INT32_MAX": 2**31 - 1,
            "INT32_MIN": -2**31, "UINT32_MAX": 2**32 - 1, "UINT64_MAX": 2**64 - 1,
            "SIZE_MAX": 2**64 - 1}
STATUS_RE = re.compile(r"\bTENSOR_(?:OK|E_[A-Z_]+)\b")
DTYPE_RE = re.compile(r"^TENSOR_(U?INT(8|16|32|64)|B?FLOAT(16|32|64)|COMPLEX(64|128)|BOOL)$")
# Constant groups by name (first match wins); others get their prefix, lowercased:
# TENSOR_UOP_LOGICAL_NOT gives "uop", FOO_BAR_BAZ "foo_bar".
CONSTANT_GROUPS = [
    (r"^TENSOR_(OK|E_[A-Z_]+)$", "status"),
    (r"^CTENSOR_VERSION_", "version"),
    (r"^TENSOR_KIND_", "dtype_kind"),
    (r"^TENSOR_OP_", "op"),
    (r"^TENSOR_INDEX_", "index_kind"),
    (r"^TENSOR_COPY_", "copy_mode"),
    (r"^TENSOR_CONVERT_", "conversion"),
    (r"^TENSOR_[A-Z]+_FORMAT$", "memory_format"),
    (r"^TENSOR_MAP_", "map_flag"),
    (r"^TENSOR_LOAD_", "load_flag"),
    (r"^TENSOR_(MAX_DIMS|SLICE_END|ALL_DIMS)$", "limits"),
    (r"^TENSOR_READONLY$", "storage_flag"),
    (r"^DLPACK_FLAG_", "dlpack_flag"),
    (r"^DLPACK_", "dlpack_version"),
    (r"^ARROW_FLAG_", "arrow_schema_flag"),
    (r"^ARROW_DEVICE_", "arrow_device"),
    (r"^TENSOR_ARROW_", "arrow_export_flag"),
]


class ApiError(Exception):
    pass


# --------------------------------------------------------------------------- text helpers

def clean_doc(comment):
    """The text of a /** ... */ or /**< ... */ comment without its markers."""
    body = re.sub(r"^/\*\*<?|\*/$", "", comment.strip())
    lines = [re.sub(r"^\s*\*(?!/) ?", "", line).rstrip() for line in body.split("\n")]
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) == 1:
        return lines[0].strip()
    return "\n".join(lines)


def strip_comments(line):
    """One line without its /* ... */ and // comments."""
    return re.sub(r"//.*", " ", re.sub(r"/\*.*?\*/", " ", line))


def doc_tags(doc):
    """(description, {tag: [texts]}) of a cleaned doc comment."""
    parts = re.split(r"(?:^|(?<=\s))@(\w+)\b", doc)
    tags = {}
    for tag, text in zip(parts[1::2], parts[2::2]):
        tags.setdefault(tag, []).append(" ".join(text.split()))
    return " ".join(parts[0].split()), tags


def eval_int(expr, known):
    """Value of an integer #define expression, or None when it is not one."""
    expr = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr.strip())
    expr = re.sub(r"\(\s*(?:u?int(?:8|16|32|64)_t|size_t|tensor_\w+_t)\s*\)", "", expr)  # casts
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return None
    ops = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.LShift: operator.lshift, ast.RShift: operator.rshift, ast.BitOr: operator.or_,
           ast.BitAnd: operator.and_, ast.USub: operator.neg, ast.Invert: operator.invert}

    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.Name) and node.id in known:
            return known[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in ops:
            return ops[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in ops:
            return ops[type(node.op)](value(node.operand))
        raise ValueError
    try:
        return value(tree.body)
    except ValueError:
        return None


def section_title(text):
    cut = re.search(r" \(|\. |\.$|;|: ", text)
    if cut and cut.group() == ": " and text[:cut.start()] == "Experimental":
        rest = text[cut.end():]
        inner = re.search(r" \(|\. |\.$|;|: ", rest)
        return text[:cut.end()] + (rest[:inner.start()] if inner else rest)
    return (text[:cut.start()] if cut else text).strip()


# --------------------------------------------------------------------------- one header

class Header:
    """Reads one header line by line into api.json's lists."""

    def __init__(self, path, api):
        self.name = path.name
        self.api = api
        self.lines = path.read_text().split("\n")
        self.section = None
        self.section_experimental = False
        self.subsection = None
        self.subsection_experimental = False
        self.conditions = []       # one (active, experimental) per open #if
        self.doc = None            # (text, line index of its last line) of the last /** */

    # -- state
    def active(self):
        return all(active for active, _ in self.conditions)

    def in_experimental_block(self):
        return any(exp for _, exp in self.conditions)

    def current_section(self):
        return self.subsection or self.section

    def section_is_experimental(self):
        return self.section_experimental or self.subsection_experimental

    def take_doc(self, index):
        """The doc comment ending on the line just above `index`, if any."""
        if self.doc and self.doc[1] == index - 1:
            return self.doc[0]
        return None

    # -- the walk
    def parse(self):
        i = 0
        lines = self.lines
        while i < len(lines):
            line = lines[i]
            stripped = line.strip()
            if stripped.startswith("#"):
                i = self.preprocessor(i)
                continue
            if not self.active():
                i += 1
                continue
            if stripped.startswith("//"):
                i += 1
                continue
            if stripped.startswith("/**"):
                end = i
                while "*/" not in lines[end]:
                    end += 1
                self.doc = (clean_doc("\n".join(l.strip() for l in lines[i:end + 1])), end)
                i = end + 1
                continue
            if stripped.startswith("/*") and "*/" not in stripped:
                while "*/" not in lines[i]:
                    i += 1
                i += 1
                continue
            if re.match(r"^/\*.*\*/$", stripped):
                i = self.banner(i)
                continue
            if stripped.startswith("CTENSOR_API"):
                i = self.function(i)
                continue
            if stripped.startswith("typedef") or re.match(r"^struct\s+\w+\s*\{", stripped):
                i = self.typedef(i)
                continue
            if stripped:
                # e.g. a declaration made by a macro: it would be missing from api.json
                raise ApiError(f"{self.name}:{i + 1}: cannot read {stripped[:80]!r} (not a comment, "
                               f"directive, CTENSOR_API declaration, typedef or struct)")
            i += 1

    def preprocessor(self, i):
        first, raw = i, self.lines[i].strip()
        # continuation lines, and a comment that goes on below the directive
        while raw.endswith("\\") or raw.count("/*") > raw.count("*/"):
            i += 1
            raw = (raw[:-1] if raw.endswith("\\") else raw) + " " + self.lines[i].strip()
        text = re.sub(r"/\*.*?\*/", "", raw).strip()
        m = re.match(r"#\s*(\w+)\s*(.*)", text)
        directive, rest = m.group(1), m.group(2).strip()
        cplusplus = rest in ("__cplusplus", "defined(__cplusplus)")
        experimental = "CTENSOR_EXPERIMENTAL" in rest and "!" not in rest
        if directive in ("if", "ifdef"):
            self.conditions.append((not cplusplus, experimental))
        elif directive == "ifndef":
            self.conditions.append((True, False))
        elif directive in ("else", "elif"):
            active, exp = self.conditions.pop()
            self.conditions.append((True, False) if not active else (True, exp and directive == "elif"))
        elif directive == "endif":
            self.conditions.pop()
        elif directive == "define" and self.active():
            self.define(rest, raw, first)
        return i + 1

    def define(self, rest, raw, i):
        """A constant from `#define NAME value` (rest: after the directive, comments
        removed; raw: the whole directive with its comments; i: its first line)."""
        m = re.match(r"(\w+)\s+(.*)", rest)
        if not m:
            return
        name, body = m.group(1), m.group(2).strip()
        trailing = re.search(r"/\*\*<(.*?)\*/", raw)
        known = dict(C_LIMITS)
        known.update({c["name"]: c["value"] for c in self.api["constants"]})
        value = eval_int(body, known)
        if value is None:
            return
        entry = {"name": name, "value": value, "group": constant_group(name, self.section),
                 "header": self.name}
        if body != str(value):
            entry["c"] = " ".join(body.split())
        doc = clean_doc("/**<" + trailing.group(1) + "*/") if trailing else self.take_doc(i)
        if doc:
            entry["doc"] = " ".join(doc.split())
        self.api["constants"].append(entry)

    def banner(self, i):
        run = []
        while i < len(self.lines) and re.match(r"^/\*(?!\*).*\*/$", self.lines[i].strip()):
            run.append(self.lines[i].strip()[2:-2].strip())
            i += 1
        sub = re.match(r"^-{2,}\s+(.+?)\s+-{2,}$", run[0])
        if sub:
            title = sub.group(1)
            if title.startswith("end of"):
                self.subsection, self.subsection_experimental = None, False
            else:
                self.subsection = section_title(title)
                self.subsection_experimental = "experimental" in title.lower()
            return i
        if any(re.fullmatch(r"-{4,}", text) for text in run):
            texts = [text for text in run if text and not re.fullmatch(r"-{4,}", text)]
            if texts:
                self.section = section_title(texts[0])
                self.section_experimental = "experimental" in self.section.lower()
                self.subsection, self.subsection_experimental = None, False
        return i

    def statement(self, i):
        """The declaration starting at line i up to its ';' (comments removed)."""
        text, j = "", i
        while True:
            text += " " + strip_comments(self.lines[j])
            j += 1
            if ";" in text or j >= len(self.lines):
                break
        return " ".join(text.split()), j

    def function(self, i):
        text, end = self.statement(i)
        guess = re.search(r"(\w+)\s*\(", text)
        fname = guess.group(1) if guess else text[:60]
        m = re.fullmatch(r"CTENSOR_API\s+(.+?)\b(\w+)\s*\(([^()]*)\)\s*;", text)
        if not m:
            raise ApiError(f"{fname}: cannot parse the declaration {text!r}")
        ret_text, name, params_text = m.group(1), m.group(2), m.group(3).strip()
        doc = self.take_doc(i)
        if doc is None:
            raise ApiError(f"{name}: no /** ... */ doc comment directly above its declaration")
        desc, tags = doc_tags(doc)
        if "since" not in tags:
            raise ApiError(f"{name}: its doc comment has no @since")
        since_m = re.match(r"(\d+\.\d+(?:\.\d+)?)\s*(\(experimental\))?", tags["since"][0])
        if not since_m:
            raise ApiError(f"{name}: cannot read @since {tags['since'][0]!r}")
        returns = self.api_type(ret_text.strip(), name, "return type")
        param_docs = {}
        for text_ in tags.get("param", []):
            pm = re.match(r"((?:\w+\s*,\s*)*\w+)\s*(.*)", text_)
            for pname in re.split(r"\s*,\s*", pm.group(1)):
                param_docs[pname] = pm.group(2)
        params = []
        if params_text not in ("", "void"):
            for ptext in params_text.split(","):
                pm = re.fullmatch(r"(.*?)\b(\w+)", ptext.strip())
                if not pm or pm.group(2) in ("void", "const") or not pm.group(1).strip():
                    raise ApiError(f"{name}: cannot parse the parameter {ptext.strip()!r}")
                param = {"name": pm.group(2)}
                param.update(self.api_type(pm.group(1).strip(), name, f"parameter {pm.group(2)}"))
                params.append(param)
        names = [p["name"] for p in params]
        for pname in param_docs:
            if pname not in names:
                raise ApiError(f"{name}: @param {pname} names no parameter (it has {names})")
        for index, p in enumerate(params):
            releases = index == 0 and name.endswith("_release") and p["pointer_depth"] > 0
            describe_param(p, param_docs.get(p["name"], ""), doc, self.section, releases)
        entry = {
            "name": name,
            "header": self.name,
            "section": self.current_section(),
            "doc": doc,
            "description": desc,
            "returns": returns,
            "returns_ownership": return_ownership(returns, doc),
            "params": params,
            "since": since_m.group(1),
            "experimental": bool(since_m.group(2)) or self.in_experimental_block()
                            or self.section_is_experimental(),
            "_return_text": tags.get("return", [None])[0],
        }
        for p in params:
            if p["name"] in param_docs:
                p["doc"] = param_docs[p["name"]]
        safety = thread_safety(doc)
        if safety:
            entry["thread_safety"] = safety
        self.api["functions"].append(entry)
        return end

    def typedef(self, i):
        text, end = self.statement(i)
        if "{" in text:
            # a struct or enum body: read up to the closing brace's ';'
            depth, j, body = 0, i, ""
            while True:
                if self.lines[j].strip().startswith("#"):
                    j = self.preprocessor(j)
                    continue
                line = strip_comments(self.lines[j])
                body += " " + line
                depth += line.count("{") - line.count("}")
                j += 1
                if depth == 0 and "}" in body and ";" in line[line.rfind("}"):]:
                    break
            text, end = " ".join(body.split()), j
        doc = self.take_doc(i)
        m = re.fullmatch(r"typedef (\w+(?: \*)?) \(\*(\w+)\)\((.*)\);", text)
        if m:
            params = [] if m.group(3) in ("", "void") else [
                dict(zip(("c", "name"), split_param(p, m.group(2)))) for p in m.group(3).split(",")]
            self.add_typedef({"name": m.group(2), "kind": "function_pointer",
                              "returns": m.group(1), "params": params}, doc)
            return end
        m = re.fullmatch(r"typedef struct (\w+) (\w+);", text)
        if m:
            self.add_typedef({"name": m.group(2), "kind": "opaque", "c": f"struct {m.group(1)}"}, doc)
            return end
        m = re.fullmatch(r"typedef (\w+) (\w+);", text)
        if m:
            if m.group(1) not in INTEGER_TYPES:
                raise ApiError(f"{m.group(2)}: typedef of unknown type {m.group(1)}")
            self.add_typedef({"name": m.group(2), "kind": "integer", "c": m.group(1)}, doc)
            return end
        m = re.fullmatch(r"typedef enum(?: : \w+)? \{(.*)\} (\w+);", text)
        if m:
            values, nxt = [], 0
            for item in filter(None, (s.strip() for s in m.group(1).split(","))):
                em = re.fullmatch(r"(\w+)(?: = (.+))?", item)
                if not em:
                    raise ApiError(f"{m.group(2)}: cannot read the enumerator {item!r}")
                if em.group(2) is not None:
                    nxt = eval_int(em.group(2), {})
                values.append({"name": em.group(1), "value": nxt})
                nxt += 1
            self.add_typedef({"name": m.group(2), "kind": "enum", "c": "int32_t", "values": values}, doc)
            return end
        m = (re.fullmatch(r"typedef struct(?: (\w+))? \{(.*)\} (\w+);", text)
             or re.fullmatch(r"struct (\w+) \{(.*)\}\s*;", text))
        if m:
            name = m.group(3) if m.lastindex == 3 else m.group(1)
            fields = []
            for ftext in filter(None, (s.strip() for s in m.group(2).split(";"))):
                fm = re.fullmatch(r"(.+?)\(\*(\w+)\)\((.*)\)", ftext)
                if fm:
                    fields.append({"name": fm.group(2), "c": f"{fm.group(1).strip()} (*)({fm.group(3)})",
                                   "kind": "function_pointer"})
                    continue
                c, fname = split_param(ftext, f"struct {name}")
                fields.append({"name": fname, "c": c})
            entry = {"name": name, "header": self.name, "fields": fields}
            if m.lastindex == 3:
                entry["typedef"] = True
            if doc:
                entry["doc"] = " ".join(doc.split())
            self.api["structs"].append(entry)
            return end
        raise ApiError(f"cannot parse the type declaration {text[:80]!r} in {self.name}")

    def add_typedef(self, entry, doc):
        entry["header"] = self.name
        if doc:
            entry["doc"] = " ".join(doc.split())
        self.api["typedefs"].append(entry)

    def api_type(self, text, fname, what):
        """{"c", "kind", "base", "base_kind", "pointer_depth", "const"} of a C type."""
        tokens = re.findall(r"\w+|\*", text)
        base_const = False
        while tokens and tokens[0] == "const":
            base_const = True
            tokens.pop(0)
        struct_kw = tokens[:1] == ["struct"]
        if struct_kw:
            tokens = tokens[1:]
        if not tokens or tokens[0] in ("*", "const"):
            raise ApiError(f"{fname}: cannot read the {what} {text!r}")
        base, rest = tokens[0], tokens[1:]
        if rest[:1] == ["const"]:
            base_const = True
            rest = rest[1:]
        stars, depth = "", 0
        for tok in rest:
            if tok == "*":
                stars += "*"
                depth += 1
            elif tok == "const" and stars:
                stars += "const "
            else:
                raise ApiError(f"{fname}: cannot read the {what} {text!r}")
        base_kind = self.base_kind(base)
        if base_kind is None:
            raise ApiError(f"{fname}: unknown type {base!r} in the {what} {text!r}")
        c = ("const " if base_const else "") + ("struct " if struct_kw else "") + base + (" " + stars.rstrip() if depth else "")
        if depth == 0:
            kind = {"integer": "integer", "float": "float", "void": "void",
                    "function_pointer": "function_pointer"}.get(base_kind)
            if base == "tensor_status_t":
                kind = "status"
            if kind is None:
                raise ApiError(f"{fname}: the {what} {text!r} passes a {base_kind} by value")
        elif depth == 1 and base_kind in ("handle", "struct"):
            kind = "handle"
        elif depth == 1 and base == "char" and base_const:
            kind = "string"
        else:
            kind = "pointer"
        return {"c": c, "kind": kind, "base": base, "base_kind": base_kind,
                "pointer_depth": depth, "const": base_const}

    def base_kind(self, base):
        if base in INTEGER_TYPES:
            return "integer"
        if base in FLOAT_TYPES:
            return "float"
        if base in ("void", "char"):
            return base
        for t in self.api["typedefs"]:
            if t["name"] == base:
                return {"opaque": "handle", "enum": "integer"}.get(t["kind"], t["kind"])
        if any(s["name"] == base for s in self.api["structs"]):
            return "struct"
        return None


def split_param(text, where):
    """(type text, name) of `const int64_t *sizes` (`int64_t reserved[3]`: "int64_t[3]")."""
    m = re.fullmatch(r"(.*?)(\w+)\s*(\[\s*\d+\s*\])?", " ".join(text.split()))
    if not m or not m.group(1).strip():
        raise ApiError(f"{where}: cannot read {text.strip()!r}")
    c = re.sub(r"\s*\*\s*", " *", m.group(1).strip()).replace("* *", "**").strip()
    return c + (m.group(3) or "").replace(" ", ""), m.group(2)


def constant_group(name, section):
    if section == "Data types" and DTYPE_RE.match(name):
        return "dtype"
    for pattern, group in CONSTANT_GROUPS:
        if re.search(pattern, name):
            return group
    parts = name.lower().split("_")
    if parts[0] in ("tensor", "ctensor"):
        return parts[1]
    return "_".join(parts[:2])


def describe_param(p, pdoc, doc, section, releases):
    """Adds direction, ownership and nullable to a parameter (see the module doc);
    `releases`: p is the handle a *_release function drops."""
    low = pdoc.lower()
    writes = re.search(r"\breceives\b|where to write|\bfilled\b", low)
    pointee_out = not p["const"] and p["pointer_depth"] == 1 and (
        p["base_kind"] in ("integer", "float") or (p["base_kind"] in ("void", "struct") and writes))
    if re.fullmatch(r"out|out_\w+|\w+_out", p["name"]) or pointee_out:
        direction = "out"
    else:
        direction = "in"
    p["direction"] = direction
    if p["pointer_depth"] == 0 or p["base_kind"] == "function_pointer":
        ownership = "none"
    elif direction == "out" and (p["base_kind"] == "struct" or
                                 (p["base_kind"] == "handle" and p["pointer_depth"] >= 2)):
        ownership = "new"  # new references, or a struct whose release the caller calls
    elif releases:
        ownership = "consumed"
    elif p["base_kind"] in ("handle", "struct") and re.search(r"\btak(?:en|es) over\b|\bconsumed\b|\bmoved\b", low):
        ownership = "consumed"
    elif direction == "out" and p["base_kind"] in ("integer", "float"):
        ownership = "none"
    else:
        ownership = "borrowed"
    p["ownership"] = ownership
    if p["pointer_depth"] and direction == "in":
        name = re.escape(p["name"])
        text = " ".join(doc.split())
        p["nullable"] = bool(
            re.search(r"may be NULL|\bor NULL\b(?! on failure)", pdoc)
            or re.search(rf"`{name}`(?: \w+)? may be NULL|\b{name} may be NULL|accepts NULL|"
                         rf"\bfor NULL\b|NULL {name} gives|if {name} is NULL|NULL-safe", text, re.I)
            or (section or "").startswith("Inspection"))
    elif p["base_kind"] == "function_pointer":
        p["nullable"] = bool(re.search(r"may be NULL", pdoc))


def return_ownership(returns, doc):
    low = " ".join(doc.lower().split())
    if returns["pointer_depth"] == 0:
        return "none"
    if returns["kind"] == "string":
        return "static" if "static string" in low else "borrowed"
    if returns["kind"] == "handle":
        return "borrowed" if "borrowed" in low else "new"
    return "borrowed"


def thread_safety(doc):
    sentences = re.split(r"(?<=\.)\s+", " ".join(doc.split()))
    found = [s for s in sentences if re.search(r"thread-safe|thread-local|any thread|whichever thread",
                                                s, re.I) and not s.startswith("@")]
    return " ".join(found) if found else None


# --------------------------------------------------------------------------- statuses

def resolve_statuses(functions, status_constants):
    """Sets each function's "statuses" (and "statuses_from"), see the module doc."""
    by_name = {f["name"]: f for f in functions}
    order = [c["name"] for c in status_constants]

    def references(text, index):
        """The functions whose statuses `text` points to ("as tensor_a and tensor_b")."""
        if re.search(r"\blikewise\b", text, re.I) and index > 0:
            return [functions[index - 1]["name"]]
        m = re.search(r"\b(?:[Aa]s|[Ss]ee|like|identical to)\s+(tensor_\w+)((?:(?:\s*,\s*|\s+and\s+)tensor_\w+)*)",
                      text)
        return [m.group(1)] + re.findall(r"tensor_\w+", m.group(2)) if m else []

    done = {}

    def statuses(index, chain=()):
        f = functions[index]
        if f["name"] in done:
            return done[f["name"]]
        if f["name"] in chain:
            raise ApiError(f"{f['name']}: its statuses refer back to itself through {list(chain)}")
        if f["returns"]["kind"] != "status":
            done[f["name"]] = ([], [])
            return done[f["name"]]
        ret = f["_return_text"]
        own_text = ret if ret is not None else f["description"]
        named = STATUS_RE.findall(own_text)
        for s in named:
            if s not in order:
                raise ApiError(f"{f['name']}: its doc names {s}, which is not a status code")
        sources = []
        if ret is None or not re.match(r"\s*TENSOR_OK\b", ret):
            sources = references(own_text, index)
            if not sources and ret is None:
                raise ApiError(f"{f['name']}: returns tensor_status_t but its doc has no @return and "
                               f"refers to no function (\"As tensor_x\") to take the statuses from")
        inherited = []
        for source in sources:
            if source not in by_name:
                raise ApiError(f"{f['name']}: takes its statuses from {source}, which is not declared")
            inherited += statuses(functions.index(by_name[source]), chain + (f["name"],))[0]
        wm = re.search(r"\bwithout\b(.*)", own_text) if sources else None
        without = set(STATUS_RE.findall(wm.group(1))) if wm else set()
        result = [s for s in inherited + named if s not in without]
        if "TENSOR_OK" not in result:
            raise ApiError(f"{f['name']}: cannot read which statuses it returns from {own_text!r}")
        done[f["name"]] = (sorted(set(result), key=order.index), sources)
        return done[f["name"]]

    for index, f in enumerate(functions):
        result, sources = statuses(index)
        f["statuses"] = result
        if sources:
            f["statuses_from"] = sources


# --------------------------------------------------------------------------- the whole API

DTYPE_KINDS = {"BOOL": "bool", "INT": "int", "UINT": "int", "FLOAT": "float", "BFLOAT": "float",
               "COMPLEX": "complex"}


def build(include_dir):
    include_dir = pathlib.Path(include_dir)
    headers = sorted(include_dir.glob("*.h"))
    if not headers:
        raise ApiError(f"no headers under {include_dir}")
    api = {"typedefs": [], "constants": [], "structs": [], "functions": []}
    # ctensor.h first: the others' functions may use its types.
    for path in sorted(headers, key=lambda p: (p.name != "ctensor_dlpack.h", p.name != "ctensor.h", p.name)):
        Header(path, api).parse()
    # functions in header name order, each header's in its own order
    names = [p.name for p in headers]
    api["functions"].sort(key=lambda f: names.index(f["header"]))
    seen = set()
    for f in api["functions"]:
        if f["name"] in seen:
            raise ApiError(f"{f['name']}: declared twice")
        seen.add(f["name"])

    consts = {c["name"]: c for c in api["constants"]}
    statuses = sorted((c for c in api["constants"] if c["group"] == "status"), key=lambda c: c["value"])
    resolve_statuses(api["functions"], statuses)
    for f in api["functions"]:
        del f["_return_text"]

    dtypes = []
    for c in api["constants"]:
        if c["group"] != "dtype":
            continue
        m = DTYPE_RE.match(c["name"])
        word = re.match(r"[A-Z]+", m.group(1)).group()
        bits = int(re.search(r"\d+", m.group(1)).group()) if word != "BOOL" else 8
        dtypes.append({"name": m.group(1).lower(), "macro": c["name"], "value": c["value"],
                       "size": bits // 8, "kind": DTYPE_KINDS[word],
                       "signed": word not in ("BOOL", "UINT")})
    for key in ("CTENSOR_VERSION_MAJOR", "CTENSOR_VERSION_MINOR", "CTENSOR_VERSION_PATCH"):
        if key not in consts:
            raise ApiError(f"{key} is not defined in the headers")
    version = ".".join(str(consts[k]["value"]) for k in
                       ("CTENSOR_VERSION_MAJOR", "CTENSOR_VERSION_MINOR", "CTENSOR_VERSION_PATCH"))
    return {
        "library": "ctensor",
        "version": version,
        "generated_by": "scripts/gen_api.py (do not edit: regenerate)",
        "headers": names,
        "typedefs": api["typedefs"],
        "constants": api["constants"],
        "statuses": [{"name": c["name"], "value": c["value"], "doc": c.get("doc", "")}
                     for c in statuses],
        "dtypes": sorted(dtypes, key=lambda d: d["value"]),
        "structs": api["structs"],
        "functions": api["functions"],
    }


def dumps(api):
    return json.dumps(api, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def differences(old, new):
    """Human-readable differences between two api.json objects, by name."""
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if a == b:
            continue
        if isinstance(a, list) and isinstance(b, list) and all(
                isinstance(x, dict) and "name" in x for x in a + b):
            da, db = {x["name"]: x for x in a}, {x["name"]: x for x in b}
            for name in sorted(set(da) | set(db)):
                what = key[:-1] if key.endswith("s") else key
                if name not in db:
                    out.append(f"{what} {name}: in api.json but no longer in the headers")
                elif name not in da:
                    out.append(f"{what} {name}: in the headers but not in api.json")
                elif da[name] != db[name]:
                    fields = sorted(k for k in set(da[name]) | set(db[name])
                                    if da[name].get(k) != db[name].get(k))
                    out.append(f"{what} {name}: differs in {', '.join(fields)}")
            if [x["name"] for x in a if x["name"] in db] != [x["name"] for x in b if x["name"] in da]:
                out.append(f"{key}: the order differs")
        else:
            out.append(f"{key}: {json.dumps(a)[:200]} in api.json, {json.dumps(b)[:200]} from the headers")
    return out


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with api.json, exit 1 on drift")
    parser.add_argument("--include", default=str(ROOT / "include"))
    parser.add_argument("--output", default=str(ROOT / "api.json"))
    args = parser.parse_args(argv)
    try:
        api = build(args.include)
    except ApiError as e:
        print(f"gen_api.py: {e}", file=sys.stderr)
        return 1
    text = dumps(api)
    out = pathlib.Path(args.output)
    if args.check:
        if not out.exists():
            print(f"{out} does not exist: run python3 scripts/gen_api.py", file=sys.stderr)
            return 1
        old_text = out.read_text()
        if old_text == text:
            print(f"{out.name} is up to date ({len(api['functions'])} functions)")
            return 0
        diffs = differences(json.loads(old_text), api) or ["the formatting differs"]
        for d in diffs:
            print(f"api.json is stale: {d}")
        print("regenerate it with: python3 scripts/gen_api.py", file=sys.stderr)
        return 1
    out.write_text(text)
    print(f"wrote {out} ({len(api['functions'])} functions, {len(api['constants'])} constants)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
