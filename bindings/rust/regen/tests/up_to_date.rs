//! The checked-in bindings must equal what bindgen makes from this checkout's headers.

#[test]
fn checked_in_bindings_match_the_headers() {
    let fresh = ctensor_sys_regen::generate();
    let path = ctensor_sys_regen::bindings_path();
    let checked_in = std::fs::read_to_string(&path).expect("ctensor-sys/src/bindings.rs is missing");
    if fresh != checked_in {
        let first = fresh
            .lines()
            .zip(checked_in.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| fresh.lines().count().min(checked_in.lines().count()));
        panic!(
            "{} is out of date with include/ (first difference at line {}); \
             run `cargo run -p ctensor-sys-regen` in bindings/rust",
            path.display(),
            first + 1
        );
    }
}

/// The experimental section's functions and constants, and only those, sit behind
/// ctensor-sys's `experimental` feature.
#[test]
fn experimental_items_are_behind_the_feature() {
    let names = ctensor_sys_regen::experimental_names();
    for name in ["tensor_from_blob", "tensor_index_gather", "tensor_conj", "TENSOR_CONVERT_TORCH_X86"] {
        assert!(names.iter().any(|n| n == name), "{name} not found in the experimental section");
    }
    for name in ["tensor_select", "tensor_copy", "TENSOR_OK"] {
        assert!(!names.iter().any(|n| n == name), "{name} is stable");
    }
    let bindings = std::fs::read_to_string(ctensor_sys_regen::bindings_path()).unwrap();
    let lines: Vec<&str> = bindings.lines().collect();
    // The item after each gate: a constant, or the function of an extern block.
    let gated: Vec<&str> = (0..lines.len())
        .filter(|&i| lines[i] == "#[cfg(feature = \"experimental\")]")
        .map(|i| {
            if lines[i + 1].starts_with("unsafe extern") {
                lines[i + 2..].iter().map(|l| l.trim_start()).find(|l| l.starts_with("pub fn ")).unwrap()
            } else {
                lines[i + 1]
            }
        })
        .collect();
    let mut gated: Vec<String> = gated
        .iter()
        .map(|item| {
            let rest = item.trim_start_matches("pub fn ").trim_start_matches("pub const ");
            rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap().to_owned()
        })
        .collect();
    let mut names = names;
    gated.sort();
    names.sort();
    assert_eq!(gated, names);
}
