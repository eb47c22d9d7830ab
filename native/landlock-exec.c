/*
 * bashguard-landlock: runs a program with writes confined by Landlock (src/layers/sandbox/landlock.ts
 * computes the rules; the hook's enforcement uses it where bubblewrap cannot start).
 *
 *   bashguard-landlock [--rw DIR]... [--rw-file FILE]... [--rules TEXT] [--seccomp HEX] -- PROG ARGS...
 *   bashguard-landlock --mounts TEXT [--seccomp HEX] -- PROG ARGS...
 *   bashguard-landlock --reserve TEXT -- PROG ARGS...   the text's reservations, then PROG (bubblewrap)
 *   bashguard-landlock --probe        prints the Landlock ABI version, or fails with exit 121
 *
 * Every write-class right the kernel's Landlock ABI knows is handled, and granted only beneath the
 * --rw directories and on the --rw-file files (the file rights only). Reading and executing are
 * never restricted. Then: no new privileges, every capability dropped (as bubblewrap's --cap-drop
 * ALL: root keeps its uid, not its power over files it does not own, /proc/sys, modules or BPF), a
 * new session (no TIOCSTI into the client's terminal), and exec.
 *
 * --mounts: the enforcement plan's mounts in new user and mount namespaces, then a Landlock domain
 * (native/mounts-core.h; the text and what it covers: landlock-builtin.c's `bashguard_mounts`,
 * which does the same in the client's own bash): the hook's wrapper for a client shell other than
 * bash. Where the kernel refuses the namespaces it exits 121 before changing anything.
 *
 * --rules carries the same grants in one argument (the hook's wrapper: a few hundred words cost
 * the client's shell ~2 ms to expand, one quoted word almost nothing), one per line:
 *   D/abs/dir    a directory, granted whole          F/abs/file   a file, the file rights
 *   @/abs/dir    the directory the next relative lines name entries of
 *   dNAME        an entry of it that is a directory   fNAME        an entry that is not one
 * An entry name is one component (no `/`, not `.` or `..`).
 *
 * Each grant is opened without following any symlink (an absolute path with openat2's
 * RESOLVE_NO_SYMLINKS, or component by component with O_NOFOLLOW where openat2 is refused; an
 * entry with openat(dir, name, O_PATH|O_NOFOLLOW)), and must still be the kind the hook saw: a
 * directory for D/d/--rw, anything but a directory or symlink for F/f/--rw-file. A path that is
 * gone, passes through a symlink, became a symlink or changed kind since the hook computed the
 * rules gets no rule: nothing is granted in its place (fail closed), so a granted name swapped
 * for a symlink to a protected directory after the hook answered grants nothing there.
 *
 * Not handled: IOCTL_DEV. The right is fixed when a file is opened, so descriptors inherited from
 * the client (its pipes, its terminal) keep it whatever the ruleset says; the device ioctls that
 * write (a block device's discard or zero-out) need a descriptor opened for writing, which
 * WRITE_FILE already refuses outside the grants; and denying it would break `stty` and every
 * program that opens /dev/tty.
 *
 * Exit status: the program's own once it runs; 121 Landlock is not available (the kernel lacks it
 * or it is disabled); 122 the sandbox could not be set up; 125 bad arguments; 126/127 the program
 * could not be run (as a shell: not executable / not found). Each failure prints one line on
 * stderr starting with "bashguard-landlock:".
 *
 * No library (libseccomp-style wrappers, liblandlock): the system calls are called by number,
 * so the binary builds with any C compiler from Linux's stable ABI alone and links statically
 * (one prebuilt binary serves glibc and musl systems, and starts without a dynamic loader).
 */
#include "mounts-core.h"
#include "seccomp-core.h"

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
  /* --mounts TEXT -- PROG ARGS: the plan's mounts (native/mounts-core.h), for a client shell other than bash. */
  /* (--mounts TEXT --seccomp HEX -- PROG ARGS: with the filter the hook asks for, native/seccomp-core.h) */
  int filtered = argc >= 7 && strcmp(argv[1], "--mounts") == 0 && strcmp(argv[3], "--seccomp") == 0 && strcmp(argv[5], "--") == 0;
  if (filtered || (argc >= 5 && strcmp(argv[1], "--mounts") == 0 && strcmp(argv[3], "--") == 0)) {
    char *text = argv[2];
    struct sock_fprog prog = {0, NULL};
    if (filtered) parse_filter(argv[4], &prog);
    char **cmd = argv + (filtered ? 6 : 4);
    struct op *ops = calloc(mount_lines(text), sizeof *ops);
    if (!ops) fail(EXIT_SETUP, "out of memory", NULL, ENOMEM);
    size_t n = parse_mounts(text, ops);
    keep_below = 1024;
    begin_ruleset();
    mounts_possible(EXIT_UNAVAILABLE);
    new_session();
    reserve_ops(ops, n, 0);
    make_mounts(ops, n, EXIT_UNAVAILABLE);
    reserve_done();
    confine();
    if (filtered) install_filter(&prog);
    execvp(cmd[0], cmd);
    int err = errno;
    fail(err == ENOENT ? 127 : 126, "cannot run", cmd[0], err);
  }
  /* --reserve TEXT -- PROG ARGS: the text's reservations made (native/reserve-core.h), the lock passed on to PROG (bubblewrap). */
  if (argc >= 5 && strcmp(argv[1], "--reserve") == 0 && strcmp(argv[3], "--") == 0) {
    char *text = argv[2];
    struct op *ops = calloc(mount_lines(text), sizeof *ops);
    if (!ops) fail(EXIT_SETUP, "out of memory", NULL, ENOMEM);
    size_t n = parse_mounts(text, ops);
    reserve_ops(ops, n, 1);
    execvp(argv[4], argv + 4);
    int err = errno;
    fail(err == ENOENT ? 127 : 126, "cannot run", argv[4], err);
  }
  int first = 1;
  while (first < argc && strcmp(argv[first], "--") != 0) {
    const char *o = argv[first];
    if ((strcmp(o, "--rw") != 0 && strcmp(o, "--rw-file") != 0 && strcmp(o, "--rules") != 0 && strcmp(o, "--seccomp") != 0) || first + 1 >= argc) fail(EXIT_USAGE, "usage: bashguard-landlock [--rw DIR]... [--rw-file FILE]... [--rules TEXT] [--seccomp HEX] -- PROG ARGS... (got", o, 0);
    if (strcmp(o, "--rules") != 0 && strcmp(o, "--seccomp") != 0) check_path(argv[first + 1]);
    first += 2;
  }
  if (first + 1 >= argc) fail(EXIT_USAGE, "usage: bashguard-landlock [--rw DIR]... [--rw-file FILE]... [--rules TEXT] -- PROG ARGS...", NULL, 0);

  struct rlimit nofile;
  keep_below = getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur != RLIM_INFINITY ? (int)(nofile.rlim_cur > 1088 ? 1024 : nofile.rlim_cur / 2) : 1024;
  begin_ruleset();

  struct sock_fprog prog = {0, NULL};
  for (int i = 1; i < first; i += 2) {
    if (strcmp(argv[i], "--seccomp") == 0) parse_filter(argv[i + 1], &prog);
    else if (strcmp(argv[i], "--rules") == 0) grant_rules(argv[i + 1]);
    else {
      int dir = strcmp(argv[i], "--rw") == 0;
      grant(open_nofollow(argv[i + 1], dir), dir, argv[i + 1]);
    }
  }

  new_session();
  confine();
  if (prog.filter) install_filter(&prog);
  execvp(argv[first + 1], argv + first + 1);
  int err = errno;
  fail(err == ENOENT ? 127 : 126, "cannot run", argv[first + 1], err);
  return 126;
}
