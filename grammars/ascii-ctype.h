/*
 * Force-included (clang -include) when scripts/build-grammar.mjs compiles tree-sitter-bash's
 * external scanner to WASM.
 *
 * Why: the scanner classifies characters with iswalpha/iswalnum/iswspace/iswdigit. The native
 * binding runs inside Node, which never calls setlocale, so glibc answers for the C locale:
 * ASCII only. A WASM grammar imports those functions from web-tree-sitter's runtime, whose libc
 * answers for all of Unicode, so `é[ x` became a broken subscripted assignment there (ERROR) and
 * a command natively. Bash agrees with the native reading: its identifiers are ASCII. These
 * definitions give the WASM build the same C-locale classes, so both backends build the same
 * tree for every input.
 */
#ifndef BASHGUARD_ASCII_CTYPE_H
#define BASHGUARD_ASCII_CTYPE_H

#include <wctype.h>

static inline int bashguard_iswdigit(wint_t c) { return c >= '0' && c <= '9'; }
static inline int bashguard_iswalpha(wint_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static inline int bashguard_iswalnum(wint_t c) { return bashguard_iswalpha(c) || bashguard_iswdigit(c); }
/* The C locale's white space: space, \t, \n, \v, \f, \r. */
static inline int bashguard_iswspace(wint_t c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

#undef iswdigit
#undef iswalpha
#undef iswalnum
#undef iswspace
#define iswdigit bashguard_iswdigit
#define iswalpha bashguard_iswalpha
#define iswalnum bashguard_iswalnum
#define iswspace bashguard_iswspace

#endif
