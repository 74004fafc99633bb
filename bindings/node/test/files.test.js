'use strict';
// Files: .npy and safetensors round trips, mapping modes, mapped files and shared
// memory. The bytes written are checked against the formats' specifications in JS.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ct = require('..');
const { values, f32 } = require('./helpers');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ctensor-node-'));
test.after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('saveNpy writes the .npy format; loadNpy maps it back (read-only, writable, copy)', () => {
  const data = Float32Array.from(values(6, { seed: 31 }));
  const t = ct.fromTypedArray(data, { shape: [2, 3] });
  const file = path.join(dir, 'a.npy');
  ct.saveNpy(t.transpose(0, 1), file); // a strided tensor is written in C order
  const bytes = fs.readFileSync(file);
  assert.equal(bytes.subarray(0, 6).toString('latin1'), '\x93NUMPY');
  const headerLen = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLen).toString('latin1');
  assert.match(header, /'descr': '<f4'/);
  assert.match(header, /'shape': \(3, 2\)/);
  const body = new Float32Array(bytes.buffer.slice(bytes.byteOffset + 10 + headerLen, bytes.byteOffset + bytes.length));
  assert.deepEqual(Array.from(body), [data[0], data[3], data[1], data[4], data[2], data[5]]);

  const mapped = ct.loadNpy(file);
  assert.equal(mapped.isReadonly, true);
  assert.deepEqual(mapped.shape, [3, 2]);
  assert.deepEqual(Array.from(mapped.toTypedArray()), Array.from(body));
  assert.throws(() => mapped.fill_(0), ct.ReadonlyError);
  const cow = ct.loadNpy(file, { writable: true });
  cow.fill_(1);
  assert.deepEqual(Array.from(cow.data()), [1, 1, 1, 1, 1, 1]);
  assert.deepEqual(Array.from(ct.loadNpy(file, { copy: true }).data()), Array.from(body)); // file unchanged
  assert.throws(() => ct.loadNpy(path.join(dir, 'missing.npy')), (e) => e instanceof ct.IOError && e.code === 'TENSOR_E_IO');
  fs.writeFileSync(path.join(dir, 'bad.npy'), 'not an npy file at all');
  assert.throws(() => ct.loadNpy(path.join(dir, 'bad.npy')), ct.FormatError);
});

test('safetensors: save, open, keys in file order, get, metadata, close', () => {
  const file = path.join(dir, 'm.safetensors');
  const w = ct.tensor([[1, 2], [3, 4]], { dtype: 'float32' });
  const b = ct.tensor([7n, -8n]);
  ct.saveSafetensors(file, { weight: w, bias: b }, { format: 'pt' });
  // The format: an 8-byte little-endian header length, then a JSON header.
  const bytes = fs.readFileSync(file);
  const n = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + n).toString('utf8'));
  assert.deepEqual(header.weight.shape, [2, 2]);
  assert.equal(header.weight.dtype, 'F32');
  assert.equal(header.bias.dtype, 'I64');
  assert.equal(header.__metadata__.format, 'pt');

  const st = ct.openSafetensors(file);
  assert.equal(st.count, 2);
  assert.deepEqual([...st.keys()].sort(), ['bias', 'weight']);
  const weight = st.get('weight');
  assert.deepEqual(weight.toArray(), [[1, 2], [3, 4]].map((r) => r.map(f32)));
  assert.equal(weight.isReadonly, true);
  assert.deepEqual(st.get('bias').toArray(), [7n, -8n]);
  assert.equal(st.metadata('format'), 'pt');
  assert.equal(st.metadata('absent'), null);
  assert.throws(() => st.get('nope'), ct.CTensorError);
  st.close();
  assert.equal(st.closed, true);
  st.close(); // twice is harmless
  assert.throws(() => st.keys(), (e) => e instanceof ct.InvalidArgumentError && /close/.test(e.message));
  // Tensors got from the file stay valid after close().
  assert.deepEqual(weight.toArray()[1], [3, 4]);
  const copied = ct.openSafetensors(file, { copy: true });
  assert.equal(copied.get('weight').isReadonly, false);
  copied.close();
  assert.throws(() => ct.openSafetensors(path.join(dir, 'none')), ct.IOError);
});

test('mapFile maps bytes of a file read-only, shared-writable or private', () => {
  const file = path.join(dir, 'raw.bin');
  fs.writeFileSync(file, Buffer.from(new Int32Array([1, 2, 3, 4]).buffer));
  const ro = ct.mapFile(file, { dtype: 'int32' });
  assert.deepEqual(ro.toArray(), [1, 2, 3, 4]);
  assert.equal(ro.isReadonly, true);
  const rw = ct.mapFile(file, { dtype: 'int32', mode: 'write', offset: 4, nbytes: 8 });
  rw.fill_(9);
  rw.release();
  const onDisk = fs.readFileSync(file);
  assert.deepEqual([0, 1, 2, 3].map((i) => onDisk.readInt32LE(4 * i)), [1, 9, 9, 4]);
  const priv = ct.mapFile(file, { dtype: 'int32', mode: 'private', shape: [2, 2] });
  priv.fill_(0);
  assert.deepEqual(ro.toArray(), [1, 9, 9, 4]);
  assert.throws(() => ct.mapFile(file, { dtype: 'int32', shape: [5] }), ct.BoundsError);
  assert.throws(() => ct.mapFile(file, { mode: 'append' }), ct.InvalidArgumentError);
});

test('sharedTensor lives in an anonymous file; fromFd maps the same memory', () => {
  const s = ct.sharedTensor([4], 'float64');
  const { fd } = s.storageInfo();
  assert.ok(fd >= 0);
  const again = ct.fromFd(fd, 32, { mode: 'write', dtype: 'float64' });
  s.fill_(2.5);
  assert.deepEqual(again.toArray(), [2.5, 2.5, 2.5, 2.5]);
  assert.equal(ct.zeros([1]).storageInfo().fd, -1);
});
