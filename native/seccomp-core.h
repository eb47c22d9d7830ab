/*
 * The seccomp filter the enforcement applies where bubblewrap does not (the mounts made in the
 * client's bash by native/landlock-builtin.c, or by the helper native/landlock-exec.c): the program
 * comes from the hook as hex text (`--seccomp HEX`, src/layers/sandbox/seccomp.ts, the same bytes
 * bubblewrap reads from a descriptor), each instruction 16 hex digits of a `struct sock_filter` in
 * the machine's (little-endian) layout. It is parsed before anything changes and installed after
 * `confine()` has set no_new_privs, so no capability is needed.
 */
#ifndef BASHGUARD_SECCOMP_CORE_H
#define BASHGUARD_SECCOMP_CORE_H
#include <linux/filter.h>
#include "landlock-core.h"

#define SECCOMP_MODE_FILTER_ 2
/* BPF_MAXINSNS */
#define FILTER_MAX 4096

static int hex_digit(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The program in `hex`, into `prog` (its instructions allocated); fails (EXIT_USAGE) on anything but whole instructions of hex digits. */
static void parse_filter(const char *hex, struct sock_fprog *prog) {
  size_t len = strlen(hex);
  if (len == 0 || len % 16 != 0 || len / 16 > FILTER_MAX) fail(EXIT_USAGE, "--seccomp: not a whole number of instructions", NULL, 0);
  unsigned char *bytes = calloc(len / 2, 1);
  if (!bytes) fail(EXIT_SETUP, "out of memory", NULL, ENOMEM);
  for (size_t i = 0; i < len / 2; i++) {
    int hi = hex_digit(hex[2 * i]), lo = hex_digit(hex[2 * i + 1]);
    if (hi < 0 || lo < 0) {
      free(bytes);
      fail(EXIT_USAGE, "--seccomp: not hex", NULL, 0);
    }
    bytes[i] = (unsigned char)(hi << 4 | lo);
  }
  prog->len = (unsigned short)(len / 16);
  prog->filter = (struct sock_filter *)(void *)bytes;
}

/* Installs the program on this thread (and what it runs); after confine(): no_new_privs is set. */
static void install_filter(struct sock_fprog *prog) {
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER_, prog, 0, 0) != 0) fail(EXIT_SETUP, "cannot apply the seccomp filter", NULL, errno);
  free(prog->filter);
  prog->filter = NULL;
}

#endif
