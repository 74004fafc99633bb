'use strict';
// Errors: one CTensorError subclass per status with code, status and the library's
// message; released handles and wrong arguments throw, never crash.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const ct = require('..');

const api = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'api.json'), 'utf8'));

test('every status of api.json has its class, name and number', () => {
  for (const { name, value } of api.statuses) {
    assert.equal(ct.statusName(value), name);
    if (value === 0) continue;
    const cls = ct[ct.STATUS_CLASSES[name]];
    assert.equal(typeof cls, 'function', name);
    assert.ok(cls.prototype instanceof ct.CTensorError, name);
    assert.ok(ct.CTensorError.prototype instanceof Error);
  }
  assert.equal(ct.statusName(1000), null);
  assert.equal(Object.keys(ct.STATUS_CLASSES).length, api.statuses.length - 1);
});

test('a failing call throws its subclass with code, status and the C message', () => {
  const t = ct.zeros([2, 3]);
  const cases = [
    [() => t.select(1, 5), ct.BoundsError, 'TENSOR_E_BOUNDS', 3, /select: index 5 is out of range for size 3 of dim 1/],
    [() => t.view([4, 2]), ct.ShapeError, 'TENSOR_E_SHAPE', 4, /view/],
    [() => t.transpose(0, 1).view([6]), ct.StrideError, 'TENSOR_E_STRIDE', 5, /view/],
    [() => t.transpose(0, 7), ct.InvalidArgumentError, 'TENSOR_E_INVALID', 1, /transpose/],
    [() => ct.zeros([2], 'int32').mean(), ct.DtypeError, 'TENSOR_E_DTYPE', 6, /mean/],
    [() => ct.zeros([2 ** 40, 2 ** 40]), ct.OverflowError, 'TENSOR_E_OVERFLOW', 7, /./],
    [() => ct.fromTypedArray(new Uint8Array(2), { readonly: true }).fill_(1), ct.ReadonlyError, 'TENSOR_E_READONLY', 8, /./],
    [() => ct.zeros([1]).expand([3]).fill_(1), ct.OverlapError, 'TENSOR_E_OVERLAP', 9, /./],
    [() => t.to('int8', 'never'), ct.CopyError, 'TENSOR_E_COPY', 11, /./],
    [() => ct.loadNpy('/nonexistent/x.npy'), ct.IOError, 'TENSOR_E_IO', 12, /x\.npy/],
  ];
  for (const [fn, cls, code, status, message] of cases) {
    assert.throws(fn, (e) => {
      assert.ok(e instanceof cls, `${code}: got ${e.constructor.name}: ${e.message}`);
      assert.ok(e instanceof ct.CTensorError);
      assert.equal(e.code, code);
      assert.equal(e.status, status);
      assert.equal(e.name, cls.name);
      assert.match(e.message, message);
      return true;
    });
  }
});

test('a released tensor throws on every method and getter, never crashes', () => {
  const t = ct.zeros([2, 2]);
  const other = ct.zeros([2, 2]);
  t.release();
  t.release(); // twice is harmless
  t.dispose();
  assert.equal(t.released, true);
  assert.equal(String(t), 'Tensor(released)');
  const proto = ct.Tensor.prototype;
  const names = Object.getOwnPropertyNames(proto).filter((n) => n !== 'constructor');
  let checked = 0;
  for (const name of names) {
    const desc = Object.getOwnPropertyDescriptor(proto, name);
    if (['release', 'dispose', 'released', 'toString'].includes(name)) continue;
    const call = desc.get ? () => t[name] : () => t[name](other, 0, 1);
    assert.throws(call, (e) => e instanceof ct.InvalidArgumentError && /after release/.test(e.message), name);
    checked += 1;
  }
  assert.ok(checked > 50, `${checked} members checked`);
  // A released tensor as an argument throws too.
  assert.throws(() => other.add(t), ct.InvalidArgumentError);
  assert.throws(() => ct.cat([other, t]), ct.InvalidArgumentError);
});

test('wrong arguments are TypeErrors or RangeErrors, not crashes', () => {
  const t = ct.zeros([2, 2]);
  assert.throws(() => new ct.Tensor(), TypeError);
  assert.throws(() => t.add('x'), TypeError);
  assert.throws(() => t.add({}), TypeError);
  assert.throws(() => t.view('x'), TypeError);
  assert.throws(() => t.select(0, 0.5), RangeError);
  assert.throws(() => t.select(0, 2n ** 70n), RangeError);
  assert.throws(() => ct.fromTypedArray([1, 2]), TypeError);
  assert.throws(() => ct.loadNpy(42), TypeError);
  assert.throws(() => ct.cat('ab'), TypeError);
  assert.throws(() => ct.zeros([2], 'nope'), ct.InvalidArgumentError);
  assert.throws(() => ct.zeros([-1]), ct.InvalidArgumentError);
});
