package dev.ctensor;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;

/**
 * Finds libctensor and makes downcall handles. The library is, in this order: the file
 * named by the system property {@code ctensor.library}, the file named by the environment
 * variable {@code CTENSOR_LIB}, or {@code System.mapLibraryName("ctensor")} found by the
 * dynamic loader (LD_LIBRARY_PATH, the system's library directories).
 */
final class NativeLibrary {
    static final Linker LINKER = Linker.nativeLinker();
    static final String LOCATION = location();
    private static final SymbolLookup LOOKUP = lookup();

    private NativeLibrary() {
    }

    private static String location() {
        String p = System.getProperty("ctensor.library");
        if (p == null || p.isEmpty()) {
            p = System.getenv("CTENSOR_LIB");
        }
        return p == null || p.isEmpty() ? System.mapLibraryName("ctensor") : p;
    }

    private static SymbolLookup lookup() {
        // A path (it has a separator) is opened as it is; a bare name goes through the loader's search.
        return LOCATION.contains("/")
                ? SymbolLookup.libraryLookup(Path.of(LOCATION), Arena.global())
                : SymbolLookup.libraryLookup(LOCATION, Arena.global());
    }

    static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        MemorySegment symbol = LOOKUP.find(name).orElseThrow(
                () -> new UnsatisfiedLinkError("ctensor: " + LOCATION + " has no function " + name));
        return LINKER.downcallHandle(symbol, descriptor);
    }

    /** What a downcall threw (only errors such as a stack overflow can come out of one). */
    static RuntimeException unexpected(String name, Throwable e) {
        if (e instanceof Error error) {
            throw error;
        }
        if (e instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException("ctensor: downcall " + name + " failed", e);
    }
}
