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
 * empty read-only tmpfs on the (reserved) directory, `m/path` a directory made for a reservation
 * below it, bound onto itself; `R/dir` names the registry where what is made for them is recorded
 * and swept after the call (native/reserve-core.h). `v/dir` a writable tmpfs on the directory (the
 * shared git dir: a new name made there vanishes with the call), each of its entries then bound
 * back onto it by a `b/path` (read-only) or `B/path` (as the host has it) line, skipped where the
 * entry is gone, and a name it lacks reserved there by `e/path` (/dev/null, read-only, openable)
 * or `d/path` (an empty read-only tmpfs); their mount points are made on the `v` tmpfs, nowhere
 * else. Every source is taken from the host's tree before the first mount, as bubblewrap takes
 * its sources from the old root. Then Landlock, for
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
#include "mounts-core.h"
#include "seccomp-core.h"

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

/*
 * The optional `--seccomp HEX` that may follow a builtin's own option and its text (`more`: the
 * words after them): 0 with *hex the filter's text, or NULL where there is none; DECLINE_USAGE for
 * anything else.
 */
static int seccomp_option(WORD_LIST *more, const char **hex) {
  *hex = NULL;
  if (!more) return 0;
  if (!more->word || strcmp(more->word->word, "--seccomp") != 0 || !more->next || !more->next->word || more->next->next) return DECLINE_USAGE;
  *hex = more->next->word->word;
  return 0;
}

static int bashguard_landlock_builtin(WORD_LIST *list) {
  if (!list || !list->word || strcmp(list->word->word, "--rules") != 0 || !list->next || !list->next->word) return DECLINE_USAGE;
  /* --rules TEXT [--seccomp HEX] (static: set before the setjmp below and read after a longjmp) */
  static const char *hex;
  static struct sock_fprog prog;
  prog = (struct sock_fprog){0, NULL};
  if (seccomp_option(list->next->next, &hex)) return DECLINE_USAGE;
  char *text = strdup(list->next->word->word);
  if (!text) return EXIT_SETUP;
  jmp_buf back;
  int code = setjmp(back);
  if (code != 0) {
    fail_to = NULL;
    if (parent >= 0) close(parent);
    if (ruleset >= 0) close(ruleset);
    parent = ruleset = -1;
    free(prog.filter);
    free(text);
    return code;
  }
  fail_to = &back;
  keep_below = 0; /* no exec follows to close them: each descriptor is closed once its rule is in */
  if (hex) parse_filter(hex, &prog);
  begin_ruleset();
  grant_rules(text);
  if (!settle_session()) longjmp(back, DECLINE_SESSION);
  fail_to = NULL;
  confine();
  if (hex) install_filter(&prog);
  free(text);
  return 0;
}

static char *const doc[] = {"Confines this shell's writes with Landlock (bashguard's hook wrapper).", NULL};

struct builtin bashguard_landlock_struct = {"bashguard_landlock", bashguard_landlock_builtin, BUILTIN_ENABLED, doc, "bashguard_landlock --rules TEXT [--seccomp HEX]", NULL};

static int bashguard_mounts_builtin(WORD_LIST *list) {
  if (!list || !list->word || strcmp(list->word->word, "--mounts") != 0 || !list->next || !list->next->word) return DECLINE_USAGE;
  /* --mounts TEXT [--seccomp HEX]: the filter the hook asks for (native/seccomp-core.h) */
  /* (static: set before the setjmp below and read after a longjmp) */
  static const char *hex;
  static struct sock_fprog prog;
  prog = (struct sock_fprog){0, NULL};
  if (seccomp_option(list->next->next, &hex)) return DECLINE_USAGE;
  char *text = strdup(list->next->word->word);
  if (!text) return EXIT_SETUP;
  struct op *ops = calloc(mount_lines(text), sizeof *ops);
  if (!ops) {
    free(text);
    return EXIT_SETUP;
  }
  jmp_buf back;
  int code = setjmp(back);
  if (code != 0) {
    fail_to = NULL;
    if (ruleset >= 0) close(ruleset);
    ruleset = -1;
    reserve_done();
    free(prog.filter);
    free(ops);
    free(text);
    return code;
  }
  fail_to = &back;
  keep_below = 0;
  if (hex) parse_filter(hex, &prog);
  size_t n = parse_mounts(text, ops);
  begin_ruleset();
  mounts_possible(DECLINE_KERNEL);
  if (!settle_session()) longjmp(back, DECLINE_SESSION);
  reserve_ops(ops, n, 0);
  make_mounts(ops, n, DECLINE_KERNEL);
  reserve_done();
  confine();
  if (hex) install_filter(&prog);
  free(ops);
  free(text);
  return 0;
}

static char *const mounts_doc[] = {"Confines this shell's writes with the enforcement plan's mounts (bashguard's hook wrapper).", NULL};

struct builtin bashguard_mounts_struct = {"bashguard_mounts", bashguard_mounts_builtin, BUILTIN_ENABLED, mounts_doc, "bashguard_mounts --mounts TEXT [--seccomp HEX]", NULL};
