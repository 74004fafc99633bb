package dev.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated raw layer against api.json: gen_native.py --check passes for the checked-in
 * files, and fails by name when api.json loses or gains a function.
 */
class GeneratedCodeTest {
    private static final Path JAVA_DIR = Path.of("").toAbsolutePath();
    private static final Path API = JAVA_DIR.resolve("../../api.json").normalize();

    @TempDir
    Path dir;

    private record Result(int code, String output) {
    }

    private static Result check(Path api) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("python3", "gen_native.py", "--check", "--api", api.toString())
                .directory(JAVA_DIR.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }

    @Test
    void checkedInFilesAreCurrentAndEveryFunctionIsAccountedFor() throws Exception {
        Result r = check(API);
        assertEquals(0, r.code(), r.output());
    }

    /** A copy of api.json changed by a Python statement on {@code api} (the parsed JSON). */
    private Path changedCopy(String statement) throws IOException, InterruptedException {
        Path copy = dir.resolve("api.json");
        Process p = new ProcessBuilder("python3", "-c", "import json, sys\napi = json.load(open(sys.argv[1]))\n"
                + statement + "\njson.dump(api, open(sys.argv[2], 'w'), indent=2)", API.toString(), copy.toString())
                .inheritIO().start();
        assertEquals(0, p.waitFor());
        return copy;
    }

    @Test
    void aFunctionRemovedFromApiJsonIsNamed() throws Exception {
        Result r = check(changedCopy("api['functions'] = [f for f in api['functions'] if f['name'] != 'tensor_narrow']"));
        assertEquals(1, r.code(), r.output());
        assertTrue(r.output().contains("Native.java: stale"), r.output());
    }

    @Test
    void aFunctionAddedToApiJsonThatNobodyWrapsIsNamed() throws Exception {
        Result r = check(changedCopy("api['functions'].append({'name': 'tensor_brand_new', 'experimental': False, "
                + "'since': '0.2', 'returns': {'c': 'int32_t', 'kind': 'integer'}, 'params': []})"));
        assertEquals(1, r.code(), r.output());
        assertTrue(r.output().lines().anyMatch(l -> l.startsWith("tensor_brand_new is in api.json but the Java binding")),
                r.output());
        assertTrue(r.output().contains("Native.java: stale"), r.output());
    }
}
