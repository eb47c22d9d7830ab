// tree-sitter-bash's generated parser, compiled into bashguard's addon from the sources the
// `tree-sitter-bash` package ships (binding.gyp finds them; the same its own addon and prebuilds
// are built from). A unit of its own, as upstream builds it.
#include "parser.c"
