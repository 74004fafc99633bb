'use strict';
// ctensor for Node.js: the Node-API addon (src/) plus the JS that only composes its
// calls (argument defaults, JS scalars, nested arrays). See README.md for ownership,
// errors, threads and zero-copy.
const path = require('node:path');
const { markAsUntransferable } = require('node:worker_threads');
const errors = require('./errors');

// build/Release (npm install / npm run build), else build/Debug (CTENSOR_NODE_DEBUG=1).
function loadAddon() {
  const fs = require('node:fs');
  const candidates = ['Release', 'Debug'].map((kind) => path.join(__dirname, '..', 'build', kind, 'ctensor_node.node'));
  const found = candidates.find((file) => fs.existsSync(file));
  if (!found) {
    throw new Error(`ctensor: the addon is not built (no ${candidates.join(' or ')}); run \`npm run build\` ` +
      'with PKG_CONFIG_PATH pointing at libctensor\'s pkg-config file');
  }
  return require(found);
}

const native = loadAddon();
native.setErrorFactory(errors.errorFactory(native.statusName));
const { Tensor, SafeTensors } = native;

const DTYPES = Object.freeze(native.dtypes().map((d) => Object.freeze(d)));

// --- Tensor methods composed in JS ------------------------------------------------

// Methods added in JS are non-enumerable, like the native ones.
function defineMethods(proto, methods) {
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(proto, name, { value, writable: true, configurable: true });
  }
}

const BINARY_OPS = ['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge'];
defineMethods(Tensor.prototype, Object.fromEntries(BINARY_OPS.map((op) => [op, function binary(other) {
  return this._binary(op, other);
}])));
defineMethods(Tensor.prototype, Object.fromEntries(['sum', 'mean', 'prod', 'amax', 'amin'].map((name) => [
  name, function reduce(dims = null, keepdim = false) { return this._reduce(name, dims, keepdim); }])));

defineMethods(Tensor.prototype, {
  /**
   * The elements as a TypedArray over ctensor's memory (no copy; see README for the
   * two cases that copy). The buffer cannot be transferred to another thread: the
   * memory belongs to the storage, which the buffer keeps alive.
   */
  data() {
    const array = this._data();
    markAsUntransferable(array.buffer);
    return array;
  },
  storageBuffer() {
    const result = this._storageBuffer();
    markAsUntransferable(result.buffer);
    return result;
  },
  dispose() { this.release(); },
  conj() { return this._conj(false); },
  conjPhysical() { return this._conj(true); },
  tensorSplit(sectionsOrIndices, dim = 0) { return this.chunk(sectionsOrIndices, dim, true); },
  /** A copy of the elements in C order as a TypedArray (always a copy, any layout). */
  toTypedArray() {
    const c = this.clone();
    try {
      return c.data().slice();
    } finally {
      c.release();
    }
  },
  /** The elements as nested JS arrays (numbers; BigInts for int64/uint64; booleans for bool;
   *  float16/bfloat16 as their values; complex as [re, im]). */
  toArray() {
    const half = this.dtype === 'float16' || this.dtype === 'bfloat16';
    const src = half ? this.to('float32', 'always') : this.clone();
    let flat;
    try {
      flat = Array.from(src.data());
    } finally {
      src.release();
    }
    let items = flat;
    if (this.dtype === 'bool') items = flat.map((v) => v !== 0);
    if (this.dtype.startsWith('complex')) {
      items = [];
      for (let i = 0; i < flat.length; i += 2) items.push([flat[i], flat[i + 1]]);
    }
    const shape = this.shape;
    if (shape.length === 0) return items[0];
    const build = (dim, offset) => {
      const n = shape[dim];
      if (dim === shape.length - 1) return items.slice(offset, offset + n);
      const inner = shape.slice(dim + 1).reduce((a, b) => a * b, 1);
      return Array.from({ length: n }, (_, i) => build(dim + 1, offset + i * inner));
    };
    return build(0, 0);
  },
  toString() {
    if (this.released) return 'Tensor(released)';
    return `Tensor(dtype=${this.dtype}, shape=[${this.shape}], strides=[${this.strides}], ` +
      `storageOffset=${this.storageOffset})`;
  },
});
if (typeof Symbol.dispose === 'symbol') {
  Tensor.prototype[Symbol.dispose] = Tensor.prototype.release;
  SafeTensors.prototype[Symbol.dispose] = SafeTensors.prototype.close;
}
Tensor.prototype[Symbol.for('nodejs.util.inspect.custom')] = function inspect() { return this.toString(); };

// --- Creation --------------------------------------------------------------------

function empty(shape, dtype = 'float32') { return native.empty(shape, dtype, false); }
function zeros(shape, dtype = 'float32') { return native.empty(shape, dtype, true); }
function full(shape, value, dtype = 'float32') { return native.empty(shape, dtype, false).fill_(value); }
function ones(shape, dtype = 'float32') { return full(shape, 1, dtype); }

/**
 * A 1-d tensor over the TypedArray's own memory (zero-copy), reshaped to `shape` if
 * given. `dtype` reinterprets the bytes (a Uint16Array as 'float16' or 'bfloat16', a
 * Uint8Array as 'bool', a Float32Array as 'complex64'). The ArrayBuffer is kept alive
 * until the last tensor over it is released, and marked untransferable.
 */
function fromTypedArray(array, { shape, dtype, readonly = false } = {}) {
  if (ArrayBuffer.isView(array) && !(array.buffer instanceof SharedArrayBuffer)) {
    markAsUntransferable(array.buffer);
  }
  const flat = native.fromTypedArray(array, dtype, readonly);
  if (shape === undefined) return flat;
  try {
    return flat.view(shape);
  } finally {
    flat.release();
  }
}

function flattenNested(data, shape, out, dim) {
  if (!Array.isArray(data)) {
    if (dim !== shape.length) throw new errors.ShapeError('tensor: ragged nested array', 4, 'TENSOR_E_SHAPE');
    out.push(data);
    return;
  }
  if (dim === shape.length) shape.push(data.length);
  else if (shape[dim] !== data.length) {
    throw new errors.ShapeError(`tensor: ragged nested array (dim ${dim} has ${data.length} and ${shape[dim]})`,
      4, 'TENSOR_E_SHAPE');
  }
  for (const item of data) flattenNested(item, shape, out, dim + 1);
}

/**
 * A new tensor holding a copy of `data`: a TypedArray (1-d unless `shape`), a nested
 * array of numbers, booleans or BigInts, or a single value (0-dim). The dtype defaults
 * to the TypedArray's, 'bool' for booleans, 'int64' for BigInts, else 'float32';
 * values are converted by the library's conversion rules.
 */
function tensor(data, { shape, dtype } = {}) {
  if (ArrayBuffer.isView(data)) {
    const s = shape ?? [data.length ?? data.byteLength];
    if (dtype === undefined || DTYPES.find((d) => d.name === dtype)?.size === data.BYTES_PER_ELEMENT) {
      return native.fromData(data, s, dtype);
    }
    const raw = native.fromData(data, s);
    try {
      return raw.to(dtype, 'always');
    } finally {
      raw.release();
    }
  }
  const flatShape = [];
  const flat = [];
  flattenNested(data, flatShape, flat, 0);
  let source;
  let sourceDtype;
  if (flat.some((v) => typeof v === 'bigint')) {
    source = BigInt64Array.from(flat, (v) => BigInt(v));
    sourceDtype = 'int64';
  } else if (flat.length > 0 && flat.every((v) => typeof v === 'boolean')) {
    source = Uint8Array.from(flat, (v) => (v ? 1 : 0));
    sourceDtype = 'bool';
  } else {
    source = Float64Array.from(flat, Number);
    sourceDtype = 'float64';
  }
  const target = dtype ?? (sourceDtype === 'float64' ? 'float32' : sourceDtype);
  const raw = native.fromData(source, shape ?? flatShape, sourceDtype);
  if (target === sourceDtype) return raw;
  try {
    return raw.to(target, 'always');
  } finally {
    raw.release();
  }
}

/** A 0-dim "wrapped number" tensor: promotes like a Python scalar in PyTorch. */
function scalar(value) {
  if (typeof value === 'boolean') return native.scalar(value, 'bool');
  if (typeof value === 'bigint') return native.scalar(value, 'int');
  if (Array.isArray(value)) return native.scalar(value, 'complex');
  return native.scalar(value, Number.isInteger(value) ? 'int' : 'float');
}

function emptyLike(t, { dtype = null, preserveFormat = false } = {}) {
  return native.emptyLike(t, dtype, preserveFormat, false);
}
function zerosLike(t, { dtype = null, preserveFormat = false } = {}) {
  return native.emptyLike(t, dtype, preserveFormat, true);
}

function allclose(a, b, { rtol = 1e-5, atol = 1e-8, equalNan = false } = {}) {
  return native.allclose(a, b, rtol, atol, equalNan);
}

// --- Files -----------------------------------------------------------------------

/** Loads a .npy file: mapped read-only by default; { writable } maps copy-on-write,
 *  { copy } reads into owned memory. */
function loadNpy(file, { copy = false, writable = false } = {}) {
  return native.loadNpy(file, { copy, writable });
}

function openSafetensors(file, { copy = false, writable = false } = {}) {
  return new SafeTensors(file, { copy, writable });
}

/** Saves named tensors (an object or a Map of name -> Tensor) with string metadata. */
function saveSafetensors(file, tensors, metadata = {}) {
  const entries = tensors instanceof Map ? [...tensors] : Object.entries(tensors);
  const meta = Object.entries(metadata);
  native.saveSafetensors(file, entries.map((e) => e[0]), entries.map((e) => e[1]),
    meta.map((e) => e[0]), meta.map((e) => String(e[1])));
}

/** A tensor over a file mapped into memory: `mode` 'read' (read-only), 'write' (writes
 *  reach the file) or 'private' (copy-on-write); `nbytes` 0 maps to the end. */
function mapFile(file, { offset = 0, nbytes = 0, mode = 'read', dtype = 'uint8', shape = null } = {}) {
  return native.mapFile(file, offset, nbytes, mode, dtype, shape);
}

/** A zero-filled tensor in shared memory (an anonymous file; `storageInfo().fd`). */
function sharedTensor(shape, dtype = 'float32') {
  const size = DTYPES.find((d) => d.name === dtype)?.size ?? 0;
  return native.sharedTensor(shape.reduce((a, b) => a * b, size), dtype, shape);
}

/** A tensor over `nbytes` of the file descriptor `fd` (duplicated). */
function fromFd(fd, nbytes, { mode = 'read', dtype = 'uint8', shape = null } = {}) {
  return native.fromFd(fd, nbytes, mode, dtype, shape);
}

module.exports = {
  Tensor,
  SafeTensors,
  dtypes: DTYPES,
  version: native.version(),
  /** false where the runtime refuses external ArrayBuffers: data() then copies. */
  get externalBuffers() { return native.externalBuffers(); },
  statusName: native.statusName,
  setNumThreads: native.setNumThreads,
  getNumThreads: native.getNumThreads,
  releaseThreadCaches: native.releaseThreadCaches,
  empty,
  zeros,
  ones,
  full,
  tensor,
  fromTypedArray,
  scalar,
  emptyLike,
  zerosLike,
  cat: (tensors, dim = 0) => native.cat(tensors, dim),
  stack: (tensors, dim = 0) => native.stack(tensors, dim),
  broadcastTensors: native.broadcastTensors,
  binaryInto: native.binaryInto,
  unary: native.unary,
  unaryInto: native.unaryInto,
  resultType: native.resultType,
  equal: native.equal,
  allclose,
  copyWith: (dst, src, { torchX86 = false } = {}) => native.copyWith(dst, src, torchX86),
  indexGather: native.indexGather,
  indexPut: native.indexPut,
  loadNpy,
  saveNpy: native.saveNpy,
  openSafetensors,
  saveSafetensors,
  mapFile,
  sharedTensor,
  fromFd,
  _setExternalBuffers: native.setExternalBuffers,
  ...errors,
};
