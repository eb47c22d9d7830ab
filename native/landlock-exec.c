/*
 * bashguard-landlock: runs a program with writes confined by Landlock (src/layers/sandbox/landlock.ts
 * computes the rules; the hook's enforcement uses it where bubblewrap cannot start).
 *
 *   bashguard-landlock [--rw PATH]... [--rw-file PATH]... -- PROG ARGS...
 *   bashguard-landlock --probe        prints the Landlock ABI version, or fails with exit 121
 *
 * Every write-class right the kernel's Landlock ABI knows is handled, and granted only beneath the
 * --rw paths (--rw-file: the file rights only). Reading and executing are never restricted. Then:
 * no new privileges, every capability dropped (as bubblewrap's --cap-drop ALL: root keeps its
 * uid, not its power over files it does not own, /proc/sys, modules or BPF), a new session (no
 * TIOCSTI into the client's terminal), and exec.
 *
 * Not handled: IOCTL_DEV. The right is fixed when a file is opened, so descriptors inherited from
 * the client (its pipes, its terminal) keep it whatever the ruleset says; the device ioctls that
 * write (a block device's discard or zero-out) need a descriptor opened for writing, which
 * WRITE_FILE already refuses outside the grants; and denying it would break `stty` and every
 * program that opens /dev/tty.
 *
 * A path that does not exist or is a symlink gets no rule (a symlink's rule would grant its
 * target's tree). Paths are opened with O_PATH|O_NOFOLLOW.
 *
 * Exit status: the program's own once it runs; 121 Landlock is not available (the kernel lacks it
 * or it is disabled); 122 the sandbox could not be set up; 125 bad arguments; 126/127 the program
 * could not be run (as a shell: not executable / not found). Each failure prints one line on
 * stderr starting with "bashguard-landlock:".
 *
 * No library (libseccomp-style wrappers, liblandlock): the three system calls are called by number,
 * so the binary builds with any C compiler from Linux's stable ABI alone and links statically
 * (one prebuilt binary serves glibc and musl systems, and starts without a dynamic loader).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
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

static void fail(int code, const char *what, const char *arg, int err) {
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

/* A new session (no controlling terminal). A process group leader cannot start one: fork, and the parent passes the status on. */
static void new_session(void) {
  if (setsid() >= 0) return;
  pid_t child = fork();
  if (child < 0) fail(EXIT_SETUP, "cannot fork", NULL, errno);
  if (child == 0) {
    if (setsid() < 0) fail(EXIT_SETUP, "cannot start a new session", NULL, errno);
    return;
  }
  int status;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) fail(EXIT_SETUP, "cannot wait for the command", NULL, errno);
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
    int v = abi_version();
    if (v < 1) unavailable(v);
    printf("%d\n", v);
    return 0;
  }
  int first = 1;
  while (first < argc && strcmp(argv[first], "--") != 0) {
    if ((strcmp(argv[first], "--rw") != 0 && strcmp(argv[first], "--rw-file") != 0) || first + 1 >= argc) fail(EXIT_USAGE, "usage: bashguard-landlock [--rw PATH]... [--rw-file PATH]... -- PROG ARGS... (got", argv[first], 0);
    if (argv[first + 1][0] != '/') fail(EXIT_USAGE, "not an absolute path:", argv[first + 1], 0);
    first += 2;
  }
  if (first + 1 >= argc) fail(EXIT_USAGE, "usage: bashguard-landlock [--rw PATH]... [--rw-file PATH]... -- PROG ARGS...", NULL, 0);

  int abi = abi_version();
  if (abi < 1) unavailable(abi);
  const uint64_t file_rights = FS_WRITE_FILE | (abi >= 3 ? FS_TRUNCATE : 0);
  const uint64_t handled = file_rights | FS_REMOVE_DIR | FS_REMOVE_FILE | FS_MAKE_CHAR | FS_MAKE_DIR | FS_MAKE_REG | FS_MAKE_SOCK | FS_MAKE_FIFO | FS_MAKE_BLOCK | FS_MAKE_SYM | (abi >= 2 ? FS_REFER : 0);
  struct ll_ruleset_attr attr = {handled};
  int ruleset = (int)syscall(LL_SYS_CREATE_RULESET, &attr, sizeof attr, 0);
  if (ruleset < 0) fail(EXIT_SETUP, "cannot create a Landlock ruleset", NULL, errno);

  for (int i = 1; i < first; i += 2) {
    const char *path = argv[i + 1];
    int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue; /* gone since the rules were computed: nothing to grant */
    struct stat st;
    if (fstat(fd, &st) != 0) fail(EXIT_SETUP, "cannot stat", path, errno);
    if (!S_ISLNK(st.st_mode)) {
      int dir = S_ISDIR(st.st_mode) && strcmp(argv[i], "--rw") == 0;
      struct ll_path_beneath_attr rule = {dir ? handled : file_rights, fd};
      if (!S_ISDIR(st.st_mode) || !dir) rule.allowed_access = file_rights;
      if (syscall(LL_SYS_ADD_RULE, ruleset, LL_RULE_PATH_BENEATH, &rule, 0) != 0) fail(EXIT_SETUP, "cannot add a Landlock rule for", path, errno);
    }
    close(fd);
  }

  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail(EXIT_SETUP, "cannot set no_new_privs", NULL, errno);
  drop_capabilities();
  new_session();
  if (syscall(LL_SYS_RESTRICT_SELF, ruleset, 0) != 0) fail(EXIT_SETUP, "cannot enforce the Landlock ruleset", NULL, errno);
  close(ruleset);
  execvp(argv[first + 1], argv + first + 1);
  int err = errno;
  fail(err == ENOENT ? 127 : 126, "cannot run", argv[first + 1], err);
  return 126;
}
