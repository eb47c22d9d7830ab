// bashguard's tree export: parses a command with tree-sitter and writes the whole syntax tree
// into a Uint32Array in one call.
//
// Why (bench/README.md, eighth round): through tree-sitter's own N-API binding, the parser layer
// copied each tree node by node with a tree cursor, ~4.5 binding calls per node at ~190 ns each,
// and the binding reads its input through a JavaScript callback. Here one call parses (the UTF-16
// text read straight from the string) and walks the tree in C.
//
// The grammar is compiled in (binding.gyp: tree-sitter-bash's parser.c and scanner.c), and the
// addon starts with it (`formatVersion` 2). useDenseTable(true) switches to the same grammar with
// the parse table native/dense-table.c made dense at build time: the same trees, parsed ~30%
// faster, but a parse maps ~4 MB more of the addon's file (the kernel maps the page cache in
// large folios), so only lint asks for it, not the hook (whose peak RSS is a target).
// setLanguage still takes another grammar: the TSLanguage that tree-sitter-bash's own addon
// exports as a type-tagged napi External (bindings/node/binding.cc), as tree-sitter's binding
// does (its language.cc checks the same tag).
//
// Record layout, 4 words per visible node in preorder (what a tree cursor visits):
//   [0] symbol | field id << 16   [1] start   [2] end (UTF-16 code units: bytes / 2)
//   [3] number of children | 1 << 31 when tree-sitter inserted the node (MISSING)
#define NAPI_VERSION 8
// binding.gyp asks for POSIX.1-2001 (_POSIX_C_SOURCE) for every platform; on macOS that hides
// O_CLOEXEC, O_NOFOLLOW and MAP_ANONYMOUS, which the system has: ask for all of it there.
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE
#endif
#include <node_api.h>
#include <stdint.h>
#include <stdlib.h>
#include <tree_sitter/api.h>
#ifndef _WIN32
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <fcntl.h>
#include <unistd.h>
#ifndef _WIN32
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/wait.h>
extern char **environ;
#endif
#endif

static const napi_type_tag LANGUAGE_TYPE_TAG = {0x8AF2E5212AD58ABF, 0xD5006CAD83ABBA16};

#define WORDS_PER_NODE 4
#define MISSING_BIT 0x80000000u

// One per Node environment (the main thread and each worker thread have their own).
typedef struct {
  TSParser *parser;
  const TSLanguage *language;
  TSLanguage *dense;  // the compiled-in grammar with its dense table (owned), or NULL
  TSTree *tree;       // the last parse, kept only until it is exported
  uint16_t *text;     // the input as UTF-16, reused between parses
  size_t text_cap;    // in code units
  void *frames;       // the export walk's frames (native/tree-sitter-runtime.c), reused
  size_t frames_cap;
} Exporter;

static void finalize(napi_env env, void *data, void *hint) {
  Exporter *x = data;
  (void)env;
  (void)hint;
  if (x->tree) ts_tree_delete(x->tree);
  if (x->parser) ts_parser_delete(x->parser);
  free(x->dense);
  free(x->text);
  free(x->frames);
  free(x);
}

static Exporter *exporter(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok) return NULL;
  return data;
}

static bool fail(napi_env env, const char *message) {
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (!pending) napi_throw_error(env, NULL, message);
  return false;
}

// Fetches up to `n` arguments and the exporter; throws (and returns false) on failure.
static bool args(napi_env env, napi_callback_info info, size_t n, napi_value *argv, Exporter **x) {
  size_t argc = n;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return fail(env, "bad call");
  if (argc < n) return fail(env, "missing argument");
  *x = exporter(env);
  if (!*x || !(*x)->parser) return fail(env, "tree export not initialised");
  return true;
}

static napi_value number(napi_env env, double v) {
  napi_value out = NULL;
  napi_create_double(env, v, &out);
  return out;
}

// setLanguage(external): the grammar, from tree-sitter-bash's addon (its `language` export).
static napi_value set_language(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  Exporter *x;
  if (!args(env, info, 1, argv, &x)) return NULL;
  napi_valuetype type;
  bool tagged = false;
  void *language = NULL;
  if (napi_typeof(env, argv[0], &type) != napi_ok || type != napi_external ||
      napi_check_object_type_tag(env, argv[0], &LANGUAGE_TYPE_TAG, &tagged) != napi_ok || !tagged ||
      napi_get_value_external(env, argv[0], &language) != napi_ok || !language) {
    fail(env, "not a tree-sitter language");
    return NULL;
  }
  if (!ts_parser_set_language(x->parser, language)) {
    fail(env, "the grammar's ABI version is not supported by this tree-sitter runtime");
    return NULL;
  }
  x->language = language;
  return NULL;
}

static napi_value set_timeout_micros(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  Exporter *x;
  double us;
  if (!args(env, info, 1, argv, &x)) return NULL;
  if (napi_get_value_double(env, argv[0], &us) != napi_ok || !(us >= 0)) {
    fail(env, "timeout must be a number of microseconds");
    return NULL;
  }
  ts_parser_set_timeout_micros(x->parser, (uint64_t)us);
  return NULL;
}

// reset(): drop a parse stopped by the timeout (else the next parse would resume it).
static napi_value reset(napi_env env, napi_callback_info info) {
  Exporter *x;
  if (!args(env, info, 0, NULL, &x)) return NULL;
  ts_parser_reset(x->parser);
  return NULL;
}

// The walk over x->tree's subtrees, in native/tree-sitter-runtime.c (the unit with the runtime's
// own definitions): the records of the visible nodes while they fit in cap words; the node count,
// or -1 when out of memory. Iterative: a 10,000-level nesting needs no C stack.
double bashguard_export_walk(const TSTree *tree, uint32_t *out, size_t cap, void **frames, size_t *frames_cap);

// Writes x->tree's visible nodes into out (cap words). Returns the node count, or minus the
// number of words needed when out is too small (nothing is then usable; the tree is kept).
static double export_tree(Exporter *x, uint32_t *out, size_t cap) {
  double n = bashguard_export_walk(x->tree, out, cap, &x->frames, &x->frames_cap);
  if (n < 0) return -1;
  double words = n * WORDS_PER_NODE;
  return words > (double)cap ? -words : n;
}

static bool typed_words(napi_env env, napi_value v, uint32_t **data, size_t *words) {
  napi_typedarray_type type;
  size_t length, offset;
  napi_value buffer;
  void *p;
  bool is = false;
  if (napi_is_typedarray(env, v, &is) != napi_ok || !is ||
      napi_get_typedarray_info(env, v, &type, &length, &p, &buffer, &offset) != napi_ok ||
      type != napi_uint32_array) {
    return fail(env, "expected a Uint32Array");
  }
  *data = p;
  *words = length;
  return true;
}

// Exports and frees x->tree when out is large enough; else keeps it for exportInto.
static napi_value finish(napi_env env, Exporter *x, uint32_t *out, size_t cap) {
  double r = export_tree(x, out, cap);
  if (r == -1) {
    ts_tree_delete(x->tree);
    x->tree = NULL;
    fail(env, "out of memory exporting the tree");
    return NULL;
  }
  if (r >= 0) {
    ts_tree_delete(x->tree);
    x->tree = NULL;
  }
  return number(env, r);
}

// parse(source, out): the node count; -1 when the timeout stopped the parse; minus the words
// needed when `out` is too small (then exportInto(bigger) gets the same tree).
static napi_value parse(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  Exporter *x;
  size_t length = 0, cap;
  uint32_t *out;
  if (!args(env, info, 2, argv, &x)) return NULL;
  if (!x->language) {
    fail(env, "no language set");
    return NULL;
  }
  if (!typed_words(env, argv[1], &out, &cap)) return NULL;
  if (napi_get_value_string_utf16(env, argv[0], NULL, 0, &length) != napi_ok) {
    fail(env, "source must be a string");
    return NULL;
  }
  if (length + 1 > x->text_cap) {
    size_t cap2 = length + 1 < 1024 ? 1024 : length + 1;
    uint16_t *grown = malloc(cap2 * sizeof *grown);
    if (!grown) {
      fail(env, "out of memory reading the source");
      return NULL;
    }
    free(x->text);
    x->text = grown;
    x->text_cap = cap2;
  }
  if (napi_get_value_string_utf16(env, argv[0], (char16_t *)x->text, x->text_cap, &length) != napi_ok) {
    fail(env, "source must be a string");
    return NULL;
  }
  if (x->tree) {
    ts_tree_delete(x->tree);
    x->tree = NULL;
  }
  x->tree = ts_parser_parse_string_encoding(x->parser, NULL, (const char *)x->text, (uint32_t)(length * 2), TSInputEncodingUTF16LE);
  if (!x->tree) return number(env, -1);
  return finish(env, x, out, cap);
}

// exportInto(out): the tree of the last parse, after parse said `out` was too small.
static napi_value export_into(napi_env env, napi_callback_info info) {
  napi_value argv[1];
  Exporter *x;
  uint32_t *out;
  size_t cap;
  if (!args(env, info, 1, argv, &x) || !typed_words(env, argv[0], &out, &cap)) return NULL;
  if (!x->tree) {
    fail(env, "no tree to export");
    return NULL;
  }
  return finish(env, x, out, cap);
}

// The 16-bit id (symbol or field) a call passes, with the exporter; throws `what` when it has none.
static bool id_arg(napi_env env, napi_callback_info info, const char *what, Exporter **x, uint32_t *id) {
  napi_value argv[1];
  if (!args(env, info, 1, argv, x)) return false;
  if (!(*x)->language || napi_get_value_uint32(env, argv[0], id) != napi_ok || *id > 0xFFFF) return fail(env, what);
  return true;
}

// symbol(id): [type name, named] of a grammar symbol (an alias's for an aliased node).
static napi_value symbol(napi_env env, napi_callback_info info) {
  napi_value pair, name, named;
  Exporter *x;
  uint32_t id;
  if (!id_arg(env, info, "bad symbol", &x, &id)) return NULL;
  const char *s = ts_language_symbol_name(x->language, (TSSymbol)id);
  if (!s ||
      napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &name) != napi_ok ||
      napi_get_boolean(env, ts_language_symbol_type(x->language, (TSSymbol)id) == TSSymbolTypeRegular, &named) != napi_ok ||
      napi_create_array_with_length(env, 2, &pair) != napi_ok ||
      napi_set_element(env, pair, 0, name) != napi_ok || napi_set_element(env, pair, 1, named) != napi_ok) {
    fail(env, "bad symbol");
    return NULL;
  }
  return pair;
}

// fieldName(id): the grammar field's name, or null.
static napi_value field_name(napi_env env, napi_callback_info info) {
  napi_value out = NULL;
  Exporter *x;
  uint32_t id;
  if (!id_arg(env, info, "bad field id", &x, &id)) return NULL;
  const char *s = ts_language_field_name_for_id(x->language, (TSFieldId)id);
  if (s) napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &out);
  else napi_get_null(env, &out);
  return out;
}

#ifndef _WIN32
// lstatKind(path): what lstat(2) says of the path: 2 a symlink, 1 a directory, 0 anything else,
// -1 nothing (missing, a parent that is not a directory, any other error). The policy asks this
// for each component of every path a command names (src/policy/physical.ts); through Node's
// lstatSync each answer cost ~3 us (a Stats object, a request, the option handling), the system
// call ~0.8. Paths are converted to UTF-8 as Node converts them (invalid UTF-16 becomes U+FFFD);
// one with a NUL byte or longer than PATH_MAX is nothing, as Node's lstatSync fails on both.
static napi_value lstat_kind(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1, len = 0;
  char path[PATH_MAX + 1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok) {
    fail(env, "lstatKind: the path must be a string");
    return NULL;
  }
  int kind = -1;
  struct stat st;
  // len == sizeof path - 1: the path may have been cut to fit.
  if (len < sizeof path - 1 && strlen(path) == len && lstat(path, &st) == 0) kind = S_ISLNK(st.st_mode) ? 2 : S_ISDIR(st.st_mode) ? 1 : 0;
  napi_create_int32(env, kind, &out);
  return out;
}

// sha256Hex(text): SHA-256 of the text's UTF-8 bytes (invalid UTF-16 becoming U+FFFD, as Buffer
// and node:crypto convert it), as 64 lowercase hex digits; null when this process has no OpenSSL
// to ask. Lint's fingerprints hash a few short strings per finding, and loading node:crypto for
// them cost a lint process ~2.5 ms, more on its first hashes (src/util/sha256.ts). The digest is
// OpenSSL's own SHA256(), which Node exports to addons (or which a Node built against the
// system's libcrypto has loaded), looked up at run time: an addon linked against it would not
// load at all in a Node without it.
// The one string argument of a call, and its UTF-8 length; false after throwing `message`.
static bool string_arg(napi_env env, napi_callback_info info, napi_value *arg, size_t *len, const char *message) {
  size_t argc = 1;
  if (napi_get_cb_info(env, info, &argc, arg, NULL, NULL) != napi_ok || argc < 1 ||
      napi_get_value_string_utf8(env, *arg, NULL, 0, len) != napi_ok) {
    return fail(env, message);
  }
  return true;
}

// A function the Node process exports (OpenSSL's, V8's), looked up once: *slot holds it, or NULL.
static void *node_symbol(void **slot, bool *looked, const char *name) {
  if (!*looked) {
    *looked = true;
    *slot = dlsym(RTLD_DEFAULT, name);
  }
  return *slot;
}

typedef unsigned char *(*sha256_fn)(const unsigned char *, size_t, unsigned char *);
static napi_value sha256_hex(napi_env env, napi_callback_info info) {
  static void *slot = NULL;
  static bool looked = false;
  napi_value argv[1], out = NULL;
  size_t len = 0;
  if (!string_arg(env, info, argv, &len, "sha256Hex: the text must be a string")) return NULL;
  sha256_fn digest = (sha256_fn)node_symbol(&slot, &looked, "SHA256");
  if (!digest) {
    napi_get_null(env, &out);
    return out;
  }
  char small[1024];
  char *text = len < sizeof small ? small : malloc(len + 1);
  if (!text) {
    fail(env, "sha256Hex: out of memory");
    return NULL;
  }
  size_t got = 0;
  if (napi_get_value_string_utf8(env, argv[0], text, len + 1, &got) != napi_ok || got != len) {
    if (text != small) free(text);
    fail(env, "sha256Hex: the text must be a string");
    return NULL;
  }
  unsigned char md[32];
  char hex[65];
  digest((const unsigned char *)text, len, md);
  if (text != small) free(text);
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < 32; i++) {
    hex[2 * i] = digits[md[i] >> 4];
    hex[2 * i + 1] = digits[md[i] & 15];
  }
  napi_create_string_latin1(env, hex, 64, &out);
  return out;
}

// setV8Flags(flags): V8's own v8::V8::SetFlagsFromString, which node:v8's setFlagsFromString
// calls, looked up in the Node process (every Node exports V8's API to addons); true when it was
// found and called, false otherwise (the caller then uses node:v8). node:v8 costs a process that
// sets a flag ~1.5 ms on Node 24 (it loads node:stream; Node 20 and 22 still have the v8 binding
// for ~0.1 ms): lint sets its analysis flags at run time on every run (src/runtime/startup/v8-flags.ts).
typedef void (*v8_set_flags_fn)(const char *, size_t);
static napi_value set_v8_flags(napi_env env, napi_callback_info info) {
  static void *slot = NULL;
  static bool looked = false;
  napi_value argv[1], out = NULL;
  size_t len = 0;
  if (!string_arg(env, info, argv, &len, "setV8Flags: the flags must be a string")) return NULL;
  // v8::V8::SetFlagsFromString(const char*, size_t), by its Itanium C++ ABI name.
  v8_set_flags_fn set = (v8_set_flags_fn)node_symbol(&slot, &looked, "_ZN2v82V818SetFlagsFromStringEPKcm");
  bool done = false;
  char *flags = set ? malloc(len + 1) : NULL;
  if (flags && napi_get_value_string_utf8(env, argv[0], flags, len + 1, &len) == napi_ok) {
    set(flags, len);
    done = true;
  }
  free(flags);
  napi_get_boolean(env, done, &out);
  return out;
}

// releaseStderr(): descriptor 2 becomes /dev/null. For a lint child whose work is done (its
// stderr is the lint process's, and so its caller's): whoever reads that stream through a pipe
// (a CI runner, spawnSync) waits for every holder of its write end to close it, and the child
// otherwise holds it until the very end of its exit (the lint process no longer waits for it).
// Returns whether it did.
static napi_value release_stderr(napi_env env, napi_callback_info info) {
  napi_value out = NULL;
  (void)info;
  bool done = false;
  int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    done = fd == 2 || dup2(fd, 2) == 2;
    if (fd != 2) close(fd);
  }
  napi_get_boolean(env, done, &out);
  return out;
}

// SIGALRM's action set to `handler` (with `flags`) and the signal unblocked in this (the main)
// thread, so that neither is inherited from the parent (a process started with SIGALRM ignored
// or blocked would never be stopped).
static bool take_alarm(void (*handler)(int), int flags) {
  struct sigaction act;
  memset(&act, 0, sizeof act);
  act.sa_handler = handler;
  act.sa_flags = flags;
  sigemptyset(&act.sa_mask);
  sigset_t alrm;
  sigemptyset(&alrm);
  sigaddset(&alrm, SIGALRM);
  return sigaction(SIGALRM, &act, NULL) == 0 && pthread_sigmask(SIG_UNBLOCK, &alrm, NULL) == 0;
}

// The kernel's interval timer set to send SIGALRM after `seconds` of wall-clock time (0 disarms
// it; a positive time below a microsecond is one).
static bool set_timer(double seconds) {
  struct itimerval t;
  memset(&t, 0, sizeof t);
  t.it_value.tv_sec = (time_t)seconds;
  t.it_value.tv_usec = (suseconds_t)((seconds - (double)t.it_value.tv_sec) * 1e6);
  if (seconds > 0 && t.it_value.tv_sec == 0 && t.it_value.tv_usec == 0) t.it_value.tv_usec = 1;
  return setitimer(ITIMER_REAL, &t, NULL) == 0;
}

// armTimeLimit(seconds): from now on the kernel ends this process with SIGALRM once `seconds` of
// wall-clock time have passed, whatever it is doing then (bin/bashguard-hook's time limit, instead
// of a coreutils `timeout` process around it: src/util/time-limit.ts). tree-sitter can run
// away inside one native parse step, where no JavaScript timer runs; a signal whose action is the
// default one needs no code of this process to run. So the action is reset to the default and the
// signal unblocked in this (the main) thread: neither is inherited from the parent then (a
// process started with SIGALRM ignored would never be stopped). Returns true when armed; false
// for a time that is not a positive number of at most a day, or when the system refuses.
static napi_value arm_time_limit(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  double seconds = 0;
  bool armed = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 &&
      napi_get_value_double(env, argv[0], &seconds) == napi_ok && seconds > 0 && seconds <= 86400) {
    armed = take_alarm(SIG_DFL, 0) && set_timer(seconds);
  }
  napi_get_boolean(env, armed, &out);
  return out;
}

// A restart instead of a kill (`bashguard lint` analyzes in its own process too, in place of one
// of its children: src/frontends/lint/rerun.ts; and the hook run without its supervisor script, which
// answers as for an unanalyzable call: src/util/time-limit.ts). prepareRerun(path, argv, env,
// note) copies the command line that runs the same lint with each file in a child process (env
// null: the process's environment as it is when the signal comes), and makes SIGALRM's
// action a handler that writes `note` to stderr and execs it; rerunAfter(seconds) then arms the
// kernel's interval timer before each file (0 disarms). A parse that runs away inside one native
// step, or any code of this process that does not return, is left as the process image is
// replaced: execve and write are async-signal-safe, and the handler touches only what
// prepareRerun copied, never freed. The signal mask is cleared first, whichever thread took the
// signal, since execve keeps it, and stdin, stdout and stderr are kept open across it.
static char *rerun_path;
static char **rerun_argv;
static char **rerun_envp;
static char *rerun_note;
static size_t rerun_note_len;
// setRerunInput(path, text): what the restart reads on its stdin (the hook's event), and the file
// the handler puts it in first: created exclusively (0600, no symlink followed), unlinked at once,
// then made descriptor 0. The handler reads the pointer only after its length (both stored once,
// the pointer last). Without input, or when the file cannot be written whole, stdin becomes
// /dev/null: a restart never reads a half event, nor a client's stdin that may never close.
static const char *volatile rerun_input;
static size_t rerun_input_len;
static char *rerun_input_path;
static bool rerun_replaces_stdin;

static void rerun_stdin(void) {
  const char *input = rerun_input;
  int fd = -1;
  if (input && rerun_input_path) {
    fd = open(rerun_input_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
    if (fd >= 0) {
      size_t off = 0;
      unlink(rerun_input_path);
      while (off < rerun_input_len) {
        ssize_t n = write(fd, input + off, rerun_input_len - off);
        if (n <= 0 && errno != EINTR) break;
        if (n > 0) off += (size_t)n;
      }
      if (off != rerun_input_len || lseek(fd, 0, SEEK_SET) != 0) {
        close(fd);
        fd = -1;
      }
    }
  }
  if (fd < 0) fd = open("/dev/null", O_RDONLY);
  if (fd > 0) {
    dup2(fd, 0);
    close(fd);
  }
}

static void on_rerun_alarm(int sig) {
  static const char failed[] = "bashguard: could not restart itself after running past its time limit\n";
  sigset_t none;
  ssize_t w;
  (void)sig;
  w = write(2, rerun_note, rerun_note_len);
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  if (rerun_replaces_stdin) rerun_stdin();
  // Node marks the stdio descriptors it took over close-on-exec (seen for pipes and terminals).
  for (int fd = 0; fd <= 2; fd++) fcntl(fd, F_SETFD, 0);
  execve(rerun_path, rerun_argv, rerun_envp ? rerun_envp : environ);
  w = write(2, failed, sizeof failed - 1);
  (void)w;
  _exit(2);
}

static char *string_copy(napi_env env, napi_value v) {
  size_t n = 0;
  if (napi_get_value_string_utf8(env, v, NULL, 0, &n) != napi_ok) return NULL;
  char *s = malloc(n + 1);
  if (!s) return NULL;
  if (napi_get_value_string_utf8(env, v, s, n + 1, &n) != napi_ok || strlen(s) != n) {
    free(s);  // not a string, or one with a NUL inside (execve would cut it there)
    return NULL;
  }
  return s;
}

static char **string_array(napi_env env, napi_value arr) {
  bool is = false;
  uint32_t n = 0;
  if (napi_is_array(env, arr, &is) != napi_ok || !is || napi_get_array_length(env, arr, &n) != napi_ok) return NULL;
  char **out = calloc((size_t)n + 1, sizeof *out);
  if (!out) return NULL;
  for (uint32_t i = 0; i < n; i++) {
    napi_value e;
    if (napi_get_element(env, arr, i, &e) != napi_ok || !(out[i] = string_copy(env, e))) {
      for (uint32_t j = 0; j < i; j++) free(out[j]);
      free(out);
      return NULL;
    }
  }
  return out;
}

// Frees what string_array returned (NULL too).
static void free_strings(char **a) {
  if (!a) return;
  for (char **p = a; *p; p++) free(*p);
  free(a);
}

static napi_value prepare_rerun(napi_env env, napi_callback_info info) {
  napi_value argv[4], out = NULL;
  size_t argc = 4;
  bool ready = false;
  if (!rerun_path && napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 4) {
    char *path = string_copy(env, argv[0]), *note = string_copy(env, argv[3]);
    napi_valuetype env_type = napi_undefined;
    napi_typeof(env, argv[2], &env_type);
    bool own_env = env_type == napi_null;
    char **args = string_array(env, argv[1]), **envp = own_env ? NULL : string_array(env, argv[2]);
    if (path && note && args && args[0] && (envp || own_env)) {
      rerun_path = path;
      rerun_argv = args;
      rerun_envp = envp;
      rerun_note = note;
      rerun_note_len = strlen(note);
      ready = take_alarm(on_rerun_alarm, SA_NODEFER);
    }
    // What was not taken is freed (a half-prepared restart is none).
    if (!ready) {
      rerun_path = NULL;
      free(path);
      free(note);
      free_strings(args);
      free_strings(envp);
    }
  }
  napi_get_boolean(env, ready, &out);
  return out;
}

// setRerunInput(path, text): once, after prepareRerun; from then on the restart reads `text` on
// its stdin (see rerun_stdin). setRerunInput(null) before any text: the restart's stdin is
// /dev/null (the input is not read yet, and the client's stdin may never close).
static napi_value set_rerun_input(napi_env env, napi_callback_info info) {
  napi_value argv[2], out = NULL;
  size_t argc = 2;
  bool set = false;
  if (rerun_path && !rerun_input && napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1) {
    napi_valuetype t = napi_undefined;
    napi_typeof(env, argv[0], &t);
    if (t == napi_null) {
      rerun_replaces_stdin = true;
      set = true;
    } else if (argc >= 2 && !rerun_input_path) {
      char *path = string_copy(env, argv[0]);
      size_t n = 0;
      char *text = NULL;
      if (path && napi_get_value_string_utf8(env, argv[1], NULL, 0, &n) == napi_ok && (text = malloc(n + 1)) &&
          napi_get_value_string_utf8(env, argv[1], text, n + 1, &n) == napi_ok) {
        rerun_input_path = path;
        rerun_input_len = n;
        rerun_replaces_stdin = true;
        __atomic_store_n(&rerun_input, text, __ATOMIC_RELEASE);
        set = true;
      } else {
        free(path);
        free(text);
      }
    }
  }
  napi_get_boolean(env, set, &out);
  return out;
}

static napi_value rerun_after(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  double seconds = -1;
  bool set = false;
  // 0 (disarm) also takes off armTimeLimit's timer, with or without a prepared restart.
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 &&
      napi_get_value_double(env, argv[0], &seconds) == napi_ok && seconds >= 0 && seconds <= 86400 &&
      (rerun_path || seconds == 0)) {
    set = set_timer(seconds);
  }
  napi_get_boolean(env, set, &out);
  return out;
}

// spawnChild(path, argv, env, onReply): starts a lint child (src/frontends/lint/spawn-worker.ts) with
// posix_spawn: its stdin the read end of a new pipe, its descriptor 3 the write end of another,
// its stdout /dev/null, its stderr this process's; signals at their defaults and none blocked, as
// Node's own spawn leaves them. Returns [pid, the requests' write end (close-on-exec here)].
// A thread of its own reads the replies and hands each chunk to onReply(buffer) on the JavaScript
// thread; when they end (the child holds descriptor 3 until it exits) it reaps the child and calls
// onReply(null, exit code or null, signal number or null). Through node:child_process the same
// cost the lint process ~2.5 ms to load (node:net and the stream modules come with it) and ~3 ms
// to spawn, before the child could start booting; Node's own async reads would start libuv's
// thread pool, whose first read took ~0.5-4 ms here. Throws with the system's reason when it
// cannot.
typedef struct {
  int end;  // 0: data, 1: the child ended
  int code, sig;  // for end: -1 when none
  size_t len;
  char data[];
} ReplyMsg;

typedef struct {
  int fd;
  pid_t pid;
  napi_threadsafe_function tsfn;
} Reader;

static void reply_to_js(napi_env env, napi_value cb, void *context, void *data) {
  ReplyMsg *m = data;
  (void)context;
  if (env && cb) {
    napi_value argv[3], undefined;
    napi_get_undefined(env, &undefined);
    if (!m->end) {
      void *copy = NULL;
      napi_create_buffer_copy(env, m->len, m->data, &copy, &argv[0]);
      napi_call_function(env, undefined, cb, 1, argv, NULL);
    } else {
      napi_get_null(env, &argv[0]);
      if (m->code >= 0) napi_create_int32(env, m->code, &argv[1]);
      else napi_get_null(env, &argv[1]);
      if (m->sig >= 0) napi_create_int32(env, m->sig, &argv[2]);
      else napi_get_null(env, &argv[2]);
      napi_call_function(env, undefined, cb, 3, argv, NULL);
    }
  }
  free(m);
}

static void *read_replies(void *arg) {
  Reader *r = arg;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  char buf[65536];
  for (;;) {
    ssize_t n = read(r->fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    ReplyMsg *m = malloc(sizeof *m + (size_t)n);
    if (!m) break;
    m->end = 0;
    m->len = (size_t)n;
    memcpy(m->data, buf, (size_t)n);
    if (napi_call_threadsafe_function(r->tsfn, m, napi_tsfn_blocking) != napi_ok) free(m);
  }
  close(r->fd);
  int status = 0;
  pid_t w;
  do w = waitpid(r->pid, &status, 0);
  while (w < 0 && errno == EINTR);
  ReplyMsg *m = malloc(sizeof *m);
  if (m) {
    m->end = 1;
    m->len = 0;
    m->code = w == r->pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    m->sig = w == r->pid && WIFSIGNALED(status) ? WTERMSIG(status) : -1;
    if (napi_call_threadsafe_function(r->tsfn, m, napi_tsfn_blocking) != napi_ok) free(m);
  }
  napi_release_threadsafe_function(r->tsfn, napi_tsfn_release);
  free(r);
  return NULL;
}

// pipe2 is not everywhere (macOS); no other thread of this process forks in between.
static int cloexec_pipe(int fds[2]) {
  if (pipe(fds) != 0) return -1;
  if (fcntl(fds[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(fds[1], F_SETFD, FD_CLOEXEC) != 0) {
    int e = errno;
    close(fds[0]);
    close(fds[1]);
    fds[0] = fds[1] = -1;
    errno = e;
    return -1;
  }
  return 0;
}

static napi_value spawn_child(napi_env env, napi_callback_info info) {
  napi_value argv[4], out = NULL;
  size_t argc = 4, len = 0;
  char path[PATH_MAX + 1];
  napi_valuetype cb_type = napi_undefined;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 4 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || len >= sizeof path - 1 ||
      napi_typeof(env, argv[3], &cb_type) != napi_ok || cb_type != napi_function) {
    fail(env, "spawnChild: expects a path, argv, env and a reply callback");
    return NULL;
  }
  char **args = string_array(env, argv[1]), **envp = string_array(env, argv[2]);
  if (!args || !args[0] || !envp) {
    free_strings(args);
    free_strings(envp);
    fail(env, "spawnChild: argv and env must be arrays of strings without NUL (argv not empty)");
    return NULL;
  }
  Reader *reader = calloc(1, sizeof *reader);
  napi_value name;
  int req[2] = {-1, -1}, rep[2] = {-1, -1}, err = 0;
  pid_t pid = -1;
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  bool have_actions = false, have_attr = false, have_tsfn = false;
  sigset_t all, none;
  if (!reader) err = ENOMEM;
  if (!err && (napi_create_string_utf8(env, "bashguard lint child replies", NAPI_AUTO_LENGTH, &name) != napi_ok ||
               napi_create_threadsafe_function(env, argv[3], NULL, name, 0, 1, NULL, NULL, NULL, reply_to_js, &reader->tsfn) != napi_ok))
    err = ENOMEM;
  else if (!err) have_tsfn = true;
  if (!err && (cloexec_pipe(req) != 0 || cloexec_pipe(rep) != 0)) err = errno;
  if (!err && (err = posix_spawn_file_actions_init(&actions)) == 0) have_actions = true;
  if (!err && (err = posix_spawnattr_init(&attr)) == 0) have_attr = true;
  if (!err) {
    sigfillset(&all);
    sigemptyset(&none);
    // dup2 clears close-on-exec on the copies; the originals close at exec.
    if ((err = posix_spawn_file_actions_adddup2(&actions, req[0], 0)) == 0 &&
        (err = posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)) == 0 &&
        (err = posix_spawn_file_actions_adddup2(&actions, rep[1], 3)) == 0 &&
        (err = posix_spawnattr_setsigdefault(&attr, &all)) == 0 && (err = posix_spawnattr_setsigmask(&attr, &none)) == 0)
      err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  }
  if (!err) {
    // The child's stderr is this process's: Node marks descriptor 2 close-on-exec (seen for pipes
    // and terminals), so the flag is off while the child is started.
    int flags = fcntl(2, F_GETFD);
    if (flags >= 0 && (flags & FD_CLOEXEC)) fcntl(2, F_SETFD, flags & ~FD_CLOEXEC);
    err = posix_spawn(&pid, path, &actions, &attr, args, envp);
    if (flags >= 0 && (flags & FD_CLOEXEC)) fcntl(2, F_SETFD, flags);
  }
  if (have_actions) posix_spawn_file_actions_destroy(&actions);
  if (have_attr) posix_spawnattr_destroy(&attr);
  free_strings(args);
  free_strings(envp);
  if (req[0] >= 0) close(req[0]);
  if (rep[1] >= 0) close(rep[1]);
  pthread_t thread;
  if (!err) {
    reader->fd = rep[0];
    reader->pid = pid;
    pthread_attr_t ta;
    pthread_attr_init(&ta);
    pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&ta, 256 * 1024);
    err = pthread_create(&thread, &ta, read_replies, reader);
    pthread_attr_destroy(&ta);
    if (err) {
      // The child runs, but nothing would read it: it ends with its input, or this.
      kill(pid, SIGKILL);
      waitpid(pid, NULL, 0);
    }
  }
  if (err) {
    if (have_tsfn) napi_release_threadsafe_function(reader->tsfn, napi_tsfn_abort);
    free(reader);
    if (req[1] >= 0) close(req[1]);
    if (rep[0] >= 0) close(rep[0]);
    char message[200];
    snprintf(message, sizeof message, "spawnChild: %s", strerror(err));
    fail(env, message);
    return NULL;
  }
  napi_value a, b;
  napi_create_array_with_length(env, 2, &out);
  napi_create_int32(env, pid, &a);
  napi_create_int32(env, req[1], &b);
  napi_set_element(env, out, 0, a);
  napi_set_element(env, out, 1, b);
  return out;
}
#endif

// native/tree-sitter-runtime.c
TSLanguage *bashguard_dense_bash(void);
// Whether tree-sitter's runtime here skips an error recovery whose result its caller discards
// (native/tree-sitter-runtime.c, scripts/tree-sitter-runtime.mjs).
extern const int bashguard_skips_discarded_recovery;
const TSLanguage *tree_sitter_bash(void);

// useDenseTable(on): the compiled-in grammar with its dense table (on) or as the grammar has it;
// useDenseTable(): no change. Returns whether the dense table is in use (false when this build has
// none that fits).
static napi_value use_dense_table(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  napi_valuetype type = napi_undefined;
  size_t argc = 1;
  Exporter *x = exporter(env);
  bool on = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || !x || !x->parser) {
    fail(env, "tree export not initialised");
    return NULL;
  }
  if (argc >= 1 && napi_typeof(env, argv[0], &type) != napi_ok) return NULL;
  if (type != napi_undefined && napi_get_value_bool(env, argv[0], &on) != napi_ok) {
    fail(env, "useDenseTable takes a boolean");
    return NULL;
  }
  const TSLanguage *bash = on && x->dense ? x->dense : tree_sitter_bash();
  // Both have the same symbols and fields: a tree kept for exportInto reads the same either way.
  if (type != napi_undefined && bash != x->language) {
    if (!ts_parser_set_language(x->parser, bash)) {
      fail(env, "the grammar's ABI version is not supported by this tree-sitter runtime");
      return NULL;
    }
    x->language = bash;
  }
  napi_get_boolean(env, x->language == x->dense && x->dense != NULL, &out);
  return out;
}

#ifndef _WIN32
// native/file-io.c (the package ships no headers: declared here).
napi_value bashguard_read_bundle(napi_env env, napi_callback_info info);
napi_value bashguard_read_all(napi_env env, napi_callback_info info);
napi_value bashguard_write_all(napi_env env, napi_callback_info info);
napi_value bashguard_append_line(napi_env env, napi_callback_info info);
napi_value bashguard_stat_kind(napi_env env, napi_callback_info info);
napi_value bashguard_create_file(napi_env env, napi_callback_info info);
napi_value bashguard_remove_file(napi_env env, napi_callback_info info);
napi_value bashguard_private_dir(napi_env env, napi_callback_info info);
napi_value bashguard_is_terminal(napi_env env, napi_callback_info info);
#endif

NAPI_MODULE_INIT() {
  Exporter *x = calloc(1, sizeof *x);
  if (!x || !(x->parser = ts_parser_new())) {
    free(x);
    napi_throw_error(env, NULL, "out of memory");
    return NULL;
  }
  // The compiled-in grammar as it is; its dense variant is ready for useDenseTable (NULL: none fits).
  x->dense = bashguard_dense_bash();
  if (ts_parser_set_language(x->parser, tree_sitter_bash())) x->language = tree_sitter_bash();
  if (napi_set_instance_data(env, x, finalize, NULL) != napi_ok) {
    ts_parser_delete(x->parser);
    free(x->dense);
    free(x);
    return NULL;
  }
  napi_property_descriptor props[] = {
      {"setLanguage", NULL, set_language, NULL, NULL, NULL, napi_default, NULL},
      {"useDenseTable", NULL, use_dense_table, NULL, NULL, NULL, napi_default, NULL},
      {"setTimeoutMicros", NULL, set_timeout_micros, NULL, NULL, NULL, napi_default, NULL},
      {"reset", NULL, reset, NULL, NULL, NULL, napi_default, NULL},
      {"parse", NULL, parse, NULL, NULL, NULL, napi_default, NULL},
      {"exportInto", NULL, export_into, NULL, NULL, NULL, napi_default, NULL},
      {"symbol", NULL, symbol, NULL, NULL, NULL, napi_default, NULL},
      {"fieldName", NULL, field_name, NULL, NULL, NULL, napi_default, NULL},
#ifndef _WIN32
      {"lstatKind", NULL, lstat_kind, NULL, NULL, NULL, napi_default, NULL},
      {"releaseStderr", NULL, release_stderr, NULL, NULL, NULL, napi_default, NULL},
      {"sha256Hex", NULL, sha256_hex, NULL, NULL, NULL, napi_default, NULL},
      {"setV8Flags", NULL, set_v8_flags, NULL, NULL, NULL, napi_default, NULL},
      {"spawnChild", NULL, spawn_child, NULL, NULL, NULL, napi_default, NULL},
      {"armTimeLimit", NULL, arm_time_limit, NULL, NULL, NULL, napi_default, NULL},
      {"prepareRerun", NULL, prepare_rerun, NULL, NULL, NULL, napi_default, NULL},
      {"rerunAfter", NULL, rerun_after, NULL, NULL, NULL, napi_default, NULL},
      {"setRerunInput", NULL, set_rerun_input, NULL, NULL, NULL, napi_default, NULL},
      {"readBundle", NULL, bashguard_read_bundle, NULL, NULL, NULL, napi_default, NULL},
      {"readAll", NULL, bashguard_read_all, NULL, NULL, NULL, napi_default, NULL},
      {"writeAll", NULL, bashguard_write_all, NULL, NULL, NULL, napi_default, NULL},
      {"appendLine", NULL, bashguard_append_line, NULL, NULL, NULL, napi_default, NULL},
      {"statKind", NULL, bashguard_stat_kind, NULL, NULL, NULL, napi_default, NULL},
      {"createFile", NULL, bashguard_create_file, NULL, NULL, NULL, napi_default, NULL},
      {"removeFile", NULL, bashguard_remove_file, NULL, NULL, NULL, napi_default, NULL},
      {"privateDir", NULL, bashguard_private_dir, NULL, NULL, NULL, napi_default, NULL},
      {"isTerminal", NULL, bashguard_is_terminal, NULL, NULL, NULL, napi_default, NULL},
#endif
  };
  napi_value version, dense, skips;
  if (napi_define_properties(env, exports, sizeof props / sizeof props[0], props) != napi_ok ||
      napi_create_uint32(env, 2, &version) != napi_ok ||
      napi_set_named_property(env, exports, "formatVersion", version) != napi_ok ||
      napi_get_boolean(env, x->dense != NULL, &dense) != napi_ok ||
      napi_set_named_property(env, exports, "hasDenseTable", dense) != napi_ok ||
      napi_get_boolean(env, bashguard_skips_discarded_recovery != 0, &skips) != napi_ok ||
      napi_set_named_property(env, exports, "skipsDiscardedRecovery", skips) != napi_ok) {
    return NULL;
  }
  return exports;
}
