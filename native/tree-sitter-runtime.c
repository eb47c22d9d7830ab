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

// The tree export's walk (native/tree-export.c describes the records): the nodes a tree cursor
// visits, in its preorder, with what ts_tree_cursor_current_node, ts_node_symbol,
// ts_tree_cursor_current_field_id, ts_node_start_byte, ts_node_end_byte and ts_node_is_missing
// give for each, read from the subtrees directly. Here, beside the runtime's own definitions:
// the cursor recomputed each of those per node through its stack (bench/README.md, seventeenth
// round: ~10% of a parse). The same rules as tree_cursor.c:
// - a child is visible when its subtree is, or when it is not an extra and the production's alias
//   sequence names it; a hidden child is entered when it has visible descendants, else skipped;
// - its symbol is the alias, else its subtree's, as the language's public symbol;
// - its field is the first non-inherited entry of the parent's field map for its structural
//   index, else, when the parent is hidden, the parent's own field; an extra has none;
// - positions: a child starts where the previous one ended plus its own padding; the first one
//   where its parent starts; the root after its padding.
typedef struct {
  const Subtree *children;
  uint32_t count, next, structural;
  uint32_t position;  // in bytes: where the next child starts
  const TSSymbol *aliases;
  const TSFieldMapEntry *fields, *fields_end;
  TSFieldId inherited;  // the field of a child that has none of its own (the parent's when hidden)
  size_t record;        // the record of the nearest visible ancestor
} BashguardWalkFrame;

static bool bashguard_walk_push(BashguardWalkFrame **frames, size_t *cap, size_t depth, const TSLanguage *language, Subtree parent, uint32_t position, TSFieldId inherited, size_t record) {
  if (depth == *cap) {
    size_t cap2 = *cap ? *cap * 2 : 256;
    BashguardWalkFrame *grown = realloc(*frames, cap2 * sizeof *grown);
    if (!grown) return false;
    *frames = grown;
    *cap = cap2;
  }
  BashguardWalkFrame *f = &(*frames)[depth];
  f->children = ts_subtree_children(parent);
  f->count = parent.ptr->child_count;
  f->next = 0;
  f->structural = 0;
  f->position = position;
  f->aliases = ts_language_alias_sequence(language, parent.ptr->production_id);
  ts_language_field_map(language, parent.ptr->production_id, &f->fields, &f->fields_end);
  f->inherited = inherited;
  f->record = record;
  return true;
}

// One node's record: symbol | field << 16, start, end (UTF-16 code units), the MISSING bit (its
// child count is added as its children are written).
static inline void bashguard_walk_record(uint32_t *r, const TSLanguage *language, TSSymbol symbol, TSFieldId field, uint32_t start, Subtree s) {
  r[0] = (uint32_t)ts_language_public_symbol(language, symbol) | (uint32_t)field << 16;
  r[1] = start / 2;
  r[2] = (start + ts_subtree_size(s).bytes) / 2;
  r[3] = ts_subtree_missing(s) ? 0x80000000u : 0;
}

// Writes the records while they fit in cap words and returns the node count (the caller compares
// it with cap); -1 when out of memory. *frames (*frames_cap of them) is reused between calls.
double bashguard_export_walk(const TSTree *tree, uint32_t *out, size_t cap, void **frames_buffer, size_t *frames_cap) {
  BashguardWalkFrame **frames = (BashguardWalkFrame **)frames_buffer;
  const TSLanguage *language = tree->language;
  Subtree root = tree->root;
  uint32_t start = ts_subtree_padding(root).bytes;
  size_t n = 1;
  if (cap >= 4) bashguard_walk_record(out, language, ts_subtree_symbol(root), 0, start, root);
  if (ts_subtree_child_count(root) == 0) return (double)n;
  size_t depth = 0;
  if (!bashguard_walk_push(frames, frames_cap, depth++, language, root, start, 0, 0)) return -1;
  while (depth > 0) {
    BashguardWalkFrame *f = &(*frames)[depth - 1];
    if (f->next == f->count) {
      depth--;
      continue;
    }
    Subtree child = f->children[f->next];
    uint32_t at = f->position;
    f->position += ts_subtree_size(child).bytes;
    if (++f->next < f->count) f->position += ts_subtree_padding(f->children[f->next]).bytes;
    bool visible = ts_subtree_visible(child);
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!ts_subtree_extra(child)) {
      uint32_t s = f->structural++;
      if (f->aliases) {
        alias = f->aliases[s];
        if (alias) visible = true;
      }
      for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
        if (!m->inherited && m->child_index == s) {
          field = m->field_id;
          break;
        }
      }
      if (!field) field = f->inherited;
    }
    size_t record = f->record;
    if (visible) {
      size_t w = n * 4;
      if (w + 4 <= cap) {
        bashguard_walk_record(out + w, language, alias ? alias : ts_subtree_symbol(child), field, at, child);
        out[record * 4 + 3]++;
      }
      record = n++;
      if (ts_subtree_child_count(child) > 0 && !bashguard_walk_push(frames, frames_cap, depth++, language, child, at, 0, record)) return -1;
    } else if (ts_subtree_visible_child_count(child) > 0) {
      if (!bashguard_walk_push(frames, frames_cap, depth++, language, child, at, field, record)) return -1;
    }
  }
  return (double)n;
}
