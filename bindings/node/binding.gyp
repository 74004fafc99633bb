# The addon: node-gyp against the installed Node headers (scripts/build.js passes
# --nodedir), libctensor found through pkg-config (scripts/pkgconfig.js), with an rpath.
{
  "targets": [
    {
      "target_name": "ctensor_node",
      "sources": ["src/addon.cc", "src/tensor.cc", "src/views.cc", "src/creation.cc", "src/math.cc", "src/files.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "<!@(node scripts/pkgconfig.js cflags)"],
      # Errors are C++ exceptions turned into JS ones at the boundary; one that cannot be
      # thrown because a worker is being terminated is dropped instead of aborting.
      # CTENSOR_EXPERIMENTAL: the binding also wraps the header's experimental section
      # (splits, diagonal, advanced indexing, memory formats); README.md says which.
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED",
                  "NODE_API_SWALLOW_UNTHROWABLE_EXCEPTIONS", "CTENSOR_EXPERIMENTAL"],
      "libraries": ["<!@(node scripts/pkgconfig.js libs)", "<!@(node scripts/pkgconfig.js rpath)"]
    }
  ]
}
