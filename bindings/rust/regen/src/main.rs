//! `cargo run -p ctensor-sys-regen`: rewrites ctensor-sys/src/bindings.rs from include/.

fn main() {
    let path = ctensor_sys_regen::bindings_path();
    std::fs::write(&path, ctensor_sys_regen::generate()).expect("cannot write the bindings");
    println!("wrote {}", path.display());
}
