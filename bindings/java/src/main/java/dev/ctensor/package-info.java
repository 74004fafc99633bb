/**
 * Java binding of libctensor (PyTorch's strided tensor memory model in C) through the
 * Foreign Function and Memory API.
 *
 * <p>{@link dev.ctensor.Tensor}, {@link dev.ctensor.Storage} and {@link dev.ctensor.SafeTensors}
 * each own one C reference: close them (try-with-resources); a Cleaner releases what is left
 * unreachable. Failures throw a checked {@link dev.ctensor.CTensorException} subclass per
 * status, carrying the library's message. Memory crosses without copying both ways:
 * {@link dev.ctensor.Tensor#wrap(java.lang.foreign.MemorySegment, DType, boolean)} and
 * {@link dev.ctensor.Tensor#data()}. The raw downcalls are generated from api.json by
 * {@code gen_native.py}.
 */
package dev.ctensor;
