// Build-time tool (binding.gyp runs it, the addon never does): writes tree-sitter-bash's parse
// table with every state dense, as a C source file compiled into bashguard's addon.
//
// Why (bench/README.md, thirteenth round): tree-sitter stores the table of most states sparsely
// ("small" states: lists of symbols per action, scanned linearly on every lookup). bash has 7,571
// states of which only 523 are dense, and that scan (`ts_language_lookup`) was about a quarter of
// the native parse. With every state dense a lookup is one index, and the parse of the bench's
// 320 scripts took 29% less time. Building the table when a process starts cost 2-4 ms (4.2 MB
// of fresh memory); compiled in, it is read-only data in the addon's file: the kernel maps the
// pages a parse touches from the page cache, shared by every process.
//
// The table is derived from the very grammar compiled into the addon in the same build, so it
// cannot disagree with it; the addon still checks the dimensions before using it.
//
// usage: dense-table OUT.c
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tree_sitter/parser.h"

const TSLanguage *tree_sitter_bash(void);

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUT.c\n", argv[0]);
    return 2;
  }
  const TSLanguage *l = tree_sitter_bash();
  const size_t symbols = l->symbol_count, states = l->state_count, large = l->large_state_count;
  uint16_t *table = calloc(states * symbols, sizeof *table);
  if (!table) return 1;
  for (size_t i = 0; i < large * symbols; i++) table[i] = l->parse_table[i];
  // A small state's entry: groups of (value, count, symbols...); the first group naming a symbol
  // is the one tree-sitter's lookup returns.
  for (size_t state = large; state < states; state++) {
    const uint16_t *data = &l->small_parse_table[l->small_parse_table_map[state - large]];
    uint16_t *row = &table[state * symbols];
    unsigned groups = *data++;
    for (unsigned g = 0; g < groups; g++) {
      uint16_t value = *data++;
      unsigned count = *data++;
      for (unsigned j = 0; j < count; j++, data++) {
        if (*data >= symbols) {
          fprintf(stderr, "dense-table: symbol %u out of range in state %zu\n", *data, state);
          return 1;
        }
        if (row[*data] == 0) row[*data] = value;
      }
    }
  }
  FILE *out = fopen(argv[1], "w");
  if (!out) {
    perror(argv[1]);
    return 1;
  }
  fprintf(out, "// Generated at build time by native/dense-table.c from tree-sitter-bash's parser.c. Do not edit.\n");
  fprintf(out, "#include <stdint.h>\n");
  fprintf(out, "const uint32_t bashguard_dense_abi = %u;\n", (unsigned)l->abi_version);
  fprintf(out, "const uint32_t bashguard_dense_states = %zu;\n", states);
  fprintf(out, "const uint32_t bashguard_dense_symbols = %zu;\n", symbols);
  // Only the non-zero entries are written (most are zero): the compiler fills in the rest.
  fprintf(out, "const uint16_t bashguard_dense_table[%zu] = {", states * symbols);
  size_t written = 0;
  for (size_t i = 0; i < states * symbols; i++) {
    if (table[i] == 0) continue;
    fprintf(out, "%s[%zu]=%u,", written++ % 16 == 0 ? "\n" : "", i, (unsigned)table[i]);
  }
  fprintf(out, "\n};\n");
  free(table);
  if (fclose(out) != 0) {
    perror(argv[1]);
    return 1;
  }
  return 0;
}
