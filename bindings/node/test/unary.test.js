'use strict';
// Element-wise functions against JS's Math on float64 (the library's float64 bound is
// a few ULP; the tolerance here is 1e-13 relative), and their dtype rules.
const test = require('node:test');
const assert = require('node:assert/strict');
const ct = require('..');
const { values, assertClose } = require('./helpers');

// erf by its Maclaurin series (|x| <= 3 here: 60 terms reach double precision).
function erf(x) {
  let term = x;
  let sum = x;
  for (let n = 1; n < 60; ++n) {
    term *= (-x * x) / n;
    sum += term / (2 * n + 1);
  }
  return (2 / Math.sqrt(Math.PI)) * sum;
}

// Round half to even, as PyTorch's round.
function roundEven(x) {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const REFERENCE = {
  exp: Math.exp, exp2: (x) => 2 ** x, expm1: Math.expm1, sin: Math.sin, cos: Math.cos, tan: Math.tan,
  atan: Math.atan, sinh: Math.sinh, cosh: Math.cosh, tanh: Math.tanh,
  sigmoid: (x) => 1 / (1 + Math.exp(-x)), relu: (x) => Math.max(x, 0),
  gelu: (x) => 0.5 * x * (1 + erf(x / Math.SQRT2)), erf,
  floor: Math.floor, ceil: Math.ceil, round: roundEven, trunc: Math.trunc, frac: (x) => x - Math.trunc(x),
  sign: Math.sign, reciprocal: (x) => 1 / x, square: (x) => x * x, neg: (x) => -x, abs: Math.abs,
};
const POSITIVE = { log: Math.log, log2: Math.log2, log10: Math.log10, log1p: Math.log1p, sqrt: Math.sqrt,
  rsqrt: (x) => 1 / Math.sqrt(x) };
const UNIT = { asin: Math.asin, acos: Math.acos };

test('float64 element-wise functions match JS Math', () => {
  const xs = values(200, { seed: 41, lo: -3, hi: 3 });
  xs.push(0.5, 1.5, -2.5, 2, -0);
  const t = ct.tensor(xs, { dtype: 'float64' });
  const check = (fns, input, tensorIn) => {
    for (const [name, fn] of Object.entries(fns)) {
      const r = tensorIn[name]();
      assert.equal(r.dtype, 'float64', name);
      assertClose(assert, Array.from(r.data()), input.map(fn), 1e-13, name);
      assertClose(assert, Array.from(ct.unary(name, tensorIn).data()), input.map(fn), 1e-13, `unary ${name}`);
    }
  };
  check(REFERENCE, xs, t);
  const pos = xs.map((x) => Math.abs(x) + 0.01);
  check(POSITIVE, pos, ct.tensor(pos, { dtype: 'float64' }));
  const unit = xs.map((x) => x / 3.01);
  check(UNIT, unit, ct.tensor(unit, { dtype: 'float64' }));
});

test('predicates, logical and bitwise not, and the dtype rules', () => {
  const x = ct.tensor([NaN, Infinity, -Infinity, 1, 0], { dtype: 'float32' });
  assert.deepEqual(x.isnan().toArray(), [true, false, false, false, false]);
  assert.deepEqual(x.isinf().toArray(), [false, true, true, false, false]);
  assert.deepEqual(x.isfinite().toArray(), [false, false, false, true, true]);
  assert.deepEqual(x.logicalNot().toArray(), [false, false, false, false, true]);
  const ints = ct.tensor([5, -3, 0], { dtype: 'int32' });
  assert.deepEqual(ints.bitwiseNot().toArray(), [~5, ~-3, ~0]);
  assert.equal(ints.exp().dtype, 'float32'); // integers give the default float
  assert.equal(ints.floor().dtype, 'int32'); // rounding keeps integers
  assert.throws(() => x.bitwiseNot(), ct.DtypeError);
  assert.throws(() => ct.unary('cube', x), ct.InvalidArgumentError);
});

test('unaryInto writes into dst, in place too, under the out= rules', () => {
  const data = new Float64Array([1, 4, 9]);
  const a = ct.fromTypedArray(data);
  assert.equal(ct.unaryInto(a, 'sqrt', a), a);
  assert.deepEqual(Array.from(data), [1, 2, 3]);
  const dst = ct.zeros([3], 'float32');
  ct.unaryInto(dst, 'square', a);
  assert.deepEqual(dst.toArray(), [1, 4, 9]);
  assert.throws(() => ct.unaryInto(ct.zeros([3], 'int32'), 'exp', a), ct.DtypeError);
  assert.throws(() => ct.unaryInto(ct.zeros([2]), 'exp', a), ct.ShapeError);
});
