// tree-sitter-bash's external scanner (heredocs, expansions), compiled into bashguard's addon
// from the sources the `tree-sitter-bash` package ships (see bash-parser.c).
#include "scanner.c"
