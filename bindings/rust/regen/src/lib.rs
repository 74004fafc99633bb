//! Generates `ctensor-sys/src/bindings.rs` from the headers in this checkout's
//! `include/` with bindgen. `cargo run -p ctensor-sys-regen` rewrites the file;
//! this crate's test fails when the checked-in file differs from a fresh run.

use std::path::{Path, PathBuf};

use bindgen::callbacks::{IntKind, ParseCallbacks};

/// bindings/rust, the workspace this crate belongs to.
fn workspace_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("regen lives in bindings/rust")
}

/// The repository's `include/` folder (the headers the bindings must match).
pub fn include_dir() -> PathBuf {
    workspace_dir().join("../../include")
}

/// Where the checked-in bindings live.
pub fn bindings_path() -> PathBuf {
    workspace_dir().join("ctensor-sys/src/bindings.rs")
}

/// Gives each macro the C type of the parameters it is passed to, so Rust code
/// needs no casts (bindgen would make them all `u32`).
#[derive(Debug)]
struct MacroTypes;

impl ParseCallbacks for MacroTypes {
    fn int_macro(&self, name: &str, _value: i64) -> Option<IntKind> {
        let kind = match name {
            // flag words (uint32_t parameters)
            "TENSOR_READONLY" | "TENSOR_ARROW_NO_COPY" => IntKind::U32,
            // ArrowSchema.flags is int64_t
            n if n.starts_with("ARROW_FLAG_") => IntKind::I64,
            n if n.starts_with("TENSOR_MAP_") || n.starts_with("TENSOR_LOAD_") => IntKind::U32,
            // conversion policies (uint32_t)
            n if n.starts_with("TENSOR_CONVERT_") => IntKind::U32,
            // DLManagedTensorVersioned.flags is uint64_t
            n if n.starts_with("DLPACK_FLAG_") => IntKind::U64,
            // dims, sizes and slice bounds are int64_t
            "TENSOR_MAX_DIMS" | "TENSOR_SLICE_END" | "TENSOR_ALL_DIMS" => IntKind::I64,
            n if n.starts_with("DLPACK_") && n.ends_with("_VERSION") => IntKind::U32,
            // statuses, dtypes, copy modes, memory formats, versions and the rest are int32_t
            _ => IntKind::I32,
        };
        Some(kind)
    }
}

/// The bindings for `include/ctensor_arrow.h` (which includes `ctensor.h` and `ctensor_dlpack.h`),
/// formatted, exactly as they are checked in.
pub fn generate() -> String {
    let include = include_dir();
    let header = include.join("ctensor_arrow.h");
    let bindings = bindgen::Builder::default()
        .header(header.to_str().expect("UTF-8 path"))
        .clang_arg(format!("-I{}", include.display()))
        // The experimental section too (an includer's opt-in, see ctensor.h),
        // behind the crate's `experimental` feature (gate_experimental).
        .clang_arg("-DCTENSOR_EXPERIMENTAL")
        // Everything the three headers declare, nothing from the system headers.
        .allowlist_file(r".*[/\\]ctensor(_dlpack|_arrow)?\.h")
        // INT64_MAX / INT64_MIN macros need clang to evaluate them.
        .clang_macro_fallback()
        .parse_callbacks(Box::new(MacroTypes))
        .prepend_enum_name(false)
        .layout_tests(true)
        .formatter(bindgen::Formatter::Prettyplease)
        .generate()
        .expect("bindgen could not parse include/ctensor_arrow.h")
        .to_string();
    gate_experimental(&bindings, &experimental_names())
}

/// The names `include/ctensor.h` declares only for includers that define
/// `CTENSOR_EXPERIMENTAL`: the functions and macros between `#ifdef
/// CTENSOR_EXPERIMENTAL` and its `#endif`.
pub fn experimental_names() -> Vec<String> {
    let header = std::fs::read_to_string(include_dir().join("ctensor.h")).expect("include/ctensor.h is readable");
    let (_, rest) = header.split_once("#ifdef CTENSOR_EXPERIMENTAL").expect("ctensor.h has an experimental section");
    let (section, _) = rest.split_once("#endif /* CTENSOR_EXPERIMENTAL */").expect("the section ends");
    section
        .lines()
        .filter_map(|line| {
            if let Some(rest) = line.strip_prefix("#define ") {
                rest.split_whitespace().next()
            } else if line.starts_with("CTENSOR_API") {
                line.split('(').next()?.split(|c: char| c.is_whitespace() || c == '*').last()
            } else {
                None
            }
        })
        .map(str::to_owned)
        .collect()
}

/// `bindings` with every item of the experimental section (a constant, or an
/// `extern` block, which bindgen gives one function each) behind the crate's
/// `experimental` feature.
fn gate_experimental(bindings: &str, names: &[String]) -> String {
    let lines: Vec<&str> = bindings.lines().collect();
    let mut out = String::with_capacity(bindings.len() + 64 * names.len());
    for (i, line) in lines.iter().enumerate() {
        let declared = if line.starts_with("unsafe extern \"C\" {") {
            let body: Vec<&str> = lines[i + 1..].iter().take_while(|l| !l.starts_with('}')).copied().collect();
            assert_eq!(body.iter().filter(|l| l.trim_start().starts_with("pub fn ")).count(), 1, "one function per extern block");
            body.iter().find_map(|l| l.trim_start().strip_prefix("pub fn "))
        } else {
            line.strip_prefix("pub const ")
        };
        let name = declared.map(|rest| rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or(""));
        if name.is_some_and(|name| names.iter().any(|n| n == name)) {
            out.push_str("#[cfg(feature = \"experimental\")]\n");
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}
