#!/usr/bin/env python3
"""Differential check of two libctensor builds on safetensors headers.

  scripts/safetensors-header-diff.py OLD/libctensor.so NEW/libctensor.so [CORPUS_DIR...]
      opens ~3300 headers (hand-picked malformed and valid ones, every
      truncation and 3000 seeded random mutations of a valid header) with each
      library, in a process of its own, and compares the statuses, messages,
      names, metadata and tensor_safetensors_get results; exits 1 on a difference.
      Each CORPUS_DIR's files (fuzz_safetensors inputs: a flags byte, then the
      file) are compared too, e.g. fuzz/corpus/fuzz_safetensors.
  scripts/safetensors-header-diff.py --emit-c LIB tests/safetensors_header_cases.h
      records LIB's outcomes for the hand-picked headers and one mutation per
      distinct outcome as the C table test_files.c checks.

Written when the one-pass header reader replaced the tree-based one (issue 30):
the tree-based reader is the reference the table was recorded from.
"""
import atexit, ctypes, os, random, re, shutil, struct, sys, tempfile
def load(p):
    lib = ctypes.CDLL(p)
    vp = ctypes.c_void_p
    lib.tensor_safetensors_open.argtypes = [ctypes.POINTER(vp), ctypes.c_char_p, ctypes.c_uint32]
    lib.tensor_safetensors_get.argtypes = [ctypes.POINTER(vp), vp, ctypes.c_char_p]
    lib.tensor_safetensors_release.argtypes = [vp]
    lib.tensor_safetensors_count.argtypes = [vp]; lib.tensor_safetensors_count.restype = ctypes.c_int64
    lib.tensor_safetensors_name.argtypes = [vp, ctypes.c_int64]; lib.tensor_safetensors_name.restype = ctypes.c_char_p
    lib.tensor_safetensors_metadata_count.argtypes = [vp]; lib.tensor_safetensors_metadata_count.restype = ctypes.c_int64
    lib.tensor_safetensors_metadata_key.argtypes = [vp, ctypes.c_int64]; lib.tensor_safetensors_metadata_key.restype = ctypes.c_char_p
    lib.tensor_safetensors_metadata.argtypes = [vp, ctypes.c_char_p]; lib.tensor_safetensors_metadata.restype = ctypes.c_char_p
    lib.tensor_last_error.restype = ctypes.c_char_p
    lib.tensor_release.argtypes = [vp]
    lib.tensor_ndim.argtypes = [vp]; lib.tensor_ndim.restype = ctypes.c_int64
    lib.tensor_sizes.argtypes = [vp]; lib.tensor_sizes.restype = ctypes.POINTER(ctypes.c_int64)
    return lib
TMP = tempfile.mkdtemp(prefix="st-diff-")
atexit.register(shutil.rmtree, TMP, True)
PATH = os.path.join(TMP, "d.safetensors").encode()
def outcome(lib, raw):
    with open(PATH, "wb") as f: f.write(raw)
    st = ctypes.c_void_p()
    s = lib.tensor_safetensors_open(ctypes.byref(st), PATH, 0)
    if s: return ("err", s, lib.tensor_last_error().replace(PATH, b"<file>"))  # each process has its own
    res = ["ok", lib.tensor_safetensors_count(st)]
    for i in range(lib.tensor_safetensors_count(st)):
        nm = lib.tensor_safetensors_name(st, i); t = ctypes.c_void_p()
        g = lib.tensor_safetensors_get(ctypes.byref(t), st, nm)
        if g: res.append((nm, g, lib.tensor_last_error()))
        else:
            res.append((nm, [lib.tensor_sizes(t)[d] for d in range(lib.tensor_ndim(t))])); lib.tensor_release(t)
    for nm in (b"__metadata__", b"nope", b"x\x00"):
        t = ctypes.c_void_p(); g = lib.tensor_safetensors_get(ctypes.byref(t), st, nm)
        res.append((nm, g, lib.tensor_last_error() if g else None))
        if not g: lib.tensor_release(t)
    for i in range(lib.tensor_safetensors_metadata_count(st)):
        k = lib.tensor_safetensors_metadata_key(st, i); res.append((k, lib.tensor_safetensors_metadata(st, k)))
    lib.tensor_safetensors_release(st)
    return tuple(res)
def image(header, data_len):
    if data_len is None: return header  # a whole file (a fuzz input's)
    h = header if isinstance(header, bytes) else header.encode()
    return struct.pack("<Q", len(h)) + h + b"\0" * data_len

T = lambda name, dt="F32", shape="[2]", off="[0,8]": f'"{name}":{{"dtype":"{dt}","shape":{shape},"data_offsets":{off}}}'
cases = []
def add(h, n): cases.append((h, n))
x = T("x")
for h in [
    "{" + x + "}", "{ " + x + " }", '{\n\t"x" : { "dtype" : "F32" , "shape" : [ 2 ] , "data_offsets" : [ 0 , 8 ] } \r\n}',
    '{"x":{"shape":[2],"data_offsets":[0,8],"dtype":"F32"}}', '{"x":{"data_offsets":[0,8],"dtype":"F32","shape":[2],"extra":{"a":[1,{"b":null}]}}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"dtype":"F32"}}',  # dup field
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"x":1}', '{"x":1,"x":2}',
    '{"\\u0078":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"\\u0078":1}',
    '{"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
    '{"\\ud83d\\ude00 é 😀":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', '{"é":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
    '{"x\\u0000y":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}', '{"x\\u0000":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"x":1}',
    '{"\\ud800":1}', '{"\\udc00x":1}', '{"\\ud800\\u0041":1}', '{"\\uZZZZ":1}', '{"\\u12":1}', '{"\\q":1}', '{"a\x01":1}', '{"a\x7f":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}',
    b'{"\xc0\x80":1}', b'{"\xed\xa0\x80":1}', b'{"\xf4\x90\x80\x80":1}', b'{"\xe2\x82":1}', b'{"\xe2\x82', b'{"a\\',
    '{"x":{"dtype":"F32","shape":[2e0],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[02],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F32","shape":[-0],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8E0]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[-0,8]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0.0,8]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8,16]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":{"0":8}}}', '{"x":{"dtype":"F32","shape":{},"data_offsets":[0,8]}}',
    '{"x":{"dtype":["F32"],"shape":[2],"data_offsets":[0,8]}}', '{"x":{"dtype":["F32",],"shape":[2],"data_offsets":[0,8]}}',
    '{"x":{"dtype":{"a":1,"a":2},"shape":[2],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":{"a":[],"a":1},"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":{"a":{},"a":{}}}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,{"a":1,"a":2}]}}',
    '{"x":{"dtype":"F32","shape":[{"a":1,"a":2}],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"z":[1,}}',
    '{"x":{"dtype":32,"shape":[2],"data_offsets":[0,8]}}', '{"x":{"dtype":null,"shape":[2],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"f32","shape":[2],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32\\u0000","shape":[2],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F8_E5M2","shape":[8],"data_offsets":[0,8]}}', '{"x":{"dtype":"F8_E5M2x","shape":[8],"data_offsets":[0,8]}}', '{"x":{"dtype":"","shape":[8],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F\\u0033\\u0032","shape":[2],"data_offsets":[0,8]}}', '{"x":{"a":1,"dtype":"F32","shape":[2],"a":2,"data_offsets":[0,8]}}',
    '{"x":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"dtype":"F32","shape":[2],"data_offsets":[0,8],"e":1}}',
    '{"x":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"dtype":"F32","shape":[2],"data_offsets":[0,8],"shape":1}}',
    '{"x":{"shape":[2],"data_offsets":[0,8],"shape":[2]}}', '{"x":{"data_offsets":[0,8],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","dtype":1}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"F32","shape":[2],"data_offsets":[8,16]},"z":{}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":["0",8]}}',
    '{"x":{"dtype":"F32","shape":[9223372036854775808,-1],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[-1,9223372036854775808],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F32","shape":[9223372036854775807],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F32","shape":[18446744073709551616],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[99999999999999999999999],"data_offsets":[0,8]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,18446744073709551615]}}', '{"x":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,0]}}',
    '{"x":{"dtype":"F32","shape":[1,[2]],"data_offsets":[0,8]}}', '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8,[[[]]]]}}',
    '{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"y":{"dtype":"bad"},"z":5}',
    '{"x":{"dtype":"bad","shape":[2],"data_offsets":[0,8]}, 1}', '{"x":{"dtype":"bad","shape":[2],"data_offsets":[0,8]},"x":1}',
    '{"x":[],"y":{"dtype":"bad"}}', '{"x":"s"}', '{"x":null}', '{"x":true}', '{"x":{}}', '{}', '{ }', '{"__metadata__":null}',
    '{"__metadata__":{}}', '{"__metadata__":{"a":"1","b":"2"},' + x + '}', '{' + x + ',"__metadata__":{"a":"1"}}',
    '{"__metadata__":{"a":"1","a":"2"},' + x + '}', '{"__metadata__":{"a":"1"},"__metadata__":null,' + x + '}',
    '{"__metadata__":[],' + x + '}', '{"__metadata__":"s",' + x + '}', '{"__metadata__":{"a":{"b":"c"}},' + x + '}',
    '{"__metadata__":{"a":["x"]},' + x + '}', '{"__metadata__":{"\\u0061":"\\u00e9"},' + x + '}',
    '{"__metadata__":{"a":"1"},"x":{"dtype":"bad"}}', '{"x":{"dtype":"bad"},"__metadata__":[]}',
    '{' + x + '} ', '{' + x + '}  x', '{' + x + '}}', '{' + x + ',}', '{' + x + ' "y":1}', '{"x" 1}', '{"x":}', '{x:1}', '{"x":1,', '{"x":1',
    '{"x":tru}', '{"x":nul}', '{"x":falsey}', '{"x":01}', '{"x":1.}', '{"x":1e}', '{"x":-}', '{"x":+1}', '{"x":.5}', '{"x":[1,]}', '{"x":[1 2]}',
    '{"x":[' * 1 + ']}', '{"a":' * 63 + '1' + '}' * 63, '{"a":' * 64 + '1' + '}' * 64, '{"a":' * 65 + '1' + '}' * 65,
    '{"x":' + '[' * 62 + ']' * 62 + '}', '{"x":' + '[' * 63 + ']' * 63 + '}', '{"x":' + '[' * 64 + ']' * 64 + '}',
    '{"x":{"dtype":"F32","shape":' + '[' * 63 + ']' * 63 + ',"data_offsets":[0,8]}}',
    T("a", off="[0,8]")[0:0] + '{' + T("a", off="[8,16]") + ',' + T("b", off="[0,8]") + '}',
    '{' + T("a", "F32", "[0]", "[0,0]") + ',' + T("b", "F32", "[0]", "[0,0]") + ',' + T("c") + '}',
    '{' + T("a", "F32", "[1]", "[0,0]") + ',' + T("b", "F32", "[0]", "[0,0]") + ',' + T("c") + '}',
    '{' + T("a", "F32", "[0]", "[0,0]") + ',' + T("b", "F32", "[1]", "[0,0]") + ',' + T("c") + '}',
    '{' + T("a") + ',' + T("b") + '}', '{' + T("a") + ',' + T("b", off="[8,8]") + '}', '{' + T("a", off="[8,0]") + '}',
    '{' + T("a", "F8_E4M3", "[8]") + '}', '{' + T("a", "U8", "[3]", "[1,4]") + ',' + T("b", "U8", "[1]", "[0,1]") + ',' + T("c", "U8", "[4]", "[4,8]") + '}',
    '{' + T("a", "F32", "[]", "[0,4]") + ',' + T("b", "F32", "[1]", "[4,8]") + '}',
]: add(h, 8)
for n in (0, 7, 9): add("{" + x + "}", n)
# many tensors (hash path), with a duplicate and escapes
many = ",".join(T(f"t{i}", "U8", "[1]", f"[{i},{i+1}]") for i in range(40))
add("{" + many + "}", 40); add("{" + many + "," + T("t17", "U8", "[1]", "[40,41]") + "}", 41)
add("{" + many + "," + T("t\\u0031\\u0037", "U8", "[1]", "[40,41]") + "}", 41)
rev = ",".join(T(f"t{i}", "U8", "[1]", f"[{39-i},{40-i}]") for i in range(40)); add("{" + rev + "}", 40)
meta40 = '{"__metadata__":{' + ",".join(f'"k{i}":"v{i}"' for i in range(40)) + '},' + x + '}'; add(meta40, 8)
add('{"__metadata__":{' + ",".join(f'"k{i}":"v{i}"' for i in range(40)) + ',"k3":"z"},' + x + '}', 8)
add('{"__metadata__":{' + ",".join(f'"k{i}":"v{i}"' for i in range(9)) + ',"k8":"z"},' + x + '}', 8)
add('{"__metadata__":{' + ",".join(f'"k{i}":"v{i}"' for i in range(8)) + ',"k7":"z"},' + x + '}', 8)
CURATED = len(cases)
# every truncation and random byte mutation of a valid header with metadata
base = '{"__metadata__":{"format":"pt","é":"\\u00e9"},' + T("w", "F32", "[2,2]", "[0,16]") + ',' + T("b\\n", "F32", "[2]", "[16,24]") + '}'
for i in range(len(base)): add(base[:i], 24)
rng = random.Random(7); bb = base.encode()
for _ in range(3000):
    b = bytearray(bb)
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(b)); op = rng.randrange(3)
        ch = rng.choice(b' {}[]",:0123456789-+.eE\\u tfnl\x00\x80\xff\xc3\xa9Fx_')
        if op == 0: b[k] = ch
        elif op == 1: b.insert(k, ch)
        else: del b[k]
    add(bytes(b), 24)
import pickle, subprocess
def run_one(lib, dirs=()):
    return pickle.loads(subprocess.run([sys.executable, __file__, "--one", lib, *dirs], check=True, capture_output=True).stdout)


def c_str(b):
    o = '"'
    for ch in b:
        c = chr(ch)
        if c in '"\\': o += "\\" + c
        elif 0x20 <= ch < 0x7f and c != '?': o += c
        else: o += "\\%03o" % ch  # three digits: a digit after it stays a digit
    return o + '"'

def emit_c(lib, out):
    picked, seen = [], set()
    for i, ((h, n), r) in enumerate(zip(cases, run_one(lib))):
        hb = h if isinstance(h, bytes) else h.encode()
        if b"\0" in hb: continue  # the C test takes headers as C strings
        if i < CURATED: picked.append((hb, n, r)); continue
        # one mutation per outcome, told apart without names, numbers and positions
        key = (r[0], r[1], re.sub(rb"'[^']*'|\[[^]]*\]|[0-9]+", b"_", r[2].split(b" at byte")[0])) if r[0] == "err" else ("ok",)
        if key not in seen: seen.add(key); picked.append((hb, n, r))
    lines = []
    for hb, n, r in picked:
        if r[0] == "err": status, expect = r[1], r[2]
        else:  # each name, '\037', the status tensor_safetensors_get gives for it
            status = 0
            expect = b"\036".join(x[0] + b"\037" + str(x[1] if isinstance(x[1], int) else 0).encode() for x in r[2:2 + r[1]])
        parts = [c_str(hb[i:i + 90]) for i in range(0, len(hb), 90)] or ['""']
        lines.append("    {" + "\n     ".join(parts) + ",\n     %d, %d, %s}," % (n, status, c_str(expect)))
    with open(out, "w") as f:
        f.write(C_HEAD + "\n".join(lines) + "\n};\n")
    print(len(picked), "cases")

C_HEAD = """/* Safetensors headers with the status and message the tree-based header
 * reader (parse_json, then the entries) gave for each, recorded from it before
 * the one-pass reader replaced it: the new one must judge them all the same.
 * Hand-picked cases (escapes and unicode in names, numbers with signs,
 * fractions, exponents, leading zeros and overflow, nesting at the depth
 * limit, duplicate keys in tensors, metadata and the top level, metadata
 * rules, offsets that gap, overlap or tie, whitespace everywhere) and one
 * mutation of a valid header per distinct outcome. For an accepted header,
 * `expect` is the tensor names in order, each followed by '\\037' and the status
 * tensor_safetensors_get gives for it, joined by '\\036'. Data: data_len zero bytes.
 * Generated by scripts/safetensors-header-diff.py --emit-c. */
static const struct {
  const char *header;
  size_t data_len;
  tensor_status_t status;
  const char *expect;
} st_header_cases[] = {
"""

def main():
    for directory in sys.argv[3:] if sys.argv[1] != "--emit-c" else []:
        for name in sorted(os.listdir(directory)):
            with open(os.path.join(directory, name), "rb") as f:
                raw = f.read()[1:]
            cases.append((raw, None))
    if sys.argv[1] == "--one":
        pickle.dump([outcome(load(sys.argv[2]), image(h, n)) for h, n in cases], sys.stdout.buffer)
        return 0
    if sys.argv[1] == "--emit-c":
        emit_c(sys.argv[2], sys.argv[3])
        return 0
    old, new = run_one(sys.argv[1], sys.argv[3:]), run_one(sys.argv[2], sys.argv[3:])
    bad = 0
    for (h, n), a, b in zip(cases, old, new):
        if a != b:
            bad += 1
            if bad <= 15: print("DIFF", repr(h)[:200], "\n  old", a, "\n  new", b)
    print(f"{len(cases)} headers, {bad} judged differently")
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
