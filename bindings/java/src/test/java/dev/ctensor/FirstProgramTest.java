package dev.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's first program (examples/java/FirstProgram.java) runs as a single-file
 * program and prints what it says, with the library found each of the three ways.
 */
class FirstProgramTest {
    private static List<String> run(List<String> properties, Map<String, String> env) throws Exception {
        Path source = Path.of("../../examples/java/FirstProgram.java").toAbsolutePath().normalize();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(properties);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), source.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("CTENSOR_LIB");
        pb.environment().putAll(env);
        Process p = pb.start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, p.waitFor(), String.join("\n", lines));
        return lines;
    }

    private static void assertPrintsItsResults(List<String> lines) {
        assertEquals("[3, 2] [1, 3]", lines.get(0));
        assertEquals("[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]", lines.get(1));
        assertEquals("[6.0, 15.0]", lines.get(2));
        assertEquals("TENSOR_E_BOUNDS: select: index 5 is out of range for size 3 of dim 1 (sizes [2, 3])",
                lines.get(3));
    }

    @Test
    void runsWithTheLibraryFoundEachWay() throws Exception {
        String lib = CTensor.libraryLocation();
        if (lib.contains("/")) {
            Path file = Path.of(lib).toAbsolutePath();
            assertPrintsItsResults(run(List.of("-Dctensor.library=" + file), Map.of()));
            assertPrintsItsResults(run(List.of(), Map.of("CTENSOR_LIB", file.toString())));
            // neither: System.mapLibraryName("ctensor") through the loader's search path
            assertTrue(file.getFileName().toString().equals(System.mapLibraryName("ctensor")), lib);
            assertPrintsItsResults(run(List.of(), Map.of("LD_LIBRARY_PATH", file.getParent().toString())));
        } else {
            // this JVM found the library through the loader: so does the program
            assertPrintsItsResults(run(List.of(), Map.of()));
        }
    }
}
