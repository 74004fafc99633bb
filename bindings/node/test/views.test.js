'use strict';
// Views: sizes, strides and offsets as PyTorch gives them (worked out by hand here),
// and the elements each view reads checked against the base array indexed in JS.
const test = require('node:test');
const assert = require('node:assert/strict');
const ct = require('..');
const { values, gather, f32 } = require('./helpers');

// A [2, 3, 4] float64 tensor over a JS array whose elements are their own positions
// plus a random fraction, so that every element is distinguishable.
function base() {
  const data = Float64Array.from(values(24, { seed: 5, lo: 0, hi: 1 }), (v, i) => i + v);
  return { data, t: ct.fromTypedArray(data, { shape: [2, 3, 4] }) };
}

function flat(t) {
  return Array.from(t.toTypedArray());
}

// Checks a view's layout and that its elements are the base's at that layout.
function check(view, data, shape, strides, offset) {
  assert.deepEqual(view.shape, shape);
  assert.deepEqual(view.strides, strides);
  assert.equal(view.storageOffset, offset);
  assert.deepEqual(flat(view), gather(data, shape, strides, offset));
  assert.equal(view.storageInfo().nbytes, data.byteLength); // shares the storage
}

test('transpose, permute, movedim swap strides', () => {
  const { data, t } = base();
  check(t.transpose(0, 2), data, [4, 3, 2], [1, 4, 12], 0);
  check(t.transpose(-1, -2), data, [2, 4, 3], [12, 1, 4], 0);
  check(t.permute([1, 2, 0]), data, [3, 4, 2], [4, 1, 12], 0);
  check(t.movedim([0], [2]), data, [3, 4, 2], [4, 1, 12], 0);
  assert.equal(t.transpose(0, 1).isContiguous, false);
  assert.throws(() => t.permute([0, 1]), ct.InvalidArgumentError);
  assert.throws(() => t.transpose(0, 3), ct.InvalidArgumentError);
});

test('slice (Python semantics, negative steps), select, narrow', () => {
  const { data, t } = base();
  check(t.slice(2, 1, 3), data, [2, 3, 2], [12, 4, 1], 1);
  check(t.slice(1, null, null, 2), data, [2, 2, 4], [12, 8, 1], 0);
  check(t.slice(2, null, null, -1), data, [2, 3, 4], [12, 4, -1], 3);
  check(t.slice(1, -2, 100), data, [2, 2, 4], [12, 4, 1], 4);
  check(t.select(1, -1), data, [2, 4], [12, 1], 8);
  check(t.narrow(2, 1, 2), data, [2, 3, 2], [12, 4, 1], 1);
  check(t.select(0, 1).select(0, 2).select(0, 3), data, [], [], 23);
  assert.equal(t.select(0, 1).select(0, 2).select(0, 3).item(), data[23]);
  assert.throws(() => t.select(1, 3), (e) => e instanceof ct.BoundsError && /index 3/.test(e.message));
  assert.throws(() => t.narrow(2, 3, 2), ct.BoundsError);
  assert.throws(() => t.slice(0, 0, 1, 0), ct.InvalidArgumentError);
});

test('view, reshape, flatten, unflatten, squeeze, unsqueeze', () => {
  const { data, t } = base();
  check(t.view([6, 4]), data, [6, 4], [4, 1], 0);
  check(t.view([-1, 2]), data, [12, 2], [2, 1], 0);
  check(t.flatten(), data, [24], [1], 0);
  check(t.flatten(1), data, [2, 12], [12, 1], 0);
  check(t.unflatten(2, [2, 2]), data, [2, 3, 2, 2], [12, 4, 2, 1], 0);
  check(t.unsqueeze(1), data, [2, 1, 3, 4], [12, 12, 4, 1], 0);
  check(t.unsqueeze(1).squeeze(), data, [2, 3, 4], [12, 4, 1], 0);
  check(t.unsqueeze(0).squeeze(0), data, [2, 3, 4], [12, 4, 1], 0);
  check(t.squeeze(1), data, [2, 3, 4], [12, 4, 1], 0); // size 3: left as it is
  // view of a transpose needs a copy: StrideError; reshape copies instead.
  const tr = t.transpose(1, 2);
  assert.throws(() => tr.view([2, 12]), (e) => e instanceof ct.StrideError && e.code === 'TENSOR_E_STRIDE');
  const r = tr.reshape([2, 12]);
  assert.deepEqual(r.strides, [12, 1]);
  assert.deepEqual(flat(r), gather(data, [2, 4, 3], [12, 1, 4], 0));
  assert.notEqual(r.storageInfo().nbytes, 0);
  assert.throws(() => t.view([5, -1]), ct.ShapeError);
  assert.throws(() => t.view([-1, -1]), ct.ShapeError);
});

test('expand, broadcastTo, broadcastTensors give zero strides', () => {
  const data = new Float32Array([1, 2, 3]);
  const t = ct.fromTypedArray(data, { shape: [3, 1] });
  check(t.expand([2, 3, 4]), data, [2, 3, 4], [0, 1, 0], 0);
  check(t.broadcastTo([3, 5]), data, [3, 5], [1, 0], 0);
  check(t.expand([-1, 2]), data, [3, 2], [1, 0], 0);
  assert.throws(() => t.expand([2, 2]), ct.ShapeError);
  const [a, b] = ct.broadcastTensors([t, ct.zeros([1, 4])]);
  assert.deepEqual(a.shape, [3, 4]);
  assert.deepEqual(b.shape, [3, 4]);
  assert.deepEqual(a.strides, [1, 0]);
});

test('asStrided is bounds-checked against the storage', () => {
  const { data, t } = base();
  check(t.asStrided([3, 3], [7, 1], 2), data, [3, 3], [7, 1], 2);
  check(t.asStrided([2, 2], [-1, 4], 19), data, [2, 2], [-1, 4], 19);
  check(t.asStrided([4], null, 20), data, [4], [1], 20);
  assert.throws(() => t.asStrided([2, 3], [12, 1], 13),
    (e) => e instanceof ct.BoundsError && e.status === 3 && /storage/.test(e.message));
  assert.throws(() => t.asStrided([2], [1, 1]), ct.InvalidArgumentError);
});

test('viewDtype, diagonal, unfold, atleast', () => {
  const f = new Float32Array([1, -2]);
  const bits = ct.fromTypedArray(f).viewDtype('int32');
  const u = new Uint32Array(f.buffer);
  assert.deepEqual(bits.toArray(), [u[0] | 0, u[1] | 0]);
  const { data, t } = base();
  const sq = t.select(0, 0).narrow(1, 0, 3); // [3, 3] strides [4, 1]
  check(sq.diagonal(), data, [3], [5], 0);
  check(sq.diagonal(1), data, [2], [5], 1);
  check(t.diagonal(0, 1, 2), data, [2, 3], [12, 5], 0);
  check(t.select(0, 0).select(0, 0).unfold(0, 2, 1), data, [3, 2], [1, 1], 0);
  check(t.select(0, 0).select(0, 0).atleast(2), data, [1, 4], [4, 1], 0);
  assert.throws(() => t.atleast(4), ct.InvalidArgumentError);
});

test('index() takes integers, slices, new axes, ellipses and booleans in one view', () => {
  const { data, t } = base();
  check(t.index([1, { start: 1 }, { step: -2 }]), data, [2, 2], [4, -2], 12 + 4 + 3);
  check(t.index(['...', 0]), data, [2, 3], [12, 4], 0);
  check(t.index([null, 0]), data, [1, 3, 4], [24, 4, 1], 0);
  assert.deepEqual(t.index([0, true]).shape, [1, 3, 4]);
  assert.throws(() => t.index([2]), ct.BoundsError);
});

test('split, chunk and tensorSplit give consecutive views', () => {
  const { data, t } = base();
  const parts = t.split(3, 2);
  assert.equal(parts.length, 2);
  check(parts[0], data, [2, 3, 3], [12, 4, 1], 0);
  check(parts[1], data, [2, 3, 1], [12, 4, 1], 3);
  const sized = t.split([1, 2], 1);
  check(sized[1], data, [2, 2, 4], [12, 4, 1], 4);
  const chunks = t.chunk(2, 2);
  check(chunks[1], data, [2, 3, 2], [12, 4, 1], 2);
  const ts = t.tensorSplit([1, 3], 2);
  assert.deepEqual(ts.map((p) => p.shape[2]), [1, 2, 1]);
  assert.equal(t.tensorSplit(3, 1).length, 3);
  assert.throws(() => t.split([1, 1], 1), ct.CTensorError);
});

test('views hold the storage, not the tensor they came from', () => {
  const data = new Float32Array([1, 2, 3, 4]);
  const t = ct.fromTypedArray(data, { shape: [2, 2] });
  const v = t.transpose(0, 1);
  t.release();
  assert.equal(t.released, true);
  data[1] = 7;
  assert.deepEqual(flat(v), [1, 3, 7, 4].map(f32));
});
