/*
 * The Landlock core shared by the helper (native/landlock-exec.c) and the bash builtin
 * (native/landlock-builtin.c): the ruleset, the grants (opened without following any symlink),
 * and the irreversible confinement. The rules' format and what each right covers: landlock-exec.c.
 */
#ifndef BASHGUARD_LANDLOCK_CORE_H
#define BASHGUARD_LANDLOCK_CORE_H
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* Linux's UAPI values (include/uapi/linux/landlock.h), so older headers build it too. */
#define LL_SYS_CREATE_RULESET 444
#define LL_SYS_ADD_RULE 445
#define LL_SYS_RESTRICT_SELF 446
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define SYS_OPENAT2_NR 437
#define RESOLVE_NO_MAGICLINKS_ 0x02
#define RESOLVE_NO_SYMLINKS_ 0x04

struct open_how_ {
  uint64_t flags;
  uint64_t mode;
  uint64_t resolve;
};

#define FS_WRITE_FILE (1ULL << 1)
#define FS_REMOVE_DIR (1ULL << 4)
#define FS_REMOVE_FILE (1ULL << 5)
#define FS_MAKE_CHAR (1ULL << 6)
#define FS_MAKE_DIR (1ULL << 7)
#define FS_MAKE_REG (1ULL << 8)
#define FS_MAKE_SOCK (1ULL << 9)
#define FS_MAKE_FIFO (1ULL << 10)
#define FS_MAKE_BLOCK (1ULL << 11)
#define FS_MAKE_SYM (1ULL << 12)
#define FS_REFER (1ULL << 13)    /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14) /* ABI 3 */

#define EXIT_UNAVAILABLE 121
#define EXIT_SETUP 122
#define EXIT_USAGE 125

struct ll_ruleset_attr {
  uint64_t handled_access_fs;
};

struct ll_path_beneath_attr {
  uint64_t allowed_access;
  int32_t parent_fd;
} __attribute__((packed));

#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

/*
 * Where a failure returns to instead of exiting, while nothing irreversible has been done (the
 * bash builtin, native/landlock-builtin.c: the shell it runs in must not exit, and the wrapper then
 * runs the helper, which says what failed); NULL in the helper.
 */
static jmp_buf *fail_to;

static void fail(int code, const char *what, const char *arg, int err) {
  if (fail_to) longjmp(*fail_to, code);
  /* One line; a path may hold a newline, so it is cut there. */
  char buf[1024];
  int n = snprintf(buf, sizeof buf, "bashguard-landlock: %s%s%.*s%s%s\n", what, arg ? " " : "", arg ? (int)strcspn(arg, "\n") : 0, arg ? arg : "", err ? ": " : "", err ? strerror(err) : "");
  if (n > 0) {
    if ((size_t)n >= sizeof buf) {
      n = sizeof buf - 1;
      buf[n - 1] = '\n';
    }
    ssize_t w = write(2, buf, (size_t)n);
    (void)w;
  }
  _exit(code);
}

static int abi_version(void) {
  long v = syscall(LL_SYS_CREATE_RULESET, NULL, 0, LL_CREATE_RULESET_VERSION);
  return v < 0 ? -errno : (int)v;
}

static void unavailable(int v) {
  if (v == -ENOSYS) fail(EXIT_UNAVAILABLE, "Landlock is not available: this kernel was built without it", NULL, 0);
  if (v == -EOPNOTSUPP) fail(EXIT_UNAVAILABLE, "Landlock is not available: it is disabled at boot (add landlock to the lsm= kernel parameter)", NULL, 0);
  fail(EXIT_UNAVAILABLE, "Landlock is not available", NULL, -v);
}

/* Drops every capability, the bounding set first (its change needs CAP_SETPCAP), so an exec as root regains none. */
static void drop_capabilities(void) {
  if (prctl(PR_CAPBSET_READ, 0, 0, 0, 0) >= 0) {
    for (unsigned long cap = 0; cap < 64; cap++) {
      if (prctl(PR_CAPBSET_READ, cap, 0, 0, 0) != 1) continue;
      if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EPERM) fail(EXIT_SETUP, "cannot drop capabilities", NULL, errno);
    }
  }
  (void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct { uint32_t version; int pid; } hdr = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
  struct { uint32_t effective, permitted, inheritable; } data[2];
  memset(data, 0, sizeof data);
  if (syscall(SYS_capset, &hdr, data) != 0) fail(EXIT_SETUP, "cannot drop capabilities", NULL, errno);
}

/* What the grants need: the ruleset and its rights. */
static int ruleset = -1;
static uint64_t handled, file_rights;
/*
 * Descriptors of granted paths below this number stay open (close-on-exec: the exec closes them
 * all at once, a system call less per rule); above it they are closed, so the rules never use up
 * the descriptor limit.
 */
static int keep_below;

/* Adds the rule for an open O_PATH descriptor of the kind asked for, or none when it is not that kind; closes it. */
static void grant(int fd, int dir, const char *what) {
  if (fd < 0) return; /* gone, through a symlink, or not the kind the hook saw: nothing granted */
  if (!dir) {
    struct stat st;
    if (fstat(fd, &st) != 0) fail(EXIT_SETUP, "cannot stat", what, errno);
    if (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) {
      close(fd);
      return;
    }
  }
  struct ll_path_beneath_attr rule = {dir ? handled : file_rights, fd};
  if (syscall(LL_SYS_ADD_RULE, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) != 0) {
    int err = errno;
    close(fd);
    fail(EXIT_SETUP, "cannot add a Landlock rule for", what, err);
  }
  if (fd >= keep_below) close(fd);
}

/* The flags an O_PATH open of a grant takes: never through a final symlink; a directory when one is wanted. */
static int path_flags(int dir) { return O_PATH | O_NOFOLLOW | O_CLOEXEC | (dir ? O_DIRECTORY : 0); }

/* Whether `name` is one plain path component. */
static int component(const char *name, size_t n) {
  return n > 0 && memchr(name, '/', n) == NULL && !(n == 1 && name[0] == '.') && !(n == 2 && name[0] == '.' && name[1] == '.');
}

/*
 * Opens an absolute path without following a symlink in any component: openat2 with
 * RESOLVE_NO_SYMLINKS (Linux 5.6; every kernel with Landlock ABI 3 has it), else, where it is
 * refused (ENOSYS, or EPERM from a seccomp filter), one O_NOFOLLOW openat per component. -1 when
 * it cannot be opened so.
 */
static int open_nofollow(const char *path, int dir) {
  struct open_how_ how = {(uint64_t)path_flags(dir), 0, RESOLVE_NO_SYMLINKS_ | RESOLVE_NO_MAGICLINKS_};
  long fd = syscall(SYS_OPENAT2_NR, AT_FDCWD, path, &how, sizeof how);
  if (fd >= 0 || (errno != ENOSYS && errno != EPERM)) return (int)fd;
  int at = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
  const char *p = path;
  while (at >= 0) {
    while (*p == '/') p++;
    if (*p == 0) return at; /* "/" itself */
    size_t n = strcspn(p, "/");
    char name[256];
    if (n >= sizeof name) break;
    memcpy(name, p, n);
    name[n] = 0;
    p += n;
    while (*p == '/') p++;
    int last = *p == 0;
    int next = openat(at, name, last ? path_flags(dir) : O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
    close(at);
    at = next;
    if (last) return at;
  }
  if (at >= 0) close(at);
  return -1;
}

/* Checks a path argument: absolute, no `.`, `..` or empty component (the hook's paths are physical). */
static void check_path(const char *path) {
  if (path[0] != '/') fail(EXIT_USAGE, "not an absolute path:", path, 0);
  for (const char *p = path + 1; *p;) {
    size_t n = strcspn(p, "/");
    if (!component(p, n) && !(n == 0 && p[0] == 0)) fail(EXIT_USAGE, "not a plain absolute path:", path, 0);
    p += n;
    if (*p == '/') p++;
  }
}

/* The directory the --rules text's `@` line named (open while its entries are granted). */
static int parent = -1;

/* The --rules text (see the file comment), line by line; it is cut in place. */
static void grant_rules(char *text) {
  int named = 0;
  for (char *line = text; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    char kind = line[0];
    char *arg = line + 1;
    if (kind == 'D' || kind == 'F' || kind == '@') {
      check_path(arg);
      if (kind == '@') {
        if (parent >= 0) close(parent);
        parent = open_nofollow(arg, 1);
        named = 1;
      } else
        grant(open_nofollow(arg, kind == 'D'), kind == 'D', arg);
    } else if (kind == 'd' || kind == 'f') {
      if (!component(arg, strlen(arg))) fail(EXIT_USAGE, "not an entry name in --rules:", arg, 0);
      if (!named) fail(EXIT_USAGE, "an entry before any @ line in --rules:", arg, 0);
      if (parent >= 0) grant(openat(parent, arg, path_flags(kind == 'd')), kind == 'd', arg);
    } else if (*line)
      fail(EXIT_USAGE, "unknown line in --rules:", line, 0);
    line = nl ? nl + 1 : NULL;
  }
  if (parent >= 0) close(parent);
  parent = -1;
}

/* Creates the ruleset with every write-class right this kernel's Landlock knows. */
static void begin_ruleset(void) {
  int abi = abi_version();
  if (abi < 1) unavailable(abi);
  file_rights = FS_WRITE_FILE | (abi >= 3 ? FS_TRUNCATE : 0);
  handled = file_rights | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM | (abi >= 2 ? FS_REFER : 0);
  struct ll_ruleset_attr attr = {handled};
  ruleset = (int)syscall(LL_SYS_CREATE_RULESET, &attr, sizeof attr, 0);
  if (ruleset < 0) fail(EXIT_SETUP, "cannot create a Landlock ruleset", NULL, errno);
}

/* The irreversible part, once the rules are in and the session is settled: no new privileges, no capability, the ruleset enforced. */
static void confine(void) {
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(EXIT_SETUP, "cannot set no_new_privs", NULL, errno);
  drop_capabilities();
  if (syscall(LL_SYS_RESTRICT_SELF, ruleset, 0) != 0) fail(EXIT_SETUP, "cannot enforce the Landlock ruleset", NULL, errno);
  close(ruleset);
  ruleset = -1;
}

#endif
