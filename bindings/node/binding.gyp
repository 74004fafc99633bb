{
  "targets": [
    {
      "target_name": "ctensor_node",
      "sources": ["src/addon.cc", "src/tensor.cc", "src/views.cc", "src/creation.cc", "src/math.cc", "src/files.cc"],
      "include_dirs": ["<!(node -p \"require('node-addon-api').include_dir\")"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-Wall", "-Wextra", "<!@(node scripts/pkgconfig.js cflags)"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NODE_ADDON_API_DISABLE_DEPRECATED"],
      "libraries": ["<!@(node scripts/pkgconfig.js libs)", "<!@(node scripts/pkgconfig.js rpath)"]
    }
  ]
}
