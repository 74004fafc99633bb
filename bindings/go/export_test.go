package ctensor

// WrappedBuffers is, for the tests, how many Go buffers storages still pin.
func WrappedBuffers() int64 { return wrappedBuffers.Load() }
