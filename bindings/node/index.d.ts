// TypeScript declarations of the ctensor Node.js binding (lib/index.js and the addon).
// Ownership, errors, threads and zero-copy: README.md.

/// <reference types="node" />

export type DType =
  | 'uint8' | 'int8' | 'int16' | 'int32' | 'int64'
  | 'float16' | 'float32' | 'float64'
  | 'complex64' | 'complex128' | 'bool' | 'bfloat16'
  | 'uint16' | 'uint32' | 'uint64';

/** The TypedArray that shows a dtype's elements (complex: interleaved re, im;
 *  float16/bfloat16: raw bits; bool: bytes 0/1). */
export type ElementArray =
  | Uint8Array | Int8Array | Int16Array | Uint16Array | Int32Array | Uint32Array
  | BigInt64Array | BigUint64Array | Float32Array | Float64Array;

/** A TypedArray accepted by fromTypedArray and tensor (Uint8ClampedArray reads as uint8). */
export type InputArray = ElementArray | Uint8ClampedArray;

/** A dim, size, stride or index: a JS integer or a BigInt in the int64 range. */
export type Int = number | bigint;

/** A JS value a binary op accepts in place of a tensor: a 0-dim wrapped number. */
export type ScalarLike = number | bigint | boolean;

/** An item of Tensor.index: an integer, null (new axis), '...', a boolean or a slice. */
export type IndexItem = Int | null | '...' | boolean | { start?: Int | null; stop?: Int | null; step?: Int };

export type BinaryOp =
  | 'add' | 'sub' | 'mul' | 'div' | 'pow' | 'maximum' | 'minimum'
  | 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

export type UnaryOp =
  | 'neg' | 'abs' | 'exp' | 'exp2' | 'expm1' | 'log' | 'log2' | 'log10'
  | 'log1p' | 'sqrt' | 'rsqrt' | 'sin' | 'cos' | 'tan' | 'asin' | 'acos'
  | 'atan' | 'sinh' | 'cosh' | 'tanh' | 'sigmoid' | 'relu' | 'gelu' | 'erf'
  | 'floor' | 'ceil' | 'round' | 'trunc' | 'frac' | 'sign' | 'reciprocal' | 'square'
  | 'isnan' | 'isinf' | 'isfinite' | 'logicalNot' | 'bitwiseNot';

export type CopyMode = 'ifNeeded' | 'always' | 'never';

/** Nested arrays of a tensor's elements (see Tensor.toArray). */
export type NestedArray = Array<number | bigint | boolean | [number, number] | NestedArray>;

export interface DTypeInfo {
  readonly name: DType;
  readonly code: number;
  readonly size: number;
  readonly kind: 'bool' | 'int' | 'float' | 'complex';
  readonly signed: boolean;
}

export interface StorageInfo {
  nbytes: number;
  refcount: number;
  readonly: boolean;
  /** The file descriptor of a shared-memory or fd-backed storage, else -1. */
  fd: number;
}

/**
 * A strided view over a refcounted storage. Each Tensor holds one reference, dropped
 * by release() (or dispose()) or, failing that, by the garbage collector. Every
 * method of a released tensor throws InvalidArgumentError.
 */
export class Tensor {
  private constructor();
  readonly dtype: DType;
  readonly shape: number[];
  readonly strides: number[];
  readonly storageOffset: number;
  readonly ndim: number;
  readonly numel: number;
  readonly isContiguous: boolean;
  readonly isReadonly: boolean;
  readonly released: boolean;
  /** References to this tensor handle (1 unless contiguous()/to() shared it). */
  readonly refcount: number;
  storageInfo(): StorageInfo;
  /** DLPack device type (1 = CPU) and id. */
  device(): { type: number; id: number };
  release(): void;
  dispose(): void;
  [Symbol.dispose](): void;

  /** The elements over ctensor memory, no copy (a contiguous tensor only, else
   *  CopyError). A copy for a read-only storage or where externalBuffers is false. */
  data(): ElementArray;
  /** The whole storage as an ArrayBuffer; `copied` as for data(). */
  storageBuffer(): { buffer: ArrayBuffer; copied: boolean };
  /** A copy of the elements in C order. */
  toTypedArray(): ElementArray;
  toArray(): NestedArray | number | bigint | boolean | [number, number];
  /** The single element: boolean for bool, BigInt for int64/uint64, else a number. */
  item(): number | bigint | boolean;
  toString(): string;

  asStrided(sizes: Int[], strides?: Int[] | null, storageOffset?: Int): Tensor;
  view(sizes: Int[]): Tensor;
  reshape(sizes: Int[]): Tensor;
  transpose(dim0: Int, dim1: Int): Tensor;
  permute(dims: Int[]): Tensor;
  /** Python slice semantics; null/undefined start and stop are the open ends. */
  slice(dim: Int, start?: Int | null, stop?: Int | null, step?: Int): Tensor;
  select(dim: Int, index: Int): Tensor;
  narrow(dim: Int, start: Int, length: Int): Tensor;
  expand(sizes: Int[]): Tensor;
  broadcastTo(sizes: Int[]): Tensor;
  /** Every size-1 dim without an argument, else that dim if its size is 1. */
  squeeze(dim?: Int): Tensor;
  unsqueeze(dim: Int): Tensor;
  flatten(startDim?: Int, endDim?: Int): Tensor;
  viewDtype(dtype: DType): Tensor;
  diagonal(offset?: Int, dim1?: Int, dim2?: Int): Tensor;
  unfold(dim: Int, size: Int, step: Int): Tensor;
  movedim(source: Int[], destination: Int[]): Tensor;
  unflatten(dim: Int, sizes: Int[]): Tensor;
  atleast(minDims: 1 | 2 | 3): Tensor;
  index(items: IndexItem[]): Tensor;
  split(sizeOrSizes: Int | Int[], dim?: Int): Tensor[];
  chunk(chunks: Int, dim?: Int): Tensor[];
  tensorSplit(sectionsOrIndices: Int | Int[], dim?: Int): Tensor[];

  contiguous(): Tensor;
  clone(): Tensor;
  /** this[...] = src (broadcast, converted); returns this. */
  copy_(src: Tensor | ScalarLike): this;
  to(dtype: DType, copy?: CopyMode, preserveFormat?: boolean, torchX86?: boolean): Tensor;
  fill_(value: number | boolean | bigint): this;

  add(other: Tensor | ScalarLike): Tensor;
  sub(other: Tensor | ScalarLike): Tensor;
  mul(other: Tensor | ScalarLike): Tensor;
  div(other: Tensor | ScalarLike): Tensor;
  pow(other: Tensor | ScalarLike): Tensor;
  maximum(other: Tensor | ScalarLike): Tensor;
  minimum(other: Tensor | ScalarLike): Tensor;
  eq(other: Tensor | ScalarLike): Tensor;
  ne(other: Tensor | ScalarLike): Tensor;
  lt(other: Tensor | ScalarLike): Tensor;
  le(other: Tensor | ScalarLike): Tensor;
  gt(other: Tensor | ScalarLike): Tensor;
  ge(other: Tensor | ScalarLike): Tensor;
  neg(): Tensor;
  abs(): Tensor;
  conj(): Tensor;
  /** Element-wise functions (tensor_unary's ops), PyTorch 1.13's dtype rules. */
  exp(): Tensor;
  exp2(): Tensor;
  expm1(): Tensor;
  log(): Tensor;
  log2(): Tensor;
  log10(): Tensor;
  log1p(): Tensor;
  sqrt(): Tensor;
  rsqrt(): Tensor;
  sin(): Tensor;
  cos(): Tensor;
  tan(): Tensor;
  asin(): Tensor;
  acos(): Tensor;
  atan(): Tensor;
  sinh(): Tensor;
  cosh(): Tensor;
  tanh(): Tensor;
  sigmoid(): Tensor;
  relu(): Tensor;
  gelu(): Tensor;
  erf(): Tensor;
  floor(): Tensor;
  ceil(): Tensor;
  round(): Tensor;
  trunc(): Tensor;
  frac(): Tensor;
  sign(): Tensor;
  reciprocal(): Tensor;
  square(): Tensor;
  isnan(): Tensor;
  isinf(): Tensor;
  isfinite(): Tensor;
  logicalNot(): Tensor;
  bitwiseNot(): Tensor;
  conjPhysical(): Tensor;
  /** Reductions over `dims` (null: all); keepdim keeps them as size 1. */
  sum(dims?: Int | Int[] | null, keepdim?: boolean): Tensor;
  mean(dims?: Int | Int[] | null, keepdim?: boolean): Tensor;
  prod(dims?: Int | Int[] | null, keepdim?: boolean): Tensor;
  amax(dims?: Int | Int[] | null, keepdim?: boolean): Tensor;
  amin(dims?: Int | Int[] | null, keepdim?: boolean): Tensor;
  nonzero(): Tensor;
  cumsum(dim: Int): Tensor;
  cumprod(dim: Int): Tensor;
  softmax(dim: Int): Tensor;
  logSoftmax(dim: Int): Tensor;
  /** Index of the largest (smallest) element along dim; all dims (flattened) by default. */
  argmax(dim?: Int | null, keepdim?: boolean): Tensor;
  argmin(dim?: Int | null, keepdim?: boolean): Tensor;
  /** Bounds are Tensors or scalars; one may be null. */
  clamp(min?: Tensor | ScalarLike | null, max?: Tensor | ScalarLike | null): Tensor;
  /** this (a bool condition) picks a where true, else b. */
  where(a: Tensor | ScalarLike, b: Tensor | ScalarLike): Tensor;
}

/** An open safetensors file; close() (or the collector) releases it. Tensors got
 *  from it stay valid after close(). */
export class SafeTensors {
  private constructor();
  readonly count: number;
  readonly closed: boolean;
  keys(): string[];
  get(name: string): Tensor;
  metadata(key: string): string | null;
  close(): void;
  [Symbol.dispose](): void;
}

export interface LoadOptions {
  /** Read into owned, writable memory. */
  copy?: boolean;
  /** Map copy-on-write: zero-copy and writable; writes never reach the file. */
  writable?: boolean;
}

export type MapMode = 'read' | 'write' | 'private';

export const dtypes: readonly DTypeInfo[];
export const version: { string: string; number: number; compiledNumber: number };
/** false where the runtime refuses external ArrayBuffers: data() then copies. */
export const externalBuffers: boolean;
export function statusName(status: number): string | null;
export function setNumThreads(n: number): void;
export function getNumThreads(): number;
/** Gives this thread's cached control blocks of released tensors back to the heap. */
export function releaseThreadCaches(): void;

export function empty(shape: Int[], dtype?: DType): Tensor;
export function zeros(shape: Int[], dtype?: DType): Tensor;
export function ones(shape: Int[], dtype?: DType): Tensor;
export function full(shape: Int[], value: number | boolean | bigint, dtype?: DType): Tensor;
export function tensor(
  data: InputArray | DataView | NestedArray | number | bigint | boolean,
  options?: { shape?: Int[]; dtype?: DType },
): Tensor;
export function fromTypedArray(
  array: InputArray | DataView,
  options?: { shape?: Int[]; dtype?: DType; readonly?: boolean },
): Tensor;
export function scalar(value: number | bigint | boolean | [number, number]): Tensor;
export function emptyLike(t: Tensor, options?: { dtype?: DType | null; preserveFormat?: boolean }): Tensor;
export function zerosLike(t: Tensor, options?: { dtype?: DType | null; preserveFormat?: boolean }): Tensor;

export function cat(tensors: Tensor[], dim?: Int): Tensor;
export function stack(tensors: Tensor[], dim?: Int): Tensor;
export function broadcastTensors(tensors: Tensor[]): Tensor[];
/** dst = a op b under PyTorch's out= rules; returns dst. */
export function binaryInto(dst: Tensor, op: BinaryOp, a: Tensor | ScalarLike, b: Tensor | ScalarLike): Tensor;
export function unary(op: UnaryOp, a: Tensor): Tensor;
/** dst = op(a) under PyTorch's out= rules (dst may be a: in place); returns dst. */
export function unaryInto(dst: Tensor, op: UnaryOp, a: Tensor): Tensor;
export function resultType(a: Tensor | ScalarLike, b: Tensor | ScalarLike): DType;
export function equal(a: Tensor, b: Tensor): boolean;
export function allclose(a: Tensor, b: Tensor, options?: { rtol?: number; atol?: number; equalNan?: boolean }): boolean;
export function copyWith(dst: Tensor, src: Tensor, options?: { torchX86?: boolean }): Tensor;
export function indexGather(t: Tensor, dims: Int[], indices: Tensor[]): Tensor;
export function indexPut(t: Tensor, dims: Int[], indices: Tensor[], values: Tensor | ScalarLike): Tensor;

export function loadNpy(path: string, options?: LoadOptions): Tensor;
export function saveNpy(t: Tensor, path: string): void;
export function openSafetensors(path: string, options?: LoadOptions): SafeTensors;
export function saveSafetensors(
  path: string,
  tensors: Record<string, Tensor> | Map<string, Tensor>,
  metadata?: Record<string, string>,
): void;
export function mapFile(
  path: string,
  options?: { offset?: Int; nbytes?: Int; mode?: MapMode; dtype?: DType; shape?: Int[] | null },
): Tensor;
export function sharedTensor(shape: number[], dtype?: DType): Tensor;
export function fromFd(fd: number, nbytes: Int, options?: { mode?: MapMode; dtype?: DType; shape?: Int[] | null }): Tensor;

/** Every failing call throws a subclass of CTensorError. */
export class CTensorError extends Error {
  constructor(message: string, status: number, code: string);
  /** The tensor_status_t value. */
  readonly status: number;
  /** The status name, e.g. 'TENSOR_E_BOUNDS'. */
  readonly code: string;
}
export class InvalidArgumentError extends CTensorError {}
export class OutOfMemoryError extends CTensorError {}
export class BoundsError extends CTensorError {}
export class ShapeError extends CTensorError {}
export class StrideError extends CTensorError {}
export class DtypeError extends CTensorError {}
export class OverflowError extends CTensorError {}
export class ReadonlyError extends CTensorError {}
export class OverlapError extends CTensorError {}
export class DeviceError extends CTensorError {}
export class CopyError extends CTensorError {}
export class IOError extends CTensorError {}
export class FormatError extends CTensorError {}
export class UnsupportedError extends CTensorError {}
export class InternalError extends CTensorError {}
export class CancelledError extends CTensorError {}
/** Status name -> class name. */
export const STATUS_CLASSES: Readonly<Record<string, string>>;
