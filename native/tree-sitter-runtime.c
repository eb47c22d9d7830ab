// tree-sitter's C runtime, compiled into bashguard's addon from the sources the `tree-sitter`
// npm package ships (vendor/tree-sitter/lib, the same version its own binding is built from;
// binding.gyp finds them). One translation unit, as upstream builds it.
#include "lib.c"
