/*
 * The enforcement plan's mounts, shared by the bash builtin `bashguard_mounts`
 * (native/landlock-builtin.c: the client's own shell) and the helper's `--mounts`
 * (native/landlock-exec.c: a program it then runs, for client shells other than bash). The text's
 * format and what the confinement covers: landlock-builtin.c's file comment.
 *
 * Each function fails through landlock-core.h's `fail`: before unshare(2) with the caller's
 * `decline` status (the builtin returns it to the wrapper, which falls back; the helper exits with
 * it, saying why); once the namespaces exist, always by ending the process.
 */
#ifndef BASHGUARD_MOUNTS_CORE_H
#define BASHGUARD_MOUNTS_CORE_H
#include "landlock-core.h"
#include "reserve-core.h"
#include <dirent.h>
#include <sched.h>
#include <sys/mount.h>

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
#define STATX_ATTR_MOUNT_ROOT_ 0x00002000
/* Linux's struct statx (include/uapi/linux/stat.h), by its layout: a static libc may lack the wrapper. */
struct statx_ {
  uint32_t mask, blksize;
  uint64_t attributes;
  uint32_t nlink, uid, gid;
  uint16_t mode, spare0;
  uint64_t ino, size, blocks, attributes_mask;
  uint64_t rest[24];
};
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

/* An O_PATH descriptor of `path`, reached without following any symlink, that is not one; else the process ends. */
static int plain_path(const char *path) {
  int fd = open_nofollow(path, 0);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || S_ISLNK(st.st_mode)) fail(EXIT_SETUP, "cannot reach without a symlink:", path, fd < 0 ? errno : ELOOP);
  return fd;
}

/* One mount of the text: its kind and path, and the detached tree cloned for it (-1 for a tmpfs, or a `b`/`B` whose source is gone). */
struct op {
  char kind;
  const char *path;
  int tree;
};

/*
 * The mount point of a `b`, `B`, `e` or `d` op on the writable tmpfs a `v` op made on its parent
 * directory (which hides the host's entry): a directory or an empty file, as its source is. Made
 * only there, so nothing is created on the host; where the name is already there, nothing.
 */
static void volatile_mount_point(const struct op *o, const struct op *ops, size_t n) {
  const char *slash = strrchr(o->path, '/');
  size_t plen = (size_t)(slash - o->path);
  int on_volatile = 0;
  for (size_t i = 0; i < n && !on_volatile; i++) on_volatile = ops[i].kind == 'v' && strlen(ops[i].path) == plen && !strncmp(ops[i].path, o->path, plen);
  if (!on_volatile) return;
  char parent[4096];
  if (plen == 0 || plen >= sizeof parent) fail(EXIT_SETUP, "cannot make a mount point for", o->path, ENAMETOOLONG);
  memcpy(parent, o->path, plen);
  parent[plen] = 0;
  int dir = open_nofollow(parent, 1);
  if (dir < 0) fail(EXIT_SETUP, "cannot reach without a symlink:", parent, errno);
  struct stat st;
  if (fstat(o->tree, &st) != 0) fail(EXIT_SETUP, "cannot stat the mount of", o->path, errno);
  int made = S_ISDIR(st.st_mode) ? mkdirat(dir, slash + 1, 0755) : openat(dir, slash + 1, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (made < 0 && errno != EEXIST) fail(EXIT_SETUP, "cannot make a mount point for", o->path, errno);
  if (made >= 0 && !S_ISDIR(st.st_mode)) close(made);
  close(dir);
}

/* `r/`: the whole tree read-only in place (the root is a mount's root: `mounts_possible` checks). */
static int whole_tree(const struct op *o) { return o->kind == 'r' && o->path[0] == '/' && o->path[1] == 0; }

/* The number of lines of the text: at most that many ops. */
static size_t mount_lines(const char *text) {
  size_t lines = 1;
  for (const char *c = text; *c; c++) lines += *c == '\n';
  return lines;
}

/* The registry the text's `R/dir` line names (native/reserve-core.h), or NULL. */
static const char *registry;

/* The text (cut in place) as ops; a bad line fails with EXIT_USAGE. */
static size_t parse_mounts(char *text, struct op *ops) {
  size_t n = 0;
  registry = NULL;
  for (char *line = text, *nl; line && *line; line = nl ? nl + 1 : NULL) {
    nl = strchr(line, '\n');
    if (nl) *nl = 0;
    if (!strchr("rwntmRvbBed", line[0]) || line[1] != '/') fail(EXIT_USAGE, "unknown line in --mounts:", line, 0);
    check_path(line + 1);
    if (line[0] == 'R') registry = line + 1;
    else ops[n++] = (struct op){line[0], line + 1, -1};
  }
  return n;
}

/*
 * The reservations of the ops (`t`, `n`, `m`) made where missing and recorded, under the
 * registry's shared lock, and the sweeper started; nothing without an `R` line.
 */
static void reserve_ops(struct op *ops, size_t n, int inherit) {
  if (!registry) return;
  reserve_begin(registry, inherit);
  for (size_t i = 0; i < n; i++)
    if (strchr("tnm", ops[i].kind)) reserve_one(ops[i].kind, ops[i].path);
  reserve_sweeper();
}

/* What can be checked before anything changes: the mount API (mount_setattr on nothing), and Ubuntu's AppArmor userns restriction. */
static void mounts_possible(int decline) {
  /* (an invalid descriptor: EBADF, or EPERM before the namespaces, where the call exists; ENOSYS where not) */
  struct mount_attr_ probe = {MOUNT_ATTR_RDONLY_, 0, 0, 0};
  if (syscall(SYS_MOUNT_SETATTR_NR, -1, "", AT_EMPTY_PATH, &probe, sizeof probe) == 0 || errno == ENOSYS) fail(decline, "cannot make the mounts: this kernel lacks the new mount API (Linux 5.12)", NULL, 0);
  /* Ubuntu's AppArmor lets an unprivileged unshare(2) succeed, then denies the namespace's capabilities. */
  char restricted = 0;
  int ar = open("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", O_RDONLY | O_CLOEXEC);
  if (ar >= 0) {
    if (read(ar, &restricted, 1) != 1) restricted = 0;
    close(ar);
  }
  if (getuid() != 0 && restricted == '1') fail(decline, "cannot make the mounts: AppArmor restricts unprivileged user namespaces here (kernel.apparmor_restrict_unprivileged_userns)", NULL, 0);
}

/*
 * A new user and mount namespace for this process, the ops' mounts, the current directory entered
 * again through them, and every write granted to the Landlock ruleset (begun by the caller, who
 * then calls `confine`). Declines with `decline` where unshare(2) is refused; past it, every failure
 * ends the process.
 */
static void make_mounts(struct op *ops, size_t n, int decline) {
  /* (`r/` needs the root to be a mount's root, which mount_setattr can take: not so in a chroot into a plain directory) */
  for (size_t i = 0; i < n; i++)
    if (whole_tree(&ops[i])) {
      struct statx_ sx;
      if (syscall(SYS_statx, AT_FDCWD, "/", AT_SYMLINK_NOFOLLOW, 0x100 /* STATX_INO */, &sx) != 0 || !(sx.attributes_mask & STATX_ATTR_MOUNT_ROOT_) || !(sx.attributes & STATX_ATTR_MOUNT_ROOT_))
        fail(decline, "cannot make the mounts: / is not the root of a mount here", NULL, 0);
    }
  uid_t uid = getuid();
  gid_t gid = getgid();
  /* The directory, entered again through the new mounts once they are made (else its relative
   * paths would resolve in the tree beneath them, where nothing is read-only). */
  char *cwd = getcwd(NULL, 0);
  if (!cwd) fail(decline, "cannot read the current directory", NULL, errno);
  if (unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) {
    int err = errno;
    free(cwd);
    fail(decline, "cannot make the mounts: a user namespace cannot be created here", NULL, err);
  }
  /* Past this point the process is in the new namespaces: every failure ends it. */
  fail_to = NULL;
  char map[64];
  snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)uid, (unsigned long)uid);
  if (write_file("/proc/self/uid_map", map) != 0) fail(EXIT_SETUP, "cannot map the user id", NULL, errno);
  if (write_file("/proc/self/setgroups", "deny") != 0 && errno != ENOENT) fail(EXIT_SETUP, "cannot deny setgroups", NULL, errno);
  snprintf(map, sizeof map, "%lu %lu 1\n", (unsigned long)gid, (unsigned long)gid);
  if (write_file("/proc/self/gid_map", map) != 0) fail(EXIT_SETUP, "cannot map the group id", NULL, errno);
  if (mount(NULL, "/", NULL, MS_REC | MS_SLAVE, NULL) != 0) fail(EXIT_SETUP, "cannot make the mounts private", NULL, errno);
  int empty = -1;
  /* Every source from the host's tree, before the first mount (a `v` hides the entries bound
   * back on it); none through a symlink. */
  for (size_t i = 0; i < n; i++) {
    if (ops[i].kind == 't' || ops[i].kind == 'v' || ops[i].kind == 'd' || whole_tree(&ops[i])) continue;
    const char *src = ops[i].kind == 'n' || ops[i].kind == 'e' ? "/dev/null" : ops[i].path;
    /* (an entry bound back that is gone since the plan: absent beneath the tmpfs, as on the host) */
    if (ops[i].kind == 'b' || ops[i].kind == 'B') {
      int probe = open_nofollow(src, 0);
      if (probe < 0 && errno == ENOENT) continue;
      if (probe >= 0) close(probe);
    }
    int fd = plain_path(src);
    ops[i].tree = (int)syscall(SYS_OPEN_TREE_NR, fd, "", OPEN_TREE_CLONE_ | O_CLOEXEC | AT_RECURSIVE_ | AT_EMPTY_PATH);
    if (ops[i].tree < 0) fail(EXIT_SETUP, "cannot clone the mount of", src, errno);
    close(fd);
  }
  for (size_t i = 0; i < n; i++) {
    struct op *o = &ops[i];
    if (whole_tree(o)) {
      /* `r/`: every mount of this namespace read-only where it is (one call instead of a bind per
       * top-level directory); the ones the text makes writable again are bound after it, their
       * sources taken above from the host's tree. Setting read-only is allowed on a locked mount. */
      struct mount_attr_ ro = {MOUNT_ATTR_RDONLY_, 0, 0, 0};
      int at = plain_path("/");
      if (syscall(SYS_MOUNT_SETATTR_NR, at, "", AT_EMPTY_PATH | AT_RECURSIVE_, &ro, sizeof ro) != 0) fail(EXIT_SETUP, "cannot make read-only", "/", errno);
      close(at);
      continue;
    }
    if (o->kind == 't' && empty >= 0) {
      /* (one empty read-only tmpfs for every reservation: a clone of the first, its flags included,
       * instead of a superblock each to make and to tear down at the end of the call) */
      o->tree = (int)syscall(SYS_OPEN_TREE_NR, empty, "", OPEN_TREE_CLONE_ | O_CLOEXEC | AT_EMPTY_PATH);
      if (o->tree < 0) fail(EXIT_SETUP, "cannot make a tmpfs for", o->path, errno);
    } else if (o->kind == 't' || o->kind == 'v' || o->kind == 'd') {
      /* (`v`: writable, for the new names a call makes there, gone with the call; `d`, like `t`,
       * an empty read-only directory, on a `v`) */
      int fs = (int)syscall(SYS_FSOPEN_NR, "tmpfs", FSOPEN_CLOEXEC_);
      if (fs < 0 || syscall(SYS_FSCONFIG_NR, fs, FSCONFIG_SET_STRING_, "mode", o->kind == 'v' ? "0755" : "0555", 0) != 0 || syscall(SYS_FSCONFIG_NR, fs, FSCONFIG_CMD_CREATE_, NULL, NULL, 0) != 0) fail(EXIT_SETUP, "cannot make a tmpfs for", o->path, errno);
      o->tree = (int)syscall(SYS_FSMOUNT_NR, fs, FSMOUNT_CLOEXEC_, (o->kind == 'v' ? 0 : MOUNT_ATTR_RDONLY_) | MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_);
      if (o->tree < 0) fail(EXIT_SETUP, "cannot make a tmpfs for", o->path, errno);
      close(fs);
    } else if (o->tree < 0) {
      continue; /* (a `b`/`B` whose source is gone) */
    } else if (o->kind != 'w' && o->kind != 'm' && o->kind != 'B') {
      /* (/dev/null as bubblewrap binds it: nodev too, so the reserved name cannot be opened for
       * writing at all; `e`, an empty file git reads, keeps the device openable, read-only) */
      struct mount_attr_ ro = {MOUNT_ATTR_RDONLY_ | (o->kind == 'n' ? MOUNT_ATTR_NOSUID_ | MOUNT_ATTR_NODEV_ : o->kind == 'e' ? MOUNT_ATTR_NOSUID_ : 0), 0, 0, 0};
      if (syscall(SYS_MOUNT_SETATTR_NR, o->tree, "", AT_EMPTY_PATH | AT_RECURSIVE_, &ro, sizeof ro) != 0) fail(EXIT_SETUP, "cannot make read-only", o->path, errno);
    }
    /* The target as it resolves now (through the mounts made before it), not through a symlink;
     * on a `v` tmpfs, made there first. */
    if (strchr("bBed", o->kind)) volatile_mount_point(o, ops, n);
    int at = plain_path(o->path);
    if (syscall(SYS_MOVE_MOUNT_NR, o->tree, "", at, "", MOVE_MOUNT_F_EMPTY_PATH_ | MOVE_MOUNT_T_EMPTY_PATH_) != 0) fail(EXIT_SETUP, "cannot mount", o->path, errno);
    close(at);
    /* (the first tmpfs, once attached in this namespace, is what the next ones are cloned from) */
    if (o->kind == 't' && empty < 0) empty = o->tree;
    else close(o->tree);
    o->tree = -1;
  }
  if (empty >= 0) close(empty);
  if (chdir(cwd) != 0) fail(EXIT_SETUP, "cannot enter the current directory again:", cwd, errno);
  free(cwd);
  if (uid == 0) grant_root_writes();
  else grant(open_nofollow("/", 1), 1, "/");
}

#endif
