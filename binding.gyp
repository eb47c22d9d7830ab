{
  # bashguard's tree export (native/tree-export.c): built at install by scripts/build-native.mjs,
  # which never fails the install (without it, the parser layer uses tree-sitter's own binding).
  "variables": {
    # tree-sitter's C runtime, from the sources the `tree-sitter` package ships.
    "ts_lib%": "<!(node -p \"require('path').join(require('path').dirname(require.resolve('tree-sitter/package.json')), 'vendor', 'tree-sitter', 'lib')\")",
  },
  "targets": [
    {
      "target_name": "bashguard_tree",
      "sources": ["native/tree-export.c", "native/tree-sitter-runtime.c"],
      "include_dirs": ["<(ts_lib)/include", "<(ts_lib)/src"],
      "defines": ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
      "cflags": ["-std=c11", "-fvisibility=hidden"],
      "xcode_settings": {"GCC_SYMBOLS_PRIVATE_EXTERN": "YES", "OTHER_CFLAGS": ["-std=c11"]},
    }
  ]
}
