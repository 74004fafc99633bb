package dev.ctensor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The README's first program (examples/java/FirstProgram.java) runs and prints what it says. */
class FirstProgramTest {
    @Test
    void runsAsASingleFileProgram() throws Exception {
        Path source = Path.of("../../examples/java/FirstProgram.java").toAbsolutePath().normalize();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED",
                "-Dctensor.library=" + System.getProperty("ctensor.library", ""),
                "-cp", System.getProperty("java.class.path"), source.toString())
                .redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, p.waitFor(), String.join("\n", lines));
        assertEquals("[3, 2] [1, 3]", lines.get(0));
        assertEquals("[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]", lines.get(1));
        assertEquals("[6.0, 15.0]", lines.get(2));
        assertEquals("TENSOR_E_BOUNDS: select: index 5 is out of range for size 3 of dim 1 (sizes [2, 3])",
                lines.get(3));
    }
}
