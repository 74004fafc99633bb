'use strict';
// Math, checked against element-wise JS loops with broadcasting.
const test = require('node:test');
const assert = require('node:assert/strict');
const ct = require('..');
const { values, broadcastMap, reduce, f32, assertClose, numel } = require('./helpers');

const OPS = {
  add: (a, b) => a + b,
  sub: (a, b) => a - b,
  mul: (a, b) => a * b,
  div: (a, b) => a / b,
  pow: (a, b) => a ** b,
  maximum: (a, b) => Math.max(a, b),
  minimum: (a, b) => Math.min(a, b),
  eq: (a, b) => a === b,
  ne: (a, b) => a !== b,
  lt: (a, b) => a < b,
  le: (a, b) => a <= b,
  gt: (a, b) => a > b,
  ge: (a, b) => a >= b,
};

test('binary ops broadcast and match JS loops (float64)', () => {
  const aShape = [3, 1, 4];
  const bShape = [2, 1];
  const a = Float64Array.from(values(numel(aShape), { seed: 11, lo: 0.5, hi: 3 }));
  const b = Float64Array.from(values(numel(bShape), { seed: 12, lo: 0.5, hi: 3 }));
  b[0] = a[0]; // an equal pair for the comparisons
  const ta = ct.fromTypedArray(a, { shape: aShape });
  const tb = ct.fromTypedArray(b, { shape: bShape });
  for (const [name, fn] of Object.entries(OPS)) {
    const { shape, out } = broadcastMap(a, aShape, b, bShape, fn);
    const r = ta[name](tb);
    assert.deepEqual(r.shape, shape, name);
    if (typeof out[0] === 'boolean') {
      assert.equal(r.dtype, 'bool', name);
      assert.deepEqual(r.toArray().flat(2), out, name);
    } else {
      assert.equal(r.dtype, 'float64', name);
      assertClose(assert, r.toArray().flat(2), out, 1e-12, name);
    }
  }
});

test('integer ops, promotion and scalars follow PyTorch', () => {
  const a = new Int32Array([7, -7, 9, 0]);
  const b = new Int32Array([2, 2, -4, 5]);
  const ta = ct.fromTypedArray(a);
  const tb = ct.fromTypedArray(b);
  assert.deepEqual(ta.add(tb).toArray(), [9, -5, 5, 5]);
  assert.equal(ta.add(tb).dtype, 'int32');
  assert.deepEqual(ta.mul(3).toArray(), [21, -21, 27, 0]);
  assert.equal(ta.mul(3).dtype, 'int32');
  // Integer true division gives float32.
  const q = ta.div(tb);
  assert.equal(q.dtype, 'float32');
  assert.deepEqual(q.toArray(), [7 / 2, -7 / 2, 9 / -4, 0].map(f32));
  // A float scalar turns integers into float32.
  assert.equal(ta.add(0.5).dtype, 'float32');
  assert.deepEqual(ta.add(0.5).toArray(), [7.5, -6.5, 9.5, 0.5]);
  // int32 with int64 promotes to int64.
  assert.equal(ta.add(ct.tensor([1n, 2n, 3n, 4n])).dtype, 'int64');
  assert.deepEqual(ta.ge(0).toArray(), [true, false, true, true]);
  assert.deepEqual(ta.maximum(tb).toArray(), [7, 2, 9, 5]);
  assert.deepEqual(ta.neg().toArray(), [-7, 7, -9, 0]);
  assert.deepEqual(ta.abs().toArray(), [7, 7, 9, 0]);
  assert.throws(() => ta.add(ct.zeros([3], 'int32')), (e) => e instanceof ct.ShapeError && e.code === 'TENSOR_E_SHAPE');
});

test('reductions over dims match JS loops', () => {
  const shape = [3, 4, 5];
  const data = Float64Array.from(values(numel(shape), { seed: 21, lo: -2, hi: 2 }));
  const t = ct.fromTypedArray(data, { shape });
  const cases = {
    sum: [(a, b) => a + b, 0],
    prod: [(a, b) => a * b, 1],
    amax: [(a, b) => Math.max(a, b), -Infinity],
    amin: [(a, b) => Math.min(a, b), Infinity],
  };
  for (const dims of [[0], [1], [2], [0, 2], [0, 1, 2]]) {
    for (const [name, [fn, init]] of Object.entries(cases)) {
      const expected = reduce(data, shape, dims, fn, init);
      const r = t[name](dims);
      assert.deepEqual(r.shape, expected.shape, `${name} ${dims}`);
      assertClose(assert, Array.from(r.toTypedArray()), expected.out, 1e-12, `${name} ${dims}`);
    }
    const sum = reduce(data, shape, dims, (a, b) => a + b, 0);
    const count = dims.reduce((n, d) => n * shape[d], 1);
    assertClose(assert, Array.from(t.mean(dims).toTypedArray()), sum.out.map((s) => s / count), 1e-12, `mean ${dims}`);
  }
  assert.deepEqual(t.sum([1], true).shape, [3, 1, 5]);
  assert.deepEqual(t.sum(-1).shape, [3, 4]);
  assertClose(assert, [t.sum().item()], [data.reduce((a, b) => a + b, 0)], 1e-12);
  // sum of integers gives int64; mean of integers is refused.
  const ints = ct.tensor([1, 2, 3], { dtype: 'int8' });
  assert.equal(ints.sum().dtype, 'int64');
  assert.equal(ints.sum().item(), 6n);
  assert.throws(() => ints.mean(), (e) => e instanceof ct.DtypeError && e.status === 6);
  assert.throws(() => ct.zeros([0]).amax(), ct.ShapeError);
});

test('item returns numbers, BigInts and booleans; it needs one element', () => {
  assert.equal(ct.tensor([2.5], { dtype: 'float64' }).item(), 2.5);
  assert.equal(ct.tensor([2n ** 60n]).item(), 2n ** 60n);
  assert.equal(ct.tensor([2n ** 64n - 1n], { dtype: 'uint64' }).item(), 2n ** 64n - 1n);
  assert.equal(ct.tensor([true]).item(), true);
  assert.throws(() => ct.zeros([2]).item(), ct.ShapeError);
});

test('cat and stack match JS concatenation', () => {
  const a = ct.tensor([[1, 2], [3, 4]]);
  const b = ct.tensor([[5, 6]]);
  assert.deepEqual(ct.cat([a, b]).toArray(), [[1, 2], [3, 4], [5, 6]]);
  assert.deepEqual(ct.cat([a, a], 1).toArray(), [[1, 2, 1, 2], [3, 4, 3, 4]]);
  assert.deepEqual(ct.stack([a, a], 2).toArray(), [[[1, 1], [2, 2]], [[3, 3], [4, 4]]]);
  assert.throws(() => ct.stack([a, b]), ct.ShapeError);
  assert.throws(() => ct.cat([a, 'b']), TypeError);
});

test('equal, allclose, resultType, binaryInto, conj, nonzero', () => {
  const a = ct.tensor([1, 2, 3], { dtype: 'float64' });
  const b = ct.tensor([1, 2, 3 + 1e-9], { dtype: 'float64' });
  assert.equal(ct.equal(a, a.clone()), true);
  assert.equal(ct.equal(a, b), false);
  assert.equal(ct.allclose(a, b), true);
  assert.equal(ct.allclose(a, b, { rtol: 0, atol: 0 }), false);
  const nan = ct.tensor([NaN], { dtype: 'float64' });
  assert.equal(ct.allclose(nan, nan), false);
  assert.equal(ct.allclose(nan, nan, { equalNan: true }), true);
  assert.equal(ct.resultType(a, ct.zeros([1], 'int64')), 'float64');
  const dst = ct.zeros([3], 'float64');
  assert.equal(ct.binaryInto(dst, 'mul', a, 2), dst);
  assert.deepEqual(dst.toArray(), [2, 4, 6]);
  ct.binaryInto(dst, 'add', dst, a); // in place: dst += a
  assert.deepEqual(dst.toArray(), [3, 6, 9]);
  assert.throws(() => ct.binaryInto(dst, 'xor', a, a), ct.InvalidArgumentError);
  const c = ct.fromTypedArray(new Float64Array([1, 2, 3, -4]), { dtype: 'complex128' });
  assert.deepEqual(c.conjPhysical().toArray(), [[1, -2], [3, 4]]);
  assert.deepEqual(c.conj().toArray(), [[1, -2], [3, 4]]);
  assert.deepEqual(ct.tensor([[0, 1], [2, 0]]).nonzero().toArray(), [[0n, 1n], [1n, 0n]]);
});

test('indexGather and indexPut index with integer tensors', () => {
  const t = ct.tensor([[10, 11, 12], [20, 21, 22]], { dtype: 'int32' });
  const rows = ct.tensor([1n, 0n, 1n]);
  const cols = ct.tensor([2n, 0n, -1n]);
  assert.deepEqual(ct.indexGather(t, [0, 1], [rows, cols]).toArray(), [22, 10, 22]);
  ct.indexPut(t, [1], [ct.tensor([0n])], 0);
  assert.deepEqual(t.toArray(), [[0, 11, 12], [0, 21, 22]]);
  assert.throws(() => ct.indexGather(t, [0], [ct.tensor([5n])]), ct.BoundsError);
});

test('clamp, where, argmax/argmin, cumsum/cumprod, softmax/logSoftmax match JS loops', () => {
  const xs = [3, -1, 4, -1, 5, -9];
  const t = ct.tensor(xs, { dtype: 'float64', shape: [2, 3] });
  assert.deepEqual(t.clamp(-2, 4).toArray(), [[3, -1, 4], [-1, 4, -2]]);
  assert.deepEqual(t.clamp(null, 0).toArray(), [[0, -1, 0], [-1, 0, -9]]);
  assert.deepEqual(t.gt(0).where(t, 0).toArray(), [[3, 0, 4], [0, 5, 0]]);
  assert.equal(t.argmax().item(), BigInt(xs.indexOf(Math.max(...xs))));
  assert.deepEqual(t.argmin(1).toArray(), [1n, 2n]);
  assert.deepEqual(t.argmax(0, true).shape, [1, 3]);
  assert.deepEqual(t.cumsum(1).toArray(), [[3, 2, 6], [-1, 4, -5]]);
  assert.deepEqual(t.cumprod(0).toArray(), [[3, -1, 4], [-3, -5, -36]]);
  const sm = t.softmax(1).toArray();
  const lsm = t.logSoftmax(1).toArray();
  [[3, -1, 4], [-1, 5, -9]].forEach((row, i) => {
    const m = Math.max(...row);
    const z = row.reduce((s, v) => s + Math.exp(v - m), 0);
    assertClose(assert, sm[i], row.map((v) => Math.exp(v - m) / z), 1e-12, 'softmax');
    assertClose(assert, lsm[i], row.map((v) => v - m - Math.log(z)), 1e-12, 'logSoftmax');
  });
  assert.throws(() => t.clamp(), ct.InvalidArgumentError);
  assert.throws(() => ct.zeros([0]).argmax(), ct.ShapeError);
});
