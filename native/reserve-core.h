/*
 * Reservations that leave no trace (issue 51 item 3), shared by the bash builtin `bashguard_mounts`
 * and the helper's `--mounts` and `--reserve` (native/landlock-builtin.c, native/landlock-exec.c).
 *
 * A control path of the plan that does not exist yet (`<worktree>/.codex/` for `.codex/hooks.json`)
 * is held by a mount on its first missing ancestor, and a mount needs a mount point: the text's
 * `t/path` (an empty read-only tmpfs), `n/path` (/dev/null on an empty file) and `m/path` (a plain
 * directory between, bound onto itself so it cannot be renamed away) are created here when missing,
 * each one recorded in the registry `R/dir` names (`reserved/` in bashguard's private cache
 * directory, read-only in every sandbox, so the command cannot plant a record) in `c-<pid>-<ns>`
 * (one record file per call, a line per path). After the call a sweeper removes what was
 * recorded and is still that file and empty.
 *
 * Removing a mount point that another mount namespace uses detaches that mount there (Linux 3.18),
 * which would free the name for a sandbox a background process keeps alive. So:
 * - creation and the mounts happen under a shared flock on `<registry>/lock` (the caller closes it
 *   once its mounts are made; bubblewrap's path passes it to bwrap, whose inner shell closes it),
 *   and the sweep runs only under the exclusive lock, taken without waiting (a call in setup: the
 *   sweep is left to a later one);
 * - a recorded path stays while any mount namespace other than the sweeper's has a mount on it
 *   (every process's /proc/PID/ns/mnt, then that namespace's mountinfo), and while a process of the
 *   user's that started after it was recorded cannot be inspected (a sandboxed process can make
 *   itself non-dumpable; ssh-agent, started before, does not hold the sweep up);
 * - every sweeper sweeps the whole registry, so what a killed call or a background process left is
 *   removed by a later call.
 * The sweeper is a process of its own, detached (its own session, no descriptor of the client's),
 * started before the namespaces and waiting on the caller's pidfd: it sweeps when the call's
 * process ends, however it ends (SIGKILL included).
 */
#ifndef BASHGUARD_RESERVE_CORE_H
#define BASHGUARD_RESERVE_CORE_H
#include "landlock-core.h"
#include <dirent.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <time.h>

#define SYS_PIDFD_OPEN_NR 434
#define SYS_CLOSE_RANGE_NR 436
#define RESERVE_MAX 256
#define RESERVE_LOCK_FD 6

/* The registry's descriptor (a directory) and the shared lock's, or -1. */
static int reserve_dir = -1;
static int reserve_lock = -1;

/* This call's record file (`c-<pid>-<ns>`), opened at its first reservation made, or -1. */
static int record_fd = -1;

/*
 * Records a path this call made: one line `<kind><path>` TAB `<dev> <ino>`, its parent's mtime
 * before and after (seconds and nanoseconds each) and when it was made (CLOCK_REALTIME,
 * nanoseconds): the sweeper removes in reverse order of making and puts the parent's mtime back
 * where nothing else changed it. One file per call (each file made costs the call ~0.2 ms).
 */
static void record(char kind, const char *path, const struct stat *st, const struct stat *before, const struct stat *after) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  if (record_fd < 0) {
    char name[64];
    snprintf(name, sizeof name, "c-%ld-%lld", (long)getpid(), (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
    record_fd = openat(reserve_dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (record_fd < 0) fail(EXIT_SETUP, "cannot record the reservation", path, errno);
  }
  /* (the line in one write: a path is at most 4095 bytes, the tail under 200) */
  char line[4096 + 200];
  int len = snprintf(line, sizeof line, "%c%s\t%llx %llx %lld %ld %lld %ld %lld\n", kind, path, (unsigned long long)st->st_dev, (unsigned long long)st->st_ino, (long long)before->st_mtim.tv_sec, before->st_mtim.tv_nsec, (long long)after->st_mtim.tv_sec, after->st_mtim.tv_nsec, (long long)now.tv_sec * 1000000000LL + now.tv_nsec);
  if (len < 0 || (size_t)len >= sizeof line) fail(EXIT_SETUP, "cannot record the reservation (path too long):", path, 0);
  if (write(record_fd, line, (size_t)len) != len) fail(EXIT_SETUP, "cannot record the reservation", path, errno);
}

/* Creates `path` (kind t/m: a directory, n: an empty file) when it is missing, its parent reached without a symlink; records what it made. */
static void reserve_one(char kind, const char *path) {
  const char *slash = strrchr(path, '/');
  char parent[4096];
  size_t plen = slash == path ? 1 : (size_t)(slash - path);
  if (!slash || plen >= sizeof parent || !slash[1]) fail(EXIT_USAGE, "not a path to reserve:", path, 0);
  memcpy(parent, path, plen);
  parent[plen] = 0;
  int pfd = open_nofollow(parent, 1);
  if (pfd < 0) fail(EXIT_SETUP, "cannot reach without a symlink:", parent, errno);
  const char *name = slash + 1;
  int made = 0;
  struct stat before, after;
  if (fstat(pfd, &before) != 0) fail(EXIT_SETUP, "cannot reserve", path, errno);
  if (kind == 'n') {
    int fd = openat(pfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) {
      close(fd);
      made = 1;
    } else if (errno != EEXIST) fail(EXIT_SETUP, "cannot reserve", path, errno);
  } else if (mkdirat(pfd, name, 0755) == 0) made = 1;
  else if (errno != EEXIST) fail(EXIT_SETUP, "cannot reserve", path, errno);
  struct stat st;
  if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0 || fstat(pfd, &after) != 0) fail(EXIT_SETUP, "cannot reserve", path, errno);
  close(pfd);
  if (kind == 'n' ? !S_ISREG(st.st_mode) : !S_ISDIR(st.st_mode)) fail(EXIT_SETUP, "cannot reserve (another kind of file is in the way):", path, 0);
  if (made) record(kind, path, &st, &before, &after);
}

/* Whether the registry holds a record (the sweeper has work). */
static int records_exist(void) {
  int fd = openat(reserve_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = fd < 0 ? NULL : fdopendir(fd);
  if (!d) {
    if (fd >= 0) close(fd);
    return 0;
  }
  int any = 0;
  for (struct dirent *e; !any && (e = readdir(d));) any = e->d_name[0] == 'c' && e->d_name[1] == '-';
  closedir(d);
  return any;
}

/* A line of /proc/PID/mountinfo's mount point, escaped as the kernel writes it (space, tab, newline, backslash in octal). */
static void escape_mountinfo(const char *path, char *out, size_t size) {
  size_t o = 0;
  for (const char *c = path; *c && o + 5 < size; c++) {
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\\') o += (size_t)snprintf(out + o, size - o, "\\%03o", (unsigned char)*c);
    else out[o++] = *c;
  }
  out[o] = 0;
}

struct rec {
  char kind;
  char path[4096];
  char escaped[4096 * 4 + 1];
  unsigned long long dev, ino;
  double since; /* when it was recorded, in seconds since boot */
  struct timespec before, after; /* the parent's mtime before and after it was made */
  long long made; /* when it was made (CLOCK_REALTIME, ns): removed in reverse order */
  int file; /* the record file it came from */
  int done; /* removed, gone, or no longer ours: its line is dropped */
  char line[4096 + 200]; /* its line, written again while it stays */
  int used;
};

/* Reads a small /proc file into buf; its length, or -1. */
static ssize_t read_small(const char *file, char *buf, size_t size) {
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, size - 1);
  close(fd);
  if (n >= 0) buf[n] = 0;
  return n;
}

/* Marks the records whose path is a mount point in the namespace of /proc/<pid>. */
static void mark_mounts(const char *pid, struct rec *r, int n) {
  char file[300];
  snprintf(file, sizeof file, "/proc/%s/mountinfo", pid);
  FILE *f = fopen(file, "re");
  if (!f) {
    /* (gone: nothing to mark; unreadable: in doubt) */
    if (errno != ENOENT && errno != ESRCH)
      for (int i = 0; i < n; i++) r[i].used = 1;
    return;
  }
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, f) > 0) {
    /* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
    char *p = line;
    for (int field = 0; field < 4 && p; field++) p = strchr(p, ' ') ? strchr(p, ' ') + 1 : NULL;
    if (!p) continue;
    size_t len = strcspn(p, " ");
    for (int i = 0; i < n; i++)
      if (strlen(r[i].escaped) == len && memcmp(p, r[i].escaped, len) == 0) r[i].used = 1;
  }
  free(line);
  fclose(f);
}

/* Seconds since boot of a process's start (/proc/PID/stat field 22), or -1. */
static double started(const char *pid) {
  char file[300], buf[1024];
  snprintf(file, sizeof file, "/proc/%s/stat", pid);
  if (read_small(file, buf, sizeof buf) <= 0) return -1;
  char *p = strrchr(buf, ')');
  if (!p) return -1;
  unsigned long long ticks = 0;
  /* after ") ": field 3 is state; starttime is field 22 */
  for (int field = 2; field < 22 && p; field++) p = strchr(p + 1, ' ');
  if (!p || sscanf(p + 1, "%llu", &ticks) != 1) return -1;
  return (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

/* The real uid in /proc/PID/status, or -1. */
static long status_uid(const char *pid) {
  char file[300], buf[4096];
  snprintf(file, sizeof file, "/proc/%s/status", pid);
  if (read_small(file, buf, sizeof buf) <= 0) return -1;
  char *u = strstr(buf, "\nUid:");
  long uid;
  return u && sscanf(u + 5, "%ld", &uid) == 1 ? uid : -1;
}

/* Marks every record some other mount namespace (or a process that cannot be inspected) may rely on. */
static void mark_used(struct rec *r, int n) {
  char self[64];
  ssize_t sl = readlink("/proc/self/ns/mnt", self, sizeof self - 1);
  DIR *proc = opendir("/proc");
  if (sl <= 0 || !proc) {
    for (int i = 0; i < n; i++) r[i].used = 1;
    if (proc) closedir(proc);
    return;
  }
  self[sl] = 0;
  char seen[64][64];
  int nseen = 0;
  for (struct dirent *e; (e = readdir(proc));) {
    if (e->d_name[0] < '0' || e->d_name[0] > '9') continue;
    char file[300], ns[64];
    snprintf(file, sizeof file, "/proc/%s/ns/mnt", e->d_name);
    ssize_t l = readlink(file, ns, sizeof ns - 1);
    if (l < 0) {
      if (errno == ENOENT || errno == ESRCH) continue;
      /* Not inspectable (non-dumpable): a process of the user's started after a record may be in its sandbox. */
      if (status_uid(e->d_name) != (long)getuid()) continue;
      double t = started(e->d_name);
      for (int i = 0; i < n; i++)
        if (t < 0 || t + 1 >= r[i].since) r[i].used = 1;
      continue;
    }
    ns[l] = 0;
    if (strcmp(ns, self) == 0) continue;
    int known = 0;
    for (int i = 0; i < nseen && !known; i++) known = strcmp(seen[i], ns) == 0;
    if (known) continue;
    if (nseen < 64) strcpy(seen[nseen++], ns);
    mark_mounts(e->d_name, r, n);
  }
  closedir(proc);
}

static int sweep_locked(int dir);

/*
 * Removes each recorded path no other namespace relies on when it is still the file recorded and
 * empty; drops its record. Returns how many records stay in use (1 where the lock is busy).
 */
static int sweep_once(int dir) {
  int lock = openat(dir, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (lock < 0) return 0;
  if (flock(lock, LOCK_EX | LOCK_NB) != 0) {
    close(lock);
    return 1; /* (a call is being set up: its records may be free in a moment) */
  }
  int used = sweep_locked(dir);
  close(lock);
  return used;
}

static int sweep_locked(int dir) {
  int dfd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
  if (!d) return 0;
  static struct rec r[RESERVE_MAX];
  static char names[RESERVE_MAX][256];
  int n = 0, files = 0;
  struct timespec real, boot;
  clock_gettime(CLOCK_REALTIME, &real);
  clock_gettime(CLOCK_BOOTTIME, &boot);
  double offset = (double)(real.tv_sec - boot.tv_sec) + (double)(real.tv_nsec - boot.tv_nsec) / 1e9;
  static char buf[65536];
  for (struct dirent *e; n < RESERVE_MAX && files < RESERVE_MAX && (e = readdir(d));) {
    if (strncmp(e->d_name, "c-", 2) != 0) continue;
    int fd = openat(dir, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) continue;
    ssize_t len = read(fd, buf, sizeof buf - 1);
    struct stat st;
    int ok = len >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    close(fd);
    if (!ok) continue;
    buf[len] = 0;
    snprintf(names[files], sizeof names[files], "%s", e->d_name);
    for (char *line = buf, *nl; n < RESERVE_MAX && *line; line = nl + 1) {
      nl = strchr(line, '\n');
      if (!nl) break;
      *nl = 0;
      struct rec *x = &r[n];
      char *tab = strrchr(line, '\t');
      long long bs, as;
      if (!tab || !strchr("tnm", line[0]) || line[0] == 0 || line[1] != '/' || (size_t)(tab - line) >= sizeof x->path ||
          sscanf(tab + 1, "%llx %llx %lld %ld %lld %ld %lld", &x->dev, &x->ino, &bs, &x->before.tv_nsec, &as, &x->after.tv_nsec, &x->made) != 7)
        continue;
      if (strlen(line) + 2 > sizeof x->line) continue;
      snprintf(x->line, sizeof x->line, "%.4290s\n", line);
      x->before.tv_sec = (time_t)bs;
      x->after.tv_sec = (time_t)as;
      x->kind = line[0];
      memcpy(x->path, line + 1, (size_t)(tab - line - 1));
      x->path[tab - line - 1] = 0;
      escape_mountinfo(x->path, x->escaped, sizeof x->escaped);
      x->since = (double)st.st_mtim.tv_sec + (double)st.st_mtim.tv_nsec / 1e9 - offset;
      x->used = x->done = 0;
      x->file = files;
      n++;
    }
    files++;
  }
  closedir(d);
  if (n == 0) return 0;
  mark_used(r, n);
  int used = 0;
  /* In reverse order of making (deepest first where unknown): a directory made between (`m`)
   * empties once what it holds is gone, and each parent's mtime goes back a step at a time. */
  for (int pass = 0; pass < n; pass++) {
    int best = -1;
    for (int i = 0; i < n; i++)
      if (r[i].kind && (best < 0 || r[i].made > r[best].made || (r[i].made == r[best].made && strlen(r[i].path) > strlen(r[best].path)))) best = i;
    if (best < 0) break;
    struct rec *x = &r[best];
    char kind = x->kind;
    x->kind = 0;
    if (x->used) {
      used++;
      continue;
    }
    x->done = 0;
    char *slash = strrchr(x->path, '/');
    *slash = 0;
    int pfd = open_nofollow(x->path[0] ? x->path : "/", 1);
    *slash = '/';
    struct stat st, ps;
    int same = pfd >= 0 && fstatat(pfd, slash + 1, &st, AT_SYMLINK_NOFOLLOW) == 0 && (unsigned long long)st.st_dev == x->dev && (unsigned long long)st.st_ino == x->ino;
    /* (the parent's mtime is put back only where it is still what the making left) */
    int untouched = same && x->before.tv_sec >= 0 && fstat(pfd, &ps) == 0 && ps.st_mtim.tv_sec == x->after.tv_sec && ps.st_mtim.tv_nsec == x->after.tv_nsec;
    int gone = 0;
    if (same && kind == 'n' && S_ISREG(st.st_mode) && st.st_size == 0) gone = unlinkat(pfd, slash + 1, 0) == 0;
    else if (same && kind != 'n' && S_ISDIR(st.st_mode)) gone = unlinkat(pfd, slash + 1, AT_REMOVEDIR) == 0;
    if (gone && untouched) {
      int dirfd_ = openat(pfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
      struct timespec times[2] = {{0, UTIME_OMIT}, x->before};
      if (dirfd_ >= 0) {
        (void)futimens(dirfd_, times);
        close(dirfd_);
      }
    }
    if (pfd >= 0) close(pfd);
    /* (removed, gone, replaced, or made the user's by what was put in it: no longer ours to sweep) */
    x->done = 1;
  }
  /* Each record file without a line that stays is removed; one with some is written again with those. */
  for (int f = 0; f < files; f++) {
    int keep = 0;
    for (int i = 0; i < n; i++) keep += r[i].file == f && !r[i].done;
    if (!keep) {
      (void)unlinkat(dir, names[f], 0);
      continue;
    }
    char tmp[300];
    snprintf(tmp, sizeof tmp, "t-%.250s", names[f]);
    int fd = openat(dir, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) continue;
    int ok = 1;
    for (int i = 0; i < n; i++)
      if (r[i].file == f && !r[i].done) ok = ok && write(fd, r[i].line, strlen(r[i].line)) == (ssize_t)strlen(r[i].line);
    close(fd);
    if (!ok || renameat(dir, tmp, dir, names[f]) != 0) (void)unlinkat(dir, tmp, 0);
  }
  return used;
}

/*
 * Sweeps, and again a few times over ~1.5 s while a record is still in use: a sandbox's last
 * process (bubblewrap's init, a short background job) may outlive the call by a moment. What a
 * longer one keeps is left to a later call's sweeper. (The lock is not held in between: a call
 * being set up waits for it.)
 */
static void sweep(int dir) {
  for (int delay_ms = 50; sweep_once(dir) > 0 && delay_ms <= 800; delay_ms *= 2) {
    struct timespec t = {0, (long)delay_ms * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {
    }
  }
}

/*
 * The call's end of the socket its sweeper takes the call's mount namespace from (`reserve_done`),
 * or -1: holding it, the sweeper tears the namespace's mounts down after the call, where the
 * call's last process would otherwise do it in its exit (~0.3 ms of the call here: each mount
 * unmounted and an RCU grace period waited for before the client sees the call end).
 */
static int ns_sock = -1;

union fd_msg {
  struct cmsghdr h;
  char buf[CMSG_SPACE(sizeof(int))];
};

/* A one-byte message with room for one descriptor in `u`. */
static void fd_msg_init(struct msghdr *m, struct iovec *iov, union fd_msg *u) {
  memset(u, 0, sizeof *u);
  memset(m, 0, sizeof *m);
  m->msg_iov = iov;
  m->msg_iovlen = 1;
  m->msg_control = u->buf;
  m->msg_controllen = sizeof u->buf;
}

static void send_fd(int sock, int fd) {
  char byte = 0;
  struct iovec iov = {&byte, 1};
  union fd_msg u;
  struct msghdr m;
  fd_msg_init(&m, &iov, &u);
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int));
  memcpy(CMSG_DATA(c), &fd, sizeof fd);
  (void)sendmsg(sock, &m, MSG_NOSIGNAL);
}

/* The descriptor a `send_fd` passed, or -1 (the other end closed without one). */
static int recv_fd(int sock) {
  char byte;
  struct iovec iov = {&byte, 1};
  union fd_msg u;
  struct msghdr m;
  fd_msg_init(&m, &iov, &u);
  if (recvmsg(sock, &m, MSG_CMSG_CLOEXEC) != 1) return -1;
  struct cmsghdr *c = CMSG_FIRSTHDR(&m);
  if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int))) return -1;
  int fd;
  memcpy(&fd, CMSG_DATA(c), sizeof fd);
  return fd;
}

/*
 * Starts the sweeper: a child in its own session that sweeps the registry once this process has
 * ended (one fork on the call's path; it outlives this process, so nothing waits for it here, and
 * the shell or program this process becomes reaps no job of its). It keeps the call's mount
 * namespace where the call hands it over (`ns_sock`), and lets it go before it sweeps.
 */
static void start_sweeper(void) {
  int pidfd = (int)syscall(SYS_PIDFD_OPEN_NR, getpid(), 0);
  if (pidfd < 0) return; /* (Linux < 5.3: a later call's sweeper sweeps) */
  int sv[2] = {-1, -1};
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) sv[0] = sv[1] = -1;
  pid_t child = fork();
  if (child == 0) {
    setsid();
    int null = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (null >= 0) {
      dup2(null, 0);
      dup2(null, 1);
      dup2(null, 2);
    }
    /* What it keeps on 3, 4 and 5 (each first copied above every descriptor that could be in the way), the rest closed. */
    int keep[3] = {pidfd, reserve_dir, sv[1]}, high[3];
    for (int i = 0; i < 3; i++) high[i] = keep[i] >= 0 ? fcntl(keep[i], F_DUPFD_CLOEXEC, 10) : -1;
    for (int i = 0; i < 3; i++)
      if (high[i] >= 0) dup2(high[i], 3 + i);
    if (syscall(SYS_CLOSE_RANGE_NR, 6, ~0U, 0) != 0)
      for (int fd = 6; fd < 8192; fd++) close(fd);
    if (high[0] < 0 || high[1] < 0) _exit(0);
    int sock = high[2] >= 0 ? 5 : -1;
    if (sock < 0) close(5);
    int held = -1;
    struct pollfd p[2] = {{3, POLLIN, 0}, {sock, POLLIN, 0}};
    for (;;) {
      if (poll(p, 2, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (p[1].fd >= 0 && p[1].revents) {
        held = recv_fd(sock);
        close(sock);
        p[1].fd = -1;
      }
      if (p[0].revents) break;
    }
    /* (the call's namespace, where it handed it over, ends here: no mount point of it stays in use) */
    if (held >= 0) close(held);
    sweep(4);
    _exit(0);
  }
  close(pidfd);
  if (sv[1] >= 0) close(sv[1]);
  if (child > 0) ns_sock = sv[0];
  else if (sv[0] >= 0) close(sv[0]);
}

/*
 * Opens the registry and takes the shared lock (`inherit`: it survives an exec, bubblewrap's
 * path); the caller then reserves each `t`, `n` and `m` path with `reserve_one`, and calls
 * `reserve_sweeper`.
 */
static void reserve_begin(const char *registry, int inherit) {
  reserve_dir = open_nofollow(registry, 1);
  if (reserve_dir >= 0) {
    /* (an O_PATH descriptor cannot be read or locked: opened again through it) */
    int real = openat(reserve_dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    close(reserve_dir);
    reserve_dir = real;
  }
  if (reserve_dir < 0) fail(EXIT_SETUP, "cannot open the reservations' registry", registry, errno);
  reserve_lock = openat(reserve_dir, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | (inherit ? 0 : O_CLOEXEC), 0600);
  if (reserve_lock < 0) fail(EXIT_SETUP, "cannot open the reservations' lock in", registry, errno);
  /* (bubblewrap's path: on descriptor 6, which the inner shell closes once the sandbox is made) */
  if (inherit && reserve_lock != RESERVE_LOCK_FD) {
    if (dup2(reserve_lock, RESERVE_LOCK_FD) < 0) fail(EXIT_SETUP, "cannot keep the reservations' lock", registry, errno);
    close(reserve_lock);
    reserve_lock = RESERVE_LOCK_FD;
  }
  /* (waited for at most ~10 s: a process holding the lock longer fails the call rather than hanging it) */
  for (int tries = 0; flock(reserve_lock, LOCK_SH | LOCK_NB) != 0; tries++) {
    if ((errno != EWOULDBLOCK && errno != EINTR) || tries >= 1000) fail(EXIT_SETUP, "cannot lock the reservations' registry", registry, errno);
    struct timespec t = {0, 10 * 1000000L};
    nanosleep(&t, NULL);
  }
}

/* Starts the sweeper where the registry holds anything to sweep. */
static void reserve_sweeper(void) {
  int made_any = record_fd >= 0;
  if (record_fd >= 0) close(record_fd);
  record_fd = -1;
  /* (a record this call wrote is one: the registry is listed only where it made nothing) */
  if (reserve_dir >= 0 && (made_any || records_exist())) start_sweeper();
}

/*
 * Releases the shared lock once the mounts are made (the namespace now holds them), and hands
 * this process's mount namespace to the sweeper (`ns_sock`).
 */
static void reserve_done(void) {
  if (ns_sock >= 0) {
    int ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
    if (ns >= 0) {
      send_fd(ns_sock, ns);
      close(ns);
    }
    close(ns_sock);
    ns_sock = -1;
  }
  if (record_fd >= 0) close(record_fd);
  record_fd = -1;
  if (reserve_lock >= 0) close(reserve_lock);
  if (reserve_dir >= 0) close(reserve_dir);
  reserve_lock = reserve_dir = -1;
}

#endif
