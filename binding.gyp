{
  # bashguard's tree export (native/tree-export.c): built at install by scripts/build-native.mjs,
  # which never fails the install (without it, the parser layer uses tree-sitter's own binding).
  "variables": {
    # tree-sitter's C runtime, from the sources the `tree-sitter` package ships.
    "ts_lib%": "<!(node -p \"require('path').join(require('path').dirname(require.resolve('tree-sitter/package.json')), 'vendor', 'tree-sitter', 'lib')\")",
    # The node that runs the build (for the runtime's build step below).
    "node_exe%": "<!(node -p process.execPath)",
    # The bash grammar, from the sources the `tree-sitter-bash` package ships (the same its own
    # addon and prebuilds are built from).
    "bash_src%": "<!(node -p \"require('path').join(require('path').dirname(require.resolve('tree-sitter-bash/package.json')), 'src')\")",
  },
  "targets": [
    {
      # The grammar (its own include path: tree-sitter's runtime has a parser.c of its own).
      "target_name": "bashguard_bash_grammar",
      "type": "static_library",
      "sources": ["native/bash-parser.c", "native/bash-scanner.c"],
      "include_dirs": ["<(bash_src)"],
      # -Wno-unused-value: the scanner's `array_pop` statements (upstream code, not ours).
      "cflags": ["-std=c11", "-fvisibility=hidden", "-fPIC", "-Wno-unused-value"],
      "xcode_settings": {"GCC_SYMBOLS_PRIVATE_EXTERN": "YES", "OTHER_CFLAGS": ["-std=c11"]},
    },
    {
      # Build-time tool: the grammar's parse table with every state dense, as C (its header says why).
      "target_name": "bashguard_dense_table",
      "type": "executable",
      "dependencies": ["bashguard_bash_grammar"],
      "sources": ["native/dense-table.c"],
      "include_dirs": ["<(bash_src)"],
      "cflags": ["-std=c11"],
      "xcode_settings": {"OTHER_CFLAGS": ["-std=c11"]},
    },
    {
      "target_name": "bashguard_tree",
      "dependencies": ["bashguard_bash_grammar", "bashguard_dense_table"],
      "sources": ["native/tree-export.c", "native/file-io.c", "native/tree-sitter-runtime.c"],
      "include_dirs": ["<(ts_lib)/include", "<(ts_lib)/src", "<(INTERMEDIATE_DIR)"],
      "defines": ["_POSIX_C_SOURCE=200112L", "_DEFAULT_SOURCE"],
      "cflags": ["-std=c11", "-fvisibility=hidden"],
      "xcode_settings": {"GCC_SYMBOLS_PRIVATE_EXTERN": "YES", "OTHER_CFLAGS": ["-std=c11"]},
      # dlsym (sha256Hex looks up OpenSSL's SHA256 at run time): in libc since glibc 2.34, in
      # libdl before.
      "conditions": [["OS=='linux'", {"libraries": ["-ldl"]}]],
      "actions": [
        {
          # tree-sitter's runtime with one change to its parser.c that gives the same trees sooner
          # (the script's header says which and why); native/tree-sitter-runtime.c includes it.
          "action_name": "tree_sitter_runtime",
          "inputs": ["scripts/tree-sitter-runtime.mjs", "<(ts_lib)/src/lib.c", "<(ts_lib)/src/parser.c"],
          "outputs": ["<(INTERMEDIATE_DIR)/bashguard-ts-lib.c", "<(INTERMEDIATE_DIR)/bashguard-ts-parser.c"],
          "action": ["<(node_exe)", "scripts/tree-sitter-runtime.mjs", "<(ts_lib)/src", "<(INTERMEDIATE_DIR)"],
        },
        {
          "action_name": "dense_parse_table",
          "inputs": ["<(PRODUCT_DIR)/bashguard_dense_table<(EXECUTABLE_SUFFIX)"],
          "outputs": ["<(INTERMEDIATE_DIR)/dense-parse-table.c"],
          "action": ["<(PRODUCT_DIR)/bashguard_dense_table<(EXECUTABLE_SUFFIX)", "<@(_outputs)"],
          "process_outputs_as_sources": 1,
        }
      ],
    }
  ]
}
