/*
 * bashguard_landlock: a bash loadable builtin that confines the shell it is loaded into with the
 * same Landlock rules as the helper (native/landlock-exec.c, whose file comment gives the rules'
 * format and what they cover), so the client's own shell runs the command: no fork, no exec, no
 * inner shell, and the command keeps that shell's functions, aliases, `cd` and exit status as it
 * would unwrapped. The hook's Landlock wrapper (src/layers/sandbox/landlock.ts) uses it where the
 * client's shell is bash and falls back to the helper where it cannot load or declines:
 *
 *   builtin enable -f .../bashguard-landlock.so bashguard_landlock && builtin bashguard_landlock --rules TEXT
 *
 * Exit status: 0 once the shell is confined. Before anything irreversible it declines quietly
 * with a status (the helper then does the same work, or fails saying why): 2 bad arguments, 3 the
 * shell cannot be put in a session without a controlling terminal (a process group leader that
 * does not lead its own session, or a session leader with a terminal: the helper forks for that),
 * else the helper's status for the failure (121, 122, 125). Past that point (no_new_privs, the
 * capabilities, restrict_self) a failure ends the shell with the helper's status and message, so
 * the command never runs unconfined.
 *
 * The shell stays confined after the command (Claude Code then writes `pwd -P` to its cwd file:
 * the hook uses this builtin only where the rules grant that directory whole).
 *
 * bashguard_mounts: the bubblewrap plan's mounts in the client's own shell (the hook's wrapper under
 * `"enforce": "auto"`, src/layers/sandbox/enforce.ts), bubblewrap where it cannot:
 *
 *   builtin enable -f .../bashguard-landlock.so bashguard_mounts && builtin bashguard_mounts --mounts TEXT
 *
 * A new user and mount namespace for this shell (its uid and gid mapped to themselves, host mounts
 * still propagating in), then, in TEXT's order, one line each: `r/path` the path bound onto itself
 * read-only (recursively), `w/path` bound onto itself as the host has it (a mount point: it cannot
 * be renamed away), `n/path` /dev/null bound read-only onto the (reserved, empty) file, `t/path` an
 * empty read-only tmpfs on the (reserved) directory. Every source is taken from the host's tree
 * before the first mount, as bubblewrap takes its sources from the old root. Then Landlock, for
 * what a mount namespace does not stop: every write is granted (`/` whole; as root, every top
 * entry but /proc, /sys and /dev, and in /dev only its harmless nodes, as bubblewrap's minimal
 * /dev and read-only /proc/sys), which makes the shell a Landlock domain: no process outside it can
 * be ptraced or reached through /proc/PID/root, cwd or fd (no pid namespace hides them), and no
 * mount can be made, moved or removed. Then no new privileges, no capability, and a session without
 * a terminal. The shell's uid and gid stay (files it makes are the user's).
 *
 * Exit status as bashguard_landlock's: it declines (2 usage, 3 session) before unshare(2), also
 * where the kernel refuses a user namespace or lacks Landlock or the new mount API (the wrapper then
 * runs bubblewrap); once the namespaces exist, any failure ends the shell, saying why. The struct below
 * is bash's `struct builtin` (builtins.h, unchanged since bash 2): name, function, flags, long
 * doc, short doc, handle; WORD_LIST and WORD_DESC as in command.h. No bash header is needed.
 */
#include "landlock-core.h"
#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>

typedef struct word_desc {
  char *word;
  int flags;
} WORD_DESC;

typedef struct word_list {
  struct word_list *next;
  WORD_DESC *word;
} WORD_LIST;

struct builtin {
  char *name;
  int (*function)(WORD_LIST *);
  int flags;
  char *const *long_doc;
  const char *short_doc;
  char *handle;
};

#define BUILTIN_ENABLED 0x01
#define DECLINE_USAGE 2
#define DECLINE_SESSION 3
#define DECLINE_KERNEL 4

/* Whether this shell can be where the command runs without a controlling terminal (no TIOCSTI into the client's). */
static int settle_session(void) {
  if (setsid() >= 0) return 1;
  if (getsid(0) != getpid()) return 0;
  int tty = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
  if (tty < 0) return 1;
  close(tty);
  return 0;
}

static int bashguard_landlock_builtin(WORD_LIST *list) {
  if (!list || !list->word || strcmp(list->word->word, "--rules") != 0 || !list->next || !list->next->word || list->next->next) return DECLINE_USAGE;
  char *text = strdup(list->next->word->word);
  if (!text) return EXIT_SETUP;
  jmp_buf back;
  int code = setjmp(back);
  if (code != 0) {
    fail_to = NULL;
    if (parent >= 0) close(parent);
    if (ruleset >= 0) close(ruleset);
    parent = ruleset = -1;
    free(text);
    return code;
  }
  fail_to = &back;
  keep_below = 0; /* no exec follows to close them: each descriptor is closed once its rule is in */
  begin_ruleset();
  grant_rules(text);
  if (!settle_session()) longjmp(back, DECLINE_SESSION);
  fail_to = NULL;
  confine();
  free(text);
  return 0;
}

static char *const doc[] = {"Confines this shell's writes with Landlock (bashguard's hook wrapper).", NULL};

struct builtin bashguard_landlock_struct = {"bashguard_landlock", bashguard_landlock_builtin, BUILTIN_ENABLED, doc, "bashguard_landlock --rules TEXT", NULL};

/* The new mount API (Linux 5.12: mount_setattr), by number as the rest. */
#define SYS_OPEN_TREE_NR 428
#define SYS_MOVE_MOUNT_NR 429
#define SYS_FSOPEN_NR 430
#define SYS_FSCONFIG_NR 431
#define SYS_FSMOUNT_NR 432
#define SYS_MOUNT_SETATTR_NR 442
#define OPEN_TREE_CLONE_ 1
#define AT_RECURSIVE_ 0x8000
#define MOVE_MOUNT_F_EMPTY_PATH_ 0x00000004
#define MOVE_MOUNT_T_EMPTY_PATH_ 0x00000040
#define MOUNT_ATTR_RDONLY_ 0x00000001
#define MOUNT_ATTR_NOSUID_ 0x00000002
#define MOUNT_ATTR_NODEV_ 0x00000004
#define FSOPEN_CLOEXEC_ 0x00000001
#define FSMOUNT_CLOEXEC_ 0x00000001
#define FSCONFIG_SET_STRING_ 1
#define FSCONFIG_CMD_CREATE_ 6
struct mount_attr_ {
  uint64_t attr_set, attr_clr, propagation, userns_fd;
};

static int write_file(const char *file, const char *text) {
  int fd = open(file, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = write(fd, text, strlen(text));
  int err = errno;
  close(fd);
  errno = err;
  return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* As root, what may be written: every entry of / but /proc, /sys and /dev, and /dev's harmless nodes. */
static void grant_root_writes(void) {
  DIR *d = opendir("/");
  if (!d) fail(EXIT_SETUP, "cannot list /", NULL, errno);
  int root = dirfd(d);
  for (struct dirent *e; (e = readdir(d));) {
    const char *n = e->d_name;
    if (!component(n, strlen(n)) || !strcmp(n, "proc") || !strcmp(n, "sys") || !strcmp(n, "dev")) continue;
    int fd = openat(root, n, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
      if (fd >= 0) close(fd);
      continue;
    }
    grant(fd, S_ISDIR(st.st_mode), n);
  }
  closedir(d);
  static const char *const dev[] = {"null", "zero", "full", "random", "urandom", "tty", "ptmx", "pts", "shm"};
  for (size_t i = 0; i < sizeof dev / sizeof *dev; i++) {
    char p[32];
    snprintf(p, sizeof p, "/dev/%s", dev[i]);
    int fd = open(p, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) {
      if (fd >= 0) close(fd);
      continue;
    }
    grant(fd, S_ISDIR(st.st_mode), p);
  }
}

/* An O_PATH descriptor of `path`, reached without following any symlink, that is not one; else the shell ends. */
static int plain_path(const char *path) {
  int fd = open_nofollow(path, 0);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) fail(EXIT_SETUP, "cannot reach without a symlink:", path, fd < 0 ? errno : ELOOP);
  return fd;
}

/* One mount of the TEXT: its kind and path, and the detached tree cloned for it (-1 for a tmpfs). */
struct op {
  char kind;
  const char *path;
  int tree;
};

static int bashguard_mounts_builtin(WORD_LIST *list) {
  if (!list || !list->word || strcmp(list->word->word, "--mounts") != 0 || !list->next || !list->next->word || list->next->next) return DECLINE_USAGE;
  char *text = strdup(list->next->word->word);
  if (!text) return EXIT_SETUP;
  size_t lines = 1;
  for (const char *c = text; *c; c++) lines += *c == '\n';
  struct op *ops = calloc(lines, sizeof *ops);
  if (!ops) {
    free(text);
    return EXIT_SETUP;
  }
  volatile size_t n = 0;
  jmp_buf back;
  int code = setjmp(back);
  if (code != 0) {
    fail_to = NULL;
    if (ruleset >= 0) close(ruleset);
    ruleset = -1;
    free(ops);
    free(text);
    return code;
  }
  fail_to = &back;
  keep_below = 0;
  for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
    nl = strchr(line, '\n');
    if (nl) *nl = 0;
    if (!strchr("rwnt", line[0]) || line[1] != '/') fail(EXIT_USAGE, "unknown line in --mounts:", line, 0);
    check_path(line + 1);
    ops[n++] = (struct op){line[0], line + 1, -1};
  }
  /* What can be checked before anything changes: Landlock, the mount API (mount_setattr on nothing), the session. */
  begin_ruleset();
  /* (an invalid descriptor: EBADF, or EPERM before the namespaces, where the call exists; ENOSYS where not) */
  struct mount_attr_ probe = {MOUNT_ATTR_RDONLY_, 0, 0, 0};
  if (syscall(SYS_MOUNT_SETATTR_NR, -1, "", AT_EMPTY_PATH, &probe, sizeof probe) == 0 || errno == ENOSYS) longjmp(back, DECLINE_KERNEL);
  if (!settle_session()) longjmp(back, DECLINE_SESSION);
  uid_t uid = getuid();
  /* Ubuntu's AppArmor lets an unprivileged unshare(2) succeed, then denies the namespace's capabilities: decline before it. */
  char restricted = 0;
  int ar = open("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", O_RDONLY | O_CLOEXEC);
  if (ar >= 0) {
    if (read(ar, &restricted, 1) != 1) restricted = 0;
    close(ar);
  }
  if (uid != 0 && restricted == '1') longjmp(back, DECLINE_KERNEL);
  gid_t gid = getgid();
  /* The shell's directory, entered again through the new mounts once they are made (else its
   * relative paths would resolve in the tree beneath them, where nothing is read-only). */
  char *cwd = getcwd(NULL, 0);
  if (!cwd) fail(EXIT_SETUP, "cannot read the current directory", NULL, errno);
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
    free(cwd);
    longjmp(back, DECLINE_KERNEL);
  }
  /* Past this point the shell is in the new namespaces: every failure ends it. */
  fail_to = NULL;
  char map[64];
  snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)uid, (unsigned long)uid);
  if (write_file("/proc/self/uid_map", map) != 0) fail(EXIT_SETUP, "cannot map the user id", NULL, errno);
  if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) fail(EXIT_SETUP, "cannot deny setgroups", NULL, errno);
  snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)gid, (unsigned long)gid);
  if (write_file("/proc/self/gid_map", map) != 0) fail(EXIT_SETUP, "cannot map the group id", NULL, errno);
  if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) fail(EXIT_SETUP, "cannot make the mounts private", NULL, errno);
  /* Every source from the host's tree, before the first mount; none through a symlink. */
  for (size_t i = 0; i < n; i++) {
    if (ops[i].kind == 't') continue;
    const char *src = ops[i].kind == 'n' ? "/dev/null" : ops[i].path;
    int fd = plain_path(src);
    ops[i].tree = (int)syscall(SYS_OPEN_TREE_NR, fd, "", OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE_ | AT_EMPTY_PATH);
    if (ops[i].tree < 0) fail(EXIT_SETUP, "cannot clone the mount of", src, errno);
    close(fd);
  }
  for (size_t i = 0; i < n; i++) {
    struct op *o = &ops[i];
    if (o->kind == 't') {
      int fs = (int)syscall(SYS_FSOPEN_NR, "tmpfs", FSOPEN_CLOEXEC_);
      if (fs < 0 || syscall(SYS_FSCONFIG_NR, fs, FSCONFIG_SET_STRING_, "mode", "0555", 0) != 0 || syscall(SYS_FSCONFIG_NR, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0) != 0) fail(EXIT_SETUP, "cannot make a tmpfs for", o->path, errno);
      o->tree = (int)syscall(SYS_FSMOUNT_NR, fs, FSMOUNT_CLOEXEC_, MOUNT_ATTR_RDONLY_ | MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_);
      if (o->tree < 0) fail(EXIT_SETUP, "cannot make a tmpfs for", o->path, errno);
      close(fs);
    } else if (o->kind != 'w') {
      /* (/dev/null as bubblewrap binds it: nodev too, so the reserved name cannot be opened for writing at all) */
      struct mount_attr_ ro = {MOUNT_ATTR_RDONLY_ | (o->kind == 'n' ? MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_ : 0), 0, 0, 0};
      if (syscall(SYS_MOUNT_SETATTR_NR, o->tree, "", AT_EMPTY_PATH | AT_RECURSIVE_, &ro, sizeof ro) != 0) fail(EXIT_SETUP, "cannot make read-only", o->path, errno);
    }
    /* The target as it resolves now (through the mounts made before it), not through a symlink. */
    int at = plain_path(o->path);
    if (syscall(SYS_MOVE_MOUNT_NR, o->tree, "", at, "", MOVE_MOUNT_F_EMPTY_PATH_ | MOVE_MOUNT_T_EMPTY_PATH_) != 0) fail(EXIT_SETUP, "cannot mount", o->path, errno);
    close(at);
    close(o->tree);
    o->tree = -1;
  }
  if (chdir(cwd) != 0) fail(EXIT_SETUP, "cannot enter the current directory again:", cwd, errno);
  free(cwd);
  if (uid == 0) grant_root_writes();
  else grant(open_nofollow("/", 1), 1, "/");
  confine();
  free(ops);
  free(text);
  return 0;
}

static char *const mounts_doc[] = {"Confines this shell's writes with the enforcement plan's mounts (bashguard's hook wrapper).", NULL};

struct builtin bashguard_mounts_struct = {"bashguard_mounts", bashguard_mounts_builtin, BUILTIN_ENABLED, mounts_doc, "bashguard_mounts --mounts TEXT", NULL};
