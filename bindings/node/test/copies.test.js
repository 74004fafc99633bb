'use strict';
// Copies and conversions, checked against JS loops and the conversion rules.
const test = require('node:test');
const assert = require('node:assert/strict');
const ct = require('..');
const { values, gather, f32 } = require('./helpers');

test('contiguous shares a contiguous tensor and copies a strided one', () => {
  const data = Float32Array.from(values(12, { seed: 2 }));
  const t = ct.fromTypedArray(data, { shape: [3, 4] });
  const same = t.contiguous();
  assert.equal(same.storageInfo().nbytes, data.byteLength);
  same.fill_(1);
  assert.equal(data[0], 1); // shared
  data.set(Float32Array.from(values(12, { seed: 2 })));
  const tr = t.transpose(0, 1);
  const c = tr.contiguous();
  assert.deepEqual(c.strides, [3, 1]);
  assert.deepEqual(Array.from(c.data()), gather(data, [4, 3], [1, 4], 0));
  c.fill_(0);
  assert.notEqual(data[0], 0); // a copy
});

test('clone copies into new, writable, contiguous memory', () => {
  const data = new Int16Array([1, 2, 3, 4, 5, 6]);
  const t = ct.fromTypedArray(data, { shape: [2, 3], readonly: true });
  const c = t.slice(1, null, null, -1).clone();
  assert.equal(c.isReadonly, false);
  assert.deepEqual(c.strides, [3, 1]);
  assert.deepEqual(c.toArray(), [[3, 2, 1], [6, 5, 4]]);
  c.fill_(9);
  assert.deepEqual(Array.from(data), [1, 2, 3, 4, 5, 6]);
});

test('copy_ broadcasts and converts; it refuses overlapping and read-only destinations', () => {
  const dst = ct.zeros([2, 3], 'int32');
  const src = ct.tensor([1.9, -2.9, 3.5], { dtype: 'float64' });
  assert.equal(dst.copy_(src), dst);
  assert.deepEqual(dst.toArray(), [[1, -2, 3], [1, -2, 3]]);
  dst.copy_(7);
  assert.deepEqual(dst.toArray(), [[7, 7, 7], [7, 7, 7]]);
  const expanded = ct.zeros([3]).expand([2, 3]);
  assert.throws(() => expanded.copy_(src), (e) => e instanceof ct.OverlapError && e.status === 9);
  assert.throws(() => src.copy_(ct.zeros([2, 3])), ct.ShapeError);
  const ro = ct.fromTypedArray(new Float32Array(3), { readonly: true });
  assert.throws(() => ro.copy_(src), ct.ReadonlyError);
  // Overlapping source and destination (a shifted view of the same memory) copy correctly.
  const buf = new Float32Array([1, 2, 3, 4, 5]);
  const whole = ct.fromTypedArray(buf);
  whole.narrow(0, 1, 4).copy_(whole.narrow(0, 0, 4));
  assert.deepEqual(Array.from(buf), [1, 1, 2, 3, 4]);
});

test('to(dtype) converts by the conversion rules and honours the copy modes', () => {
  const x = ct.tensor([-3.7, 2.5, 300, -300, NaN, Infinity], { dtype: 'float64' });
  // float -> int: toward zero; NaN -> 0; out of range saturates.
  assert.deepEqual(x.to('int8').toArray(), [-3, 2, 127, -128, 0, 127]);
  assert.deepEqual(x.to('uint8').toArray(), [0, 2, 255, 0, 0, 255]);
  assert.deepEqual(x.to('bool').toArray(), [true, true, true, true, true, true]);
  // int -> narrower int wraps.
  assert.deepEqual(ct.tensor([257, -1], { dtype: 'int32' }).to('uint8').toArray(), [1, 255]);
  // float64 -> float32 rounds as Math.fround.
  const vals = values(50, { seed: 4, lo: -1e6, hi: 1e6 });
  assert.deepEqual(ct.tensor(vals, { dtype: 'float64' }).to('float32').toArray(), vals.map(f32));
  const same = x.to('float64');
  assert.equal(same.storageInfo().nbytes, x.storageInfo().nbytes);
  assert.equal(same.storageInfo().refcount, x.storageInfo().refcount);
  const always = x.to('float64', 'always');
  always.fill_(0);
  assert.equal(x.toArray()[0], -3.7);
  assert.throws(() => x.to('float32', 'never'), (e) => e instanceof ct.CopyError && e.code === 'TENSOR_E_COPY');
  assert.throws(() => x.to('float32', 'sometimes'), ct.InvalidArgumentError);
  assert.throws(() => x.to('float128'), (e) => e instanceof ct.InvalidArgumentError && /float128/.test(e.message));
  // The PyTorch x86 policy: 300.5 -> int8 is 44 (low bits of the int32 truncation).
  const t = ct.tensor([300.5], { dtype: 'float64' });
  assert.deepEqual(t.to('int8', 'always', false, true).toArray(), [44]);
  const dst = ct.zeros([1], 'int8');
  ct.copyWith(dst, t, { torchX86: true });
  assert.deepEqual(dst.toArray(), [44]);
  const kept = ct.zeros([2, 3]).transpose(0, 1).to('float64', 'always', true);
  assert.deepEqual(kept.strides, [1, 3]);
});

test('fill_ writes every element of a view only', () => {
  const data = new Float64Array(12);
  const t = ct.fromTypedArray(data, { shape: [3, 4] });
  assert.equal(t.slice(1, 1, null, 2).fill_(2.5) instanceof ct.Tensor, true);
  const expected = Array.from({ length: 12 }, (_, i) => (i % 4 === 1 || i % 4 === 3 ? 2.5 : 0));
  assert.deepEqual(Array.from(data), expected);
  const b = ct.zeros([2], 'bool');
  b.fill_(0.5);
  assert.deepEqual(b.toArray(), [true, true]);
});
