'use strict';
// Independent references for the tests: plain JS loops over TypedArrays, never the
// library.

/** Deterministic pseudo-random numbers (a 32-bit LCG), so that failures reproduce. */
function rng(seed = 1) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** n values, integers in [lo, hi) when `int`, else floats in [lo, hi). */
function values(n, { seed = 1, lo = -10, hi = 10, int = false } = {}) {
  const r = rng(seed);
  return Array.from({ length: n }, () => {
    const v = lo + r() * (hi - lo);
    return int ? Math.floor(v) : v;
  });
}

function numel(shape) { return shape.reduce((a, b) => a * b, 1); }

function contiguousStrides(shape) {
  const strides = new Array(shape.length);
  let s = 1;
  for (let d = shape.length - 1; d >= 0; --d) {
    strides[d] = s;
    s *= Math.max(shape[d], 1); // PyTorch's rule: a size-0 dim counts as 1
  }
  return strides;
}

/** Every index tuple of `shape` in C order. */
function* indices(shape) {
  const n = numel(shape);
  const idx = new Array(shape.length).fill(0);
  for (let k = 0; k < n; ++k) {
    yield idx.slice();
    for (let d = shape.length - 1; d >= 0; --d) {
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
    }
  }
}

/** The elements a strided view of `base` (flat storage) addresses, in C order. */
function gather(base, shape, strides, offset) {
  const out = [];
  for (const idx of indices(shape)) {
    let pos = offset;
    for (let d = 0; d < idx.length; ++d) pos += idx[d] * strides[d];
    out.push(base[pos]);
  }
  return out;
}

/** The flat position in a broadcast operand of `shape` for the output index `idx`. */
function broadcastIndex(idx, shape) {
  const lead = idx.length - shape.length;
  let pos = 0;
  const strides = contiguousStrides(shape);
  for (let d = 0; d < shape.length; ++d) {
    pos += (shape[d] === 1 ? 0 : idx[lead + d]) * strides[d];
  }
  return pos;
}

function broadcastShape(a, b) {
  const n = Math.max(a.length, b.length);
  const out = [];
  for (let i = 0; i < n; ++i) {
    const x = a[a.length - n + i] ?? 1;
    const y = b[b.length - n + i] ?? 1;
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** Element-wise `fn` with broadcasting over flat C-order arrays. */
function broadcastMap(a, aShape, b, bShape, fn) {
  const shape = broadcastShape(aShape, bShape);
  const out = [];
  for (const idx of indices(shape)) out.push(fn(a[broadcastIndex(idx, aShape)], b[broadcastIndex(idx, bShape)]));
  return { shape, out };
}

/** A reduction over `dims` of a flat C-order array with `init` and `fn`. */
function reduce(data, shape, dims, fn, init) {
  const keep = shape.map((_, d) => !dims.includes(d));
  const outShape = shape.filter((_, d) => keep[d]);
  const out = new Array(numel(outShape)).fill(init);
  const outStrides = contiguousStrides(outShape);
  let k = 0;
  for (const idx of indices(shape)) {
    let pos = 0;
    let j = 0;
    for (let d = 0; d < shape.length; ++d) if (keep[d]) pos += idx[d] * outStrides[j++];
    out[pos] = fn(out[pos], data[k++]);
  }
  return { shape: outShape, out };
}

/** Float32 rounding of a double, as the library stores float32 results. */
const f32 = Math.fround;

function assertClose(assert, actual, expected, tol = 1e-6, message = '') {
  assert.equal(actual.length, expected.length, `${message} length`);
  for (let i = 0; i < expected.length; ++i) {
    const a = Number(actual[i]);
    const e = Number(expected[i]);
    if (Number.isNaN(e)) {
      assert.ok(Number.isNaN(a), `${message} [${i}]: ${a} is not NaN`);
    } else {
      assert.ok(a === e || Math.abs(a - e) <= tol * Math.max(1, Math.abs(e)), `${message} [${i}]: ${a} != ${e}`);
    }
  }
}

module.exports = {
  rng, values, numel, contiguousStrides, indices, gather, broadcastShape, broadcastMap, reduce, f32, assertClose,
};
