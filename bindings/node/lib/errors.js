'use strict';
// Statuses as Error subclasses. Every failing ctensor call throws the subclass for its
// status; all of them extend CTensorError, whose `code` is the status name
// ('TENSOR_E_BOUNDS'), `status` the number and `message` the library's message
// (tensor_last_error(), read in the same native call).

class CTensorError extends Error {
  /**
   * @param {string} message the library's message, naming the op and the wrong values
   * @param {number} status the tensor_status_t value
   * @param {string} code the status name, e.g. 'TENSOR_E_SHAPE'
   */
  constructor(message, status, code) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
  }
}

// Status name -> class name, in status order (TENSOR_E_INVALID = 1 ... TENSOR_E_CANCELLED = 16).
const CLASS_NAMES = {
  TENSOR_E_INVALID: 'InvalidArgumentError',
  TENSOR_E_NOMEM: 'OutOfMemoryError',
  TENSOR_E_BOUNDS: 'BoundsError',
  TENSOR_E_SHAPE: 'ShapeError',
  TENSOR_E_STRIDE: 'StrideError',
  TENSOR_E_DTYPE: 'DtypeError',
  TENSOR_E_OVERFLOW: 'OverflowError',
  TENSOR_E_READONLY: 'ReadonlyError',
  TENSOR_E_OVERLAP: 'OverlapError',
  TENSOR_E_DEVICE: 'DeviceError',
  TENSOR_E_COPY: 'CopyError',
  TENSOR_E_IO: 'IOError',
  TENSOR_E_FORMAT: 'FormatError',
  TENSOR_E_UNSUPPORTED: 'UnsupportedError',
  TENSOR_E_INTERNAL: 'InternalError',
  TENSOR_E_CANCELLED: 'CancelledError',
};

const classes = { CTensorError };
const byCode = new Map();
for (const [code, name] of Object.entries(CLASS_NAMES)) {
  // A named class per status, so that `err instanceof ctensor.BoundsError` works and
  // stack traces show the name.
  const cls = { [name]: class extends CTensorError {} }[name];
  classes[name] = cls;
  byCode.set(code, cls);
}

/**
 * The error for a status (used by the addon for every failing call).
 * @param {function(number): (string|null)} statusName tensor_status_name
 */
function errorFactory(statusName) {
  return (status, message) => {
    const code = statusName(status) ?? `TENSOR_STATUS_${status}`;
    const Cls = byCode.get(code) ?? CTensorError;
    return new Cls(message, status, code);
  };
}

module.exports = { ...classes, errorFactory, STATUS_CLASSES: CLASS_NAMES };
