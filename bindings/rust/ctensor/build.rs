//! Puts the folder ctensor-sys linked libctensor from into this package's
//! binaries as an rpath, so they run without LD_LIBRARY_PATH after
//! `meson install` to a custom prefix (bindings/rust/README.md).

fn main() {
    if let Ok(dir) = std::env::var("DEP_CTENSOR_LIBDIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    }
}
