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
 * the hook uses this builtin only where the rules grant that directory whole). The struct below
 * is bash's `struct builtin` (builtins.h, unchanged since bash 2): name, function, flags, long
 * doc, short doc, handle; WORD_LIST and WORD_DESC as in command.h. No bash header is needed.
 */
#include "landlock-core.h"

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
