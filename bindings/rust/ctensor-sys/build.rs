//! Links libctensor: from `CTENSOR_LIB_DIR` when set, else wherever pkg-config's
//! `ctensor` (or, for an uninstalled build, `ctensor-uninstalled`) points.
//!
//! The folder holding libctensor.so goes to dependents as `DEP_CTENSOR_LIBDIR`
//! (`links = "ctensor"`) and into this crate's own test binaries as an rpath.
//! Cargo passes a build script's link arguments only to the package's own
//! binaries, so a binary crate sets its rpath itself: `ctensor`'s and the
//! example's build scripts do, as bindings/rust/README.md shows ("Installed to a
//! custom prefix").

use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=CTENSOR_LIB_DIR");
    let libdir = if let Ok(dir) = env::var("CTENSOR_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=dylib=ctensor");
        println!("cargo:root={dir}");
        dir.into()
    } else {
        match pkg_config::Config::new().atleast_version("0.1").probe("ctensor") {
            Ok(lib) => {
                for dir in &lib.include_paths {
                    println!("cargo:include={}", dir.display());
                }
                lib.link_paths.first().cloned().unwrap_or_default()
            }
            Err(err) => panic!(
                "libctensor not found: {err}\n\
                 Install it (meson install -C build) and point PKG_CONFIG_PATH at \
                 <prefix>/lib/x86_64-linux-gnu/pkgconfig, point it at a build's \
                 meson-uninstalled folder, or set CTENSOR_LIB_DIR to the folder holding libctensor.so."
            ),
        }
    };
    if !libdir.as_os_str().is_empty() {
        println!("cargo:libdir={}", libdir.display());
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", libdir.display());
    }
}
