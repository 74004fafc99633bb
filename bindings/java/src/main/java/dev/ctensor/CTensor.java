package dev.ctensor;

/** Library-wide queries and settings of ctensor. */
public final class CTensor {
    private CTensor() {
    }

    /** @return the loaded library's version, "MAJOR.MINOR.PATCH" */
    public static String version() {
        return Call.string(Native.tensor_version_string());
    }

    /** @return the loaded library's MAJOR*10000 + MINOR*100 + PATCH */
    public static int versionNumber() {
        return Native.tensor_version_number();
    }

    /** @return where the library was loaded from (see the README: ctensor.library, CTENSOR_LIB, the loader) */
    public static String libraryLocation() {
        return NativeLibrary.LOCATION;
    }

    /**
     * Sets how many threads large copies, element-wise ops and reductions may use (the
     * calling thread included), for the whole process; results never depend on it.
     * @param n at least 1
     * @throws CTensorException if n is out of range
     */
    public static void setNumThreads(int n) throws CTensorException {
        CTensorException.check(Native.tensor_set_num_threads(n));
    }

    /** @return the current thread setting of {@link #setNumThreads} */
    public static int numThreads() {
        return Native.tensor_get_num_threads();
    }

    /**
     * Gives the calling thread's cache of released tensors' and storages' control blocks
     * (a few dozen small blocks) back to the heap; for threads that stay alive and idle.
     * Thread-safe (acts on the calling thread only); never fails.
     */
    public static void releaseThreadCaches() {
        Native.tensor_thread_release_caches();
    }

    /**
     * @param code a status value
     * @return the C library's name of a status code ("TENSOR_E_BOUNDS"), null if unknown to it
     */
    public static String statusName(int code) {
        return Call.string(Native.tensor_status_name(code));
    }

    /**
     * @param code a dtype value
     * @return the C library's element size of a dtype code, 0 if unknown to it
     */
    public static long dtypeSize(int code) {
        return Native.tensor_dtype_size(code);
    }

    /**
     * @param code a dtype value
     * @return the C library's name of a dtype code ("float32"), null if unknown to it
     */
    public static String dtypeName(int code) {
        return Call.string(Native.tensor_dtype_name(code));
    }

    /**
     * @param code a dtype value
     * @return the C library's kind of a dtype code (0 bool, 1 int, 2 float, 3 complex), -1 if unknown
     */
    public static int dtypeKind(int code) {
        return Native.tensor_dtype_kind(code);
    }

    /**
     * @param code a dtype value
     * @return whether the C library calls a dtype code signed (torch.dtype.is_signed)
     */
    public static boolean dtypeIsSigned(int code) {
        return Native.tensor_dtype_is_signed(code) != 0;
    }
}
