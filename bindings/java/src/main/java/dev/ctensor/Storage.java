package dev.ctensor;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A refcounted byte buffer ({@code tensor_storage_t}). This object owns one C reference;
 * each {@link Tensor} viewing the storage holds its own, so closing a Storage never
 * invalidates tensors. Close it (try-with-resources); a {@link java.lang.ref.Cleaner}
 * releases it if it becomes unreachable unclosed.
 */
public final class Storage extends Resource {
    /** Storage flag: every write through a view fails with {@link ReadOnlyException}. */
    public static final int READONLY = Native.TENSOR_READONLY;
    /** {@link #mapFile} flag: read-only, shared mapping. */
    public static final int MAP_READ = Native.TENSOR_MAP_READ;
    /** {@link #mapFile} flag: read-write, shared: writes reach the file. */
    public static final int MAP_WRITE = Native.TENSOR_MAP_WRITE;
    /** {@link #mapFile} flag: copy-on-write, writes stay in this process. */
    public static final int MAP_PRIVATE = Native.TENSOR_MAP_PRIVATE;

    Storage(MemorySegment address) {
        super(address, Native::tensor_storage_release, "Storage");
    }

    /**
     * A new owned, zero-filled, writable, 64-byte aligned storage.
     * @param nbytes its size (0 allowed)
     * @return the storage
     * @throws CTensorException {@link OutOfMemoryException}
     */
    public static Storage allocate(long nbytes) throws CTensorException {
        return new Storage(Call.out((out, a) -> Native.tensor_storage_new(out, nbytes)));
    }

    /**
     * Wraps native memory without copying; the segment (and so its arena) stays reachable
     * until ctensor releases the storage. The segment must come from an automatic or the
     * global arena, or outlive every tensor on it: closing an explicit arena frees the
     * memory whatever ctensor holds.
     * @param segment  native memory
     * @param readOnly whether writes through views are refused
     * @return the storage
     * @throws CTensorException on failure (nothing is kept then)
     */
    public static Storage wrap(MemorySegment segment, boolean readOnly) throws CTensorException {
        return wrapOwned(requireNative(segment), segment, readOnly);
    }

    /**
     * Wraps the bytes of a direct buffer from its position to its limit, without copying;
     * the buffer stays reachable until ctensor releases the storage.
     * @param buffer   a direct buffer
     * @param readOnly whether writes through views are refused (a read-only buffer always is)
     * @return the storage
     * @throws CTensorException on failure
     */
    public static Storage wrap(ByteBuffer buffer, boolean readOnly) throws CTensorException {
        return wrapOwned(bufferSegment(buffer), buffer, readOnly || buffer.isReadOnly());
    }

    private static Storage wrapOwned(MemorySegment segment, Object owner, boolean readOnly)
            throws CTensorException {
        MemorySegment ctx = KeepAlive.hold(owner);
        try {
            return new Storage(Call.out((out, a) -> Native.tensor_storage_wrap(out, segment, segment.byteSize(),
                    readOnly ? READONLY : 0, KeepAlive.RELEASE, ctx)));
        } catch (CTensorException | RuntimeException e) {
            KeepAlive.forget(ctx);
            throw e;
        }
    }

    static MemorySegment requireNative(MemorySegment segment) {
        if (!segment.isNative()) {
            throw new IllegalArgumentException("ctensor can wrap only native memory, not a heap segment");
        }
        if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the segment's arena is closed");
        }
        return segment;
    }

    static MemorySegment bufferSegment(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            throw new IllegalArgumentException("ctensor can wrap only a direct ByteBuffer");
        }
        return MemorySegment.ofBuffer(buffer);
    }

    /**
     * Maps bytes [offset, offset + nbytes) of a file, without reading it.
     * @param path   the file
     * @param offset first byte (need not be page-aligned)
     * @param nbytes bytes to map, 0 for the rest of the file
     * @param flags  {@link #MAP_READ}, {@link #MAP_WRITE} or {@link #MAP_PRIVATE}
     * @return the storage
     * @throws CTensorException {@link IOFailureException}, {@link BoundsException}, ...
     */
    public static Storage mapFile(Path path, long offset, long nbytes, int flags) throws CTensorException {
        return new Storage(Call.out((out, a) ->
                Native.tensor_storage_map_file(out, a.allocateFrom(path.toString()), offset, nbytes, flags)));
    }

    /**
     * A zero-filled storage in anonymous shared memory (memfd), for sharing with other processes.
     * @param nbytes its size
     * @return the storage (fd-backed: see {@link #fd()})
     * @throws CTensorException {@link IOFailureException}, ...
     */
    public static Storage allocateShared(long nbytes) throws CTensorException {
        return new Storage(Call.out((out, a) -> Native.tensor_storage_new_shared(out, nbytes)));
    }

    /**
     * Maps the file or shared memory behind a descriptor (which is duplicated: the caller keeps its own).
     * @param fd     an open descriptor
     * @param nbytes bytes to map, 0 for all
     * @param flags  as {@link #mapFile}
     * @return the storage
     * @throws CTensorException on failure
     */
    public static Storage fromFd(int fd, long nbytes, int flags) throws CTensorException {
        return new Storage(Call.out((out, a) -> Native.tensor_storage_from_fd(out, fd, nbytes, flags)));
    }

    /** @return the descriptor behind an fd-backed storage (borrowed), or -1 */
    public int fd() {
        try (Use u = Use.of(this)) {
            return Native.tensor_storage_fd(u.get(0));
        }
    }

    /** @return the size in bytes */
    public long nbytes() {
        try (Use u = Use.of(this)) {
            return Native.tensor_storage_nbytes(u.get(0));
        }
    }

    /** @return whether writes through views are refused */
    public boolean isReadOnly() {
        try (Use u = Use.of(this)) {
            return Native.tensor_storage_is_readonly(u.get(0)) != 0;
        }
    }

    /** @return the C reference count (this object holds one, each tensor on it one) */
    public long refcount() {
        try (Use u = Use.of(this)) {
            return Native.tensor_storage_refcount(u.get(0));
        }
    }

    /**
     * The storage's bytes, without copying. The segment is valid until this Storage is
     * closed (then any access throws {@link IllegalStateException}); it is read-only for
     * a read-only storage.
     * @return the bytes
     */
    public MemorySegment data() {
        try (Use u = Use.of(this)) {
            MemorySegment s = u.get(0);
            MemorySegment seg = Native.tensor_storage_data(s)
                    .reinterpret(Native.tensor_storage_nbytes(s), handle.dataArena(), null);
            return Native.tensor_storage_is_readonly(s) != 0 ? seg.asReadOnly() : seg;
        }
    }

    /**
     * Another Java handle on the same storage (one more C reference), closed independently.
     * @return the new handle
     */
    public Storage share() {
        try (Use u = Use.of(this)) {
            return new Storage(Native.tensor_storage_retain(u.get(0)));
        }
    }
}
