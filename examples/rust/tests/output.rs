//! The quickstart runs and prints what examples/quickstart.c prints.

use std::process::Command;

#[test]
fn quickstart_prints_the_c_quickstart_output() {
    let out = Command::new(env!("CARGO_BIN_EXE_quickstart")).output().expect("quickstart runs");
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let expected_start = [
        format!("ctensor {}", ctensor::version()),
        "tensor_data == buffer: yes".into(),
        "matrix: sizes [2, 3] strides [3, 1] contiguous 1".into(),
        "  values: 1 2 3 4 5 6".into(),
        "transposed view: sizes [3, 2] strides [1, 3] contiguous 0".into(),
        "contiguous copy: sizes [3, 2] strides [2, 1] contiguous 1".into(),
        "  values: 1 4 2 5 3 6".into(),
    ];
    assert_eq!(lines[..7], expected_start, "{stdout}");
    assert!(
        lines[7].starts_with("out-of-bounds view: TENSOR_E_BOUNDS (as_strided: view needs storage bytes [4, 28)"),
        "{}",
        lines[7]
    );
    // The buffer is released exactly once, after the last view, as the last thing printed.
    assert_eq!(lines[8..], ["release callback: caller buffer no longer used"]);
}
