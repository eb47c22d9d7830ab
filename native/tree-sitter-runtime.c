// tree-sitter's C runtime, compiled into bashguard's addon from the sources the `tree-sitter`
// npm package ships (vendor/tree-sitter/lib, the same version its own binding is built from;
// binding.gyp finds them). One translation unit, as upstream builds it: its lib.c, written at
// build time by scripts/tree-sitter-runtime.mjs with one change to parser.c that gives the same
// trees without an error recovery whose result is always discarded (the script says which).
#include "bashguard-ts-lib.c"

// Whether that change is in (the script leaves parser.c unchanged when it is not the one expected).
#ifdef BASHGUARD_SKIPS_DISCARDED_RECOVERY
const int bashguard_skips_discarded_recovery = 1;
#else
const int bashguard_skips_discarded_recovery = 0;
#endif

// tree-sitter-bash, compiled into this addon, with every parse state dense: the table
// native/dense-table.c generated from the same grammar at build time (it says why). A copy of
// the grammar's language that only points elsewhere for its table, freed with free(); NULL when
// the table does not fit this grammar or this runtime, and then the grammar is used as it is.
// Here, not in tree-export.c: this unit holds the runtime's own definition of TSLanguage.
extern const uint32_t bashguard_dense_abi, bashguard_dense_states, bashguard_dense_symbols;
extern const uint16_t bashguard_dense_table[];
const TSLanguage *tree_sitter_bash(void);

TSLanguage *bashguard_dense_bash(void) {
  const TSLanguage *grammar = tree_sitter_bash();
  // The struct is copied with this runtime's layout: only for a grammar of its own ABI version.
  // The copy is freed with free(), nothing it points to: the rest is the grammar's static data.
  if (grammar->abi_version != TREE_SITTER_LANGUAGE_VERSION || bashguard_dense_abi != grammar->abi_version ||
      bashguard_dense_states != grammar->state_count || bashguard_dense_symbols != grammar->symbol_count) {
    return NULL;
  }
  TSLanguage *copy = malloc(sizeof *copy);
  if (!copy) return NULL;
  *copy = *grammar;
  copy->parse_table = bashguard_dense_table;
  copy->large_state_count = grammar->state_count;
  return copy;
}
