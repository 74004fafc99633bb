//! Links libctensor: from `CTENSOR_LIB_DIR` when set, else wherever pkg-config's
//! `ctensor` (or, for an uninstalled build, `ctensor-uninstalled`) points.

use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=CTENSOR_LIB_DIR");
    if let Ok(dir) = env::var("CTENSOR_LIB_DIR") {
        println!("cargo:rustc-link-search=native={dir}");
        println!("cargo:rustc-link-lib=dylib=ctensor");
        println!("cargo:root={dir}");
        return;
    }
    match pkg_config::Config::new().atleast_version("0.1").probe("ctensor") {
        Ok(lib) => {
            for dir in &lib.include_paths {
                println!("cargo:include={}", dir.display());
            }
        }
        Err(err) => panic!(
            "libctensor not found: {err}\n\
             Install it (meson install -C build), point PKG_CONFIG_PATH at a build's \
             meson-uninstalled folder, or set CTENSOR_LIB_DIR to the folder holding libctensor.so."
        ),
    }
}
