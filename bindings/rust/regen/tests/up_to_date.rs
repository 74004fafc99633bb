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
