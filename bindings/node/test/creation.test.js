'use strict';
// Creation and zero-copy: tensors from JS data (copies) and over JS TypedArrays (no
// copy), and element data seen from JS over ctensor memory.
const test = require('node:test');
const assert = require('node:assert/strict');
const ct = require('..');
const { values, f32, contiguousStrides } = require('./helpers');

test('zeros, ones, full and empty have the shape, dtype and contiguous strides asked for', () => {
  for (const [shape, dtype] of [[[2, 3, 4], 'float32'], [[5], 'int64'], [[], 'float64'], [[3, 0, 2], 'int8']]) {
    const z = ct.zeros(shape, dtype);
    assert.deepEqual(z.shape, shape);
    assert.deepEqual(z.strides, contiguousStrides(shape));
    assert.equal(z.dtype, dtype);
    assert.equal(z.numel, shape.reduce((a, b) => a * b, 1));
    assert.equal(z.ndim, shape.length);
    assert.equal(z.storageOffset, 0);
    assert.equal(z.isContiguous, true);
    const flat = Array.from(z.data(), Number);
    assert.ok(flat.every((v) => v === 0));
    const o = ct.full(shape, 7, dtype);
    assert.ok(Array.from(o.data(), Number).every((v) => v === 7));
    assert.ok(Array.from(ct.ones(shape, dtype).data(), Number).every((v) => v === 1));
    assert.equal(ct.empty(shape, dtype).numel, z.numel);
  }
  assert.equal(ct.zeros([2]).dtype, 'float32');
});

test('tensor() copies nested arrays, TypedArrays and scalars with the dtype asked for', () => {
  const t = ct.tensor([[1.5, -2], [3, 4.25]]);
  assert.equal(t.dtype, 'float32');
  assert.deepEqual(t.shape, [2, 2]);
  assert.deepEqual(t.toArray(), [[1.5, -2], [3, 4.25]]);
  assert.deepEqual(ct.tensor([[1n, -2n]]).toArray(), [[1n, -2n]]);
  assert.equal(ct.tensor([[1n, -2n]]).dtype, 'int64');
  assert.deepEqual(ct.tensor([true, false]).toArray(), [true, false]);
  // float -> int truncates toward zero (the library's conversion rules).
  assert.deepEqual(ct.tensor([2.7, -2.7, 300.5], { dtype: 'int32' }).toArray(), [2, -2, 300]);
  assert.deepEqual(ct.tensor(5, { dtype: 'int16' }).shape, []);
  assert.equal(ct.tensor(5, { dtype: 'int16' }).item(), 5);
  const src = new Int32Array([1, 2, 3, 4, 5, 6]);
  const c = ct.tensor(src, { shape: [3, 2] });
  src[0] = 100; // a copy: the tensor keeps the old value
  assert.deepEqual(c.toArray(), [[1, 2], [3, 4], [5, 6]]);
  assert.deepEqual(ct.tensor(new Float64Array([0.1, 0.2]), { dtype: 'float32' }).toArray(), [f32(0.1), f32(0.2)]);
  assert.throws(() => ct.tensor([[1, 2], [3]]), ct.ShapeError);
  assert.throws(() => ct.tensor(new Float32Array(5), { shape: [2, 3] }), ct.ShapeError);
});

test('fromTypedArray shares the array memory both ways, for every TypedArray kind', () => {
  const kinds = [
    [Float32Array, 'float32', 1.5], [Float64Array, 'float64', -2.25], [Int8Array, 'int8', -7],
    [Uint8Array, 'uint8', 200], [Int16Array, 'int16', -30000], [Uint16Array, 'uint16', 60000],
    [Int32Array, 'int32', -123456], [Uint32Array, 'uint32', 4000000000],
    [BigInt64Array, 'int64', -(2n ** 62n)], [BigUint64Array, 'uint64', 2n ** 63n + 5n],
    [Uint8ClampedArray, 'uint8', 255],
  ];
  for (const [Cls, dtype, value] of kinds) {
    const arr = new Cls(6);
    const t = ct.fromTypedArray(arr, { shape: [2, 3] });
    assert.equal(t.dtype, dtype, Cls.name);
    assert.deepEqual(t.shape, [2, 3]);
    arr[4] = value; // JS write, seen by the tensor
    assert.equal(t.select(0, 1).select(0, 1).item(), value, Cls.name);
    t.select(0, 0).fill_(typeof value === 'bigint' ? 1 : 1); // tensor write, seen by JS
    assert.equal(Number(arr[0]), 1, Cls.name);
    assert.equal(Number(arr[2]), 1, Cls.name);
    assert.equal(Number(arr[3]), 0, Cls.name);
    // The tensor's own TypedArray is the same memory.
    const view = t.data();
    assert.equal(view.constructor, Cls === Uint8ClampedArray ? Uint8Array : Cls);
    view[5] = arr[4];
    assert.equal(arr[5], arr[4]);
    t.release();
  }
});

test('fromTypedArray honours byteOffset, dtype reinterpretation and float16/bfloat16 bits', () => {
  const backing = new Float32Array([9, 1, 2, 3, 9]);
  const sub = new Float32Array(backing.buffer, 4, 3);
  const t = ct.fromTypedArray(sub);
  assert.deepEqual(Array.from(t.data()), [1, 2, 3]);
  t.fill_(5);
  assert.deepEqual(Array.from(backing), [9, 5, 5, 5, 9]);
  // float16 1.0 is 0x3C00, -2.0 is 0xC000; bfloat16 1.0 is 0x3F80 (independent bit patterns).
  const h = ct.fromTypedArray(new Uint16Array([0x3c00, 0xc000]), { dtype: 'float16' });
  assert.equal(h.dtype, 'float16');
  assert.deepEqual(h.toArray(), [1, -2]);
  const bf = ct.fromTypedArray(new Uint16Array([0x3f80]), { dtype: 'bfloat16' });
  assert.deepEqual(bf.toArray(), [1]);
  const halves = ct.tensor([0.5, 65504], { dtype: 'float16' });
  assert.deepEqual(Array.from(halves.data()), [0x3800, 0x7bff]);
  const b = ct.fromTypedArray(new Uint8Array([0, 1, 1]), { dtype: 'bool' });
  assert.deepEqual(b.toArray(), [false, true, true]);
  const c = ct.fromTypedArray(new Float32Array([1, 2, 3, 4]), { dtype: 'complex64' });
  assert.deepEqual(c.shape, [2]);
  assert.deepEqual(c.toArray(), [[1, 2], [3, 4]]);
  assert.throws(() => ct.fromTypedArray(new Uint8Array(3), { dtype: 'float32' }), ct.InvalidArgumentError);
  const empty = ct.fromTypedArray(new Float64Array(0));
  assert.deepEqual(empty.shape, [0]);
});

test('a read-only wrap refuses writes with ReadonlyError, and data() of it copies', () => {
  const arr = new Float64Array([1, 2, 3]);
  const t = ct.fromTypedArray(arr, { readonly: true });
  assert.equal(t.isReadonly, true);
  assert.throws(() => t.fill_(0), (e) => e instanceof ct.ReadonlyError && e.code === 'TENSOR_E_READONLY');
  const copy = t.data();
  copy[0] = 42;
  assert.equal(arr[0], 1);
  assert.equal(t.storageBuffer().copied, true);
});

test('the wrapped ArrayBuffer lives as long as the storage, not the JS array', () => {
  let t;
  {
    const flat = ct.fromTypedArray(Float32Array.from(values(1000, { seed: 3 })));
    t = flat.narrow(0, 10, 5);
    flat.release();
  }
  global.gc();
  assert.equal(t.storageInfo().refcount, 1);
  const expected = values(1000, { seed: 3 }).slice(10, 15).map(f32);
  assert.deepEqual(t.toArray(), expected);
});

test('data() is zero-copy over ctensor memory and keeps the storage alive', () => {
  const t = ct.zeros([4, 2], 'int32');
  const before = t.storageInfo().refcount;
  const view = t.data();
  assert.equal(t.storageInfo().refcount, before + 1); // the ArrayBuffer holds one reference
  view[3] = 17;
  assert.equal(t.toArray()[1][1], 17);
  const part = t.slice(0, 2, 4);
  const slice = part.data();
  part.release();
  assert.equal(slice.length, 4);
  assert.equal(slice.byteOffset, 4 * 4);
  t.release();
  // The buffers hold their own storage references: still valid after release().
  slice[0] = 5;
  assert.equal(view[4], 5);
  assert.equal(ct.externalBuffers, true);
});

test('data() of a strided tensor throws CopyError; toTypedArray() copies any layout', () => {
  const t = ct.tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float64' }).transpose(0, 1);
  assert.throws(() => t.data(), (e) => e instanceof ct.CopyError && /not contiguous/.test(e.message));
  assert.deepEqual(Array.from(t.toTypedArray()), [1, 4, 2, 5, 3, 6]);
});

test('where the runtime refuses external buffers, data() copies and externalBuffers says so', (t) => {
  t.after(() => ct._setExternalBuffers(true));
  ct._setExternalBuffers(false);
  assert.equal(ct.externalBuffers, false);
  const x = ct.zeros([3], 'float32');
  const copy = x.data();
  copy[0] = 9;
  assert.deepEqual(x.toArray(), [0, 0, 0]);
  assert.equal(x.storageBuffer().copied, true);
  assert.equal(x.storageInfo().refcount, 1); // a copy holds no reference
});

test('wrapped and data() buffers are marked untransferable: posting them copies', async () => {
  const { MessageChannel } = require('node:worker_threads');
  const arr = new Float32Array([1, 2, 3, 4]);
  const t = ct.fromTypedArray(arr);
  const d = ct.zeros([2]).data();
  const { port1, port2 } = new MessageChannel();
  const received = new Promise((resolve) => {
    const got = [];
    port2.on('message', (m) => { got.push(m); if (got.length === 2) resolve(got); });
  });
  // In the transfer list, but untransferable: Node clones instead of detaching, so the
  // memory the tensors use never moves to another thread.
  port1.postMessage(arr, [arr.buffer]);
  port1.postMessage(d, [d.buffer]);
  const [a, b] = await received;
  port1.close();
  assert.equal(arr.length, 4);
  assert.equal(d.length, 2);
  a[0] = 99;
  b[0] = 99;
  assert.deepEqual(t.toArray(), [1, 2, 3, 4]);
  assert.equal(d[0], 0);
});

test('scalars are 0-dim wrapped numbers with PyTorch promotion', () => {
  assert.deepEqual(ct.scalar(3).shape, []);
  assert.equal(ct.scalar(3).dtype, 'int64');
  assert.equal(ct.scalar(2.5).dtype, 'float64');
  assert.equal(ct.scalar(true).dtype, 'bool');
  assert.equal(ct.scalar([1, 2]).dtype, 'complex128');
  const i8 = ct.zeros([2], 'int8');
  assert.equal(ct.resultType(i8, 3), 'int8');
  assert.equal(ct.resultType(i8, 2.5), 'float32');
  assert.equal(ct.resultType(ct.zeros([1], 'float16'), 2.5), 'float16');
});

test('emptyLike and zerosLike keep the shape, optionally the layout and a new dtype', () => {
  const src = ct.zeros([2, 3, 4]).permute([2, 0, 1]);
  const like = ct.zerosLike(src);
  assert.deepEqual(like.shape, [4, 2, 3]);
  assert.deepEqual(like.strides, [6, 3, 1]);
  const kept = ct.emptyLike(src, { preserveFormat: true, dtype: 'int16' });
  assert.deepEqual(kept.strides, src.strides);
  assert.equal(kept.dtype, 'int16');
});

test('dtypes lists every dtype with size and kind; version matches the header', () => {
  const byName = Object.fromEntries(ct.dtypes.map((d) => [d.name, d]));
  assert.equal(byName.float32.code, 6);
  assert.equal(byName.bfloat16.size, 2);
  assert.equal(byName.complex128.kind, 'complex');
  assert.equal(byName.uint8.signed, false);
  assert.equal(ct.dtypes.length, 15);
  assert.match(ct.version.string, /^\d+\.\d+\.\d+$/);
  assert.ok(ct.version.number >= ct.version.compiledNumber);
});

test('setNumThreads changes the worker count; results do not depend on it', () => {
  const before = ct.getNumThreads();
  const data = Float32Array.from(values(1 << 16, { seed: 9 }));
  const x = ct.fromTypedArray(data);
  const one = (ct.setNumThreads(1), x.sum().item());
  const two = (ct.setNumThreads(2), x.sum().item());
  ct.setNumThreads(before);
  assert.equal(ct.getNumThreads(), before);
  assert.equal(one, two);
  assert.throws(() => ct.setNumThreads(-1), ct.InvalidArgumentError);
});

test('releaseThreadCaches gives cached blocks back; tensors work as before', () => {
  for (let i = 0; i < 100; ++i) ct.zeros([2]).transpose(0, 0).release();
  ct.releaseThreadCaches();
  assert.deepEqual(ct.ones([2], 'int8').toArray(), [1, 1]);
});
