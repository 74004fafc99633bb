package ctensor_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run runs a command and returns its stdout, failing the test on any error.
func run(t *testing.T, dir string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// TestQuickstartExample builds examples/go and the C quickstart it follows
// (examples/quickstart.c, against the same library) and runs both: the Go
// program must print exactly what the C one prints.
func TestQuickstartExample(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	goBinary := filepath.Join(tmp, "quickstart-go")
	run(t, filepath.Join(examples, "go"), "go", "vet", ".")
	run(t, filepath.Join(examples, "go"), "go", "build", "-o", goBinary, ".")

	flags := strings.Fields(run(t, tmp, "pkg-config", "--cflags", "--libs", "ctensor"))
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	cBinary := filepath.Join(tmp, "quickstart-c")
	run(t, tmp, cc, append([]string{"-std=c99", "-o", cBinary, filepath.Join(examples, "quickstart.c")}, flags...)...)

	want := run(t, tmp, cBinary)
	got := run(t, tmp, goBinary)
	if got != want {
		t.Errorf("examples/go printed\n%s\nexamples/quickstart.c printed\n%s", got, want)
	}
	if !strings.Contains(got, "out-of-bounds view: TENSOR_E_BOUNDS") || !strings.Contains(got, "release callback") {
		t.Errorf("unexpected output\n%s", got)
	}
}
