"""repr(t) as PyTorch 1.13 prints a tensor, "ctensor." standing for "torch.",
and set_printoptions. The extension's Tensor.__repr__ (and so str) calls
tensor_repr, registered by __init__.py through ctensor._C._set_repr.

Only what is printed is read: a tensor over the threshold is cut down to its
edge items (views) before tolist() fetches the values, so printing a huge
tensor reads a few dozen elements."""
import itertools
import math
import operator

from ctensor import _C


class _PrintOptions:
    precision = 4
    threshold = 1000.0
    edgeitems = 3
    linewidth = 80
    sci_mode = None  # None: chosen per tensor from its values


_opts = _PrintOptions()
# profile: (precision, threshold, edgeitems); each sets linewidth 80 too
_PROFILES = {"default": (4, 1000.0, 3), "short": (2, 1000.0, 2), "full": (4, math.inf, 3)}
# the dtypes repr leaves unnamed (torch's default float dtype, its complex twin, int64, bool)
_DEFAULT_DTYPES = (_C.float32, _C.complex64, _C.int64, _C.bool)
_INDENT = len("tensor(")


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, sci_mode=None):
    """Printing options, as torch.set_printoptions: precision (digits after the
    point, default 4), threshold (more elements than this are summarised, 1000),
    edgeitems (items kept at each end of a summarised dim, 3), linewidth (80),
    profile ('default', 'short' or 'full': sets the four first), sci_mode (True or
    False forces scientific notation on or off; None, the default, lets each
    tensor's values decide). sci_mode is reset on every call, as in torch."""
    if profile is not None and not isinstance(profile, str):
        raise TypeError(f"set_printoptions(): profile must be a str, not {type(profile).__name__}")
    if profile in _PROFILES:  # torch ignores other names
        new_precision, new_threshold, new_edgeitems = _PROFILES[profile]
        new_linewidth = 80
    else:
        new_precision, new_threshold, new_edgeitems = _opts.precision, _opts.threshold, _opts.edgeitems
        new_linewidth = _opts.linewidth
    if precision is not None:
        new_precision = operator.index(precision)
    if threshold is not None:
        new_threshold = float(threshold)
    if edgeitems is not None:
        new_edgeitems = operator.index(edgeitems)
    if linewidth is not None:
        new_linewidth = operator.index(linewidth)
    if new_precision < 0 or new_edgeitems < 0:
        raise ValueError("set_printoptions(): precision and edgeitems must be >= 0")
    _opts.precision, _opts.threshold, _opts.edgeitems = new_precision, new_threshold, new_edgeitems
    _opts.linewidth = new_linewidth
    _opts.sci_mode = None if sci_mode is None else bool(sci_mode)


def tensor_repr(t):
    """torch's repr of a plain CPU tensor; memory on another device is not read
    (printed as torch prints meta tensors: tensor(..., device='cuda:0', size=(2, 3)))."""
    dtype = t.dtype
    suffixes = []
    if t.device.type != "cpu":
        body = "..."
        suffixes += [f"device='{t.device}'", f"size={tuple(t.shape)}"]
        if dtype is not _C.float32:
            suffixes.append(f"dtype={dtype!r}")
    elif t.numel() == 0:
        body = "[]"
        if t.ndim != 1:  # the shape is shown unless it is (0,)
            suffixes.append(f"size={tuple(t.shape)}")
        if dtype is not _C.float32:
            suffixes.append(f"dtype={dtype!r}")
    else:
        body = _tensor_str(t)
        if dtype not in _DEFAULT_DTYPES:
            suffixes.append(f"dtype={dtype!r}")
    return _add_suffixes("tensor(" + body, suffixes)


def _tensor_str(t):
    """The nested rows of a non-empty tensor's values."""
    summarize = t.numel() > _opts.threshold
    values = _fetch(t, summarize)
    flat = [values] if t.ndim == 0 else values
    for _ in range(t.ndim - 1):
        flat = list(itertools.chain.from_iterable(flat))
    if t.dtype.is_complex:
        real = _Formatter([v.real for v in flat], True)
        imag = _Formatter([v.imag for v in flat], True)

        def format_value(v):
            im = (imag.format(v.imag) + "j").lstrip()
            return real.format(v.real) + (im if im[0] in "+-" else "+" + im)

        element_length = real.max_width + 2 + imag.max_width + 1  # ", " and the "j"
    else:
        formatter = _Formatter(flat, t.dtype.is_floating_point)
        format_value = formatter.format
        element_length = formatter.max_width + 2
    return _rows(values, tuple(t.shape), _INDENT, summarize, format_value, element_length)


def _fetch(t, summarize):
    """t's values as nested lists (a Python number for 0-dim); summarising, each
    dim longer than 2 * edgeitems keeps only its first and last edgeitems."""
    if t.ndim == 0:
        return t.item()
    edge = _opts.edgeitems
    if not summarize or all(n <= 2 * edge for n in t.shape):
        return t.tolist()
    n = len(t)
    if t.ndim == 1:
        return t[:edge].tolist() + t[n - edge:].tolist()
    kept = range(n) if n <= 2 * edge else [*range(edge), *range(n - edge, n)]
    return [_fetch(t[i], summarize) for i in kept]


class _Formatter:
    """How every element of one tensor is written (torch's _Formatter): one width
    for all, fixed or scientific notation and, for floats that are all integers,
    "3." as the number; chosen over the (summarised) values. format(v) is a
    str.format method: it runs without a Python frame per element."""

    def __init__(self, values, floating):
        p = _opts.precision
        if not floating:
            width = max(map(len, map(str, values)), default=1)
            self.max_width = width
            self.format = f"{{!s:>{width}}}".format  # str(), so that bools print True
            return
        finite = list(filter(math.isfinite, filter(None, values)))  # nonzero and finite
        int_mode, sci_mode, width = True, False, 1
        if finite:
            largest = max(map(abs, finite))
            smallest = min(map(abs, finite))
            int_mode = all(map(float.is_integer, finite))
            sci_mode = largest / smallest > 1000.0 or largest > 1.0e8 or (not int_mode and smallest < 1.0e-4)
            # "{:#.0f}" keeps the point: 3.0 is "3.", nan and inf stay as they are
            spec = f".{p}e" if sci_mode else "#.0f" if int_mode else f".{p}f"
            width = max(width, max(map(len, map(f"{{:{spec}}}".format, finite))))
            if _opts.sci_mode is not None:  # (torch applies it only when some value is nonzero and finite)
                sci_mode = _opts.sci_mode
        spec = f"{width}.{p}e" if sci_mode else f"#{width}.0f" if int_mode else f"{width}.{p}f"
        self.max_width = width
        self.format = f"{{:>{spec}}}".format


def _rows(values, shape, indent, summarize, format_value, element_length):
    """torch's layout: a 1-d run wraps at the line width; the slices of a dim
    are separated by as many newlines as the dims below them; a summarised dim
    shows "..." between its edges."""
    if not shape:
        return format_value(values)
    edge = _opts.edgeitems
    cut = summarize and shape[0] > 2 * edge
    if len(shape) == 1:
        items = list(map(format_value, values))
        if cut:
            items.insert(edge, " ...")
        per_line = max(1, (_opts.linewidth - indent) // element_length)
        lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
        return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"
    rows = [_rows(v, shape[1:], indent + 1, summarize, format_value, element_length) for v in values]
    if cut:
        rows.insert(edge, "...")
    return "[" + ("," + "\n" * (len(shape) - 1) + " " * (indent + 1)).join(rows) + "]"


def _add_suffixes(text, suffixes):
    """", dtype=ctensor.int32" and the like, each on a new line if it would pass
    the line width. The length counted is torch's ("torch." for "ctensor."), so
    lines break where torch's do and the text is torch's with one name replaced."""
    parts = [text]
    last_line_len = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        length = len(suffix.replace("ctensor.", "torch."))
        if last_line_len + length + 2 > _opts.linewidth:
            parts.append(",\n" + " " * _INDENT + suffix)
            last_line_len = _INDENT + length
        else:
            parts.append(", " + suffix)
            last_line_len += length + 2
    parts.append(")")
    return "".join(parts)
