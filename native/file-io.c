// bashguard's file functions in C: the start entries' bundle and code cache (readBundle, below),
// and the hook's own input and output through plain system calls: its event on stdin, its answer
// on stdout, its line in the decision log (src/frontends/cli/main.ts hookIO, src/layers/log/decisions.ts), its
// kept event (src/frontends/hook/kept-event.ts), and the stat calls of the workspace's discovery and config
// (src/policy/layout/discover.ts, src/policy/workspace/host.ts, src/policy/config.ts).
//
// Why (bench/README.md, fifteenth round): the hook is a fresh Node process on every tool call,
// and the first call of each of Node's fs functions in a process runs Node's own JavaScript for it
// cold (validation, the Stats object, the binding's request): fstatSync ~0.11 ms, readSync ~0.11,
// writeSync ~0.07, openSync ~0.05 the first time, ~0.003 after. Here each is one system call.
// Every function leaves anything unusual to the caller's JavaScript path (src/util/native-io.ts).
//
// readAll(fd) -> string | null: every byte until the end of input, decoded as UTF-8 as Buffer's
//   toString does (V8's decoder: invalid sequences become U+FFFD); null when fd is a terminal
//   (the hook then reads nothing). A non-blocking descriptor is waited on with poll(2). Errors
//   throw an Error whose `code` is the errno name, as Node's do.
// writeAll(fd, text) -> true: the text's UTF-8 bytes, all of them (poll(2) on EAGAIN); errors
//   throw as above (EPIPE when the reader has gone: SIGPIPE is ignored in Node).
// appendLine(file, text, maxBytes) -> true | false: appends the text to the file (created 0600,
//   O_APPEND) when it exists and the line fits under maxBytes or the file is empty; false (nothing
//   written) when it would not fit: the caller rotates. Errors throw as above (ENOENT: the
//   caller makes the directory).
// statKind(path, follow) -> number: what stat(2) (lstat(2) when follow is false) says: the size of
//   a regular file (>= 0), or STAT_* below for anything else.
// createFile(path, text) -> true: a new file (O_EXCL, mode 0600 less the umask, as Node's
//   writeFileSync(path, text, { mode: 0o600, flag: 'wx' })) holding the text's UTF-8; errors throw
//   as above (EEXIST when it is there). The hook's kept event (src/frontends/hook/kept-event.ts).
// removeFile(path) -> boolean: unlink(2); whether it removed the file.
// privateDir(path) -> boolean: a real directory (not a link) owned by this user, mode 0700 or
//   tighter (src/runtime/startup/cache-dir.ts dirIsPrivate).
// isTerminal(fd) -> boolean: isatty(3) (Node's tty.isatty loads node:tty, and node:net with it).
//
// readBundle: what a bashguard start entry (dist/hook-start.cjs, the lint entries) reads before it
// compiles its bundle through the V8 code cache (src/runtime/startup/code-cache.ts), done in C.
//
// Why (bench/README.md, fifteenth round): the hook is a fresh Node process on every tool call. In
// JavaScript, reading the 450 KB bundle between the CommonJS wrapper's two ends, decoding it into
// a V8 string and reading and checking its ~850 KB cache file cost ~1.1 ms of a hook's ~7.5 ms
// above `node -e 0`: Node's fs functions run for the first time in the process, the chunked
// comparison goes through Buffer objects, and decoding copies the text once more. Here the same
// reads and checks are plain system calls and memcmp, and the text is handed to V8 as an external
// one-byte string over the very buffer it was read into (Node's
// node_api_create_external_string_latin1, looked up at run time: Node 20.4 and later export it;
// without it the text is copied into a V8 string, as JavaScript's decoding does).
//
// readBundle(bundle, head, tail, cache, magic) -> [text, data] | null
//   text: head + the bundle's bytes + tail, as a one-byte string; null (the whole result) when the
//         bundle is not ASCII (the caller decodes UTF-8 itself) or cannot be read (the caller's
//         own read then reports the error as require would);
//   data: the cache file's bytecode when `cache` (a path, or null) is a file bashguard wrote for
//         exactly these bytes, trusted on the same terms as src/runtime/startup/cache-dir.ts's
//         readPrivateFile and code-cache.ts's readCache: a private directory (a real directory
//         owned by this user, mode 0700 or tighter), the file opened without following a link
//         (and without blocking on a FIFO), a regular file owned by this user that nobody else
//         can write, at most 64 MiB; the header's magic and lengths accounting for every byte;
//         the source copy byte-for-byte the bundle; both copies of the data equal. null otherwise.
#define NAPI_VERSION 8
// binding.gyp asks for POSIX.1-2001 (_POSIX_C_SOURCE) for every platform; on macOS that hides
// O_CLOEXEC, O_NOFOLLOW and MAP_ANONYMOUS, which the system has: ask for all of it there.
#if defined(__APPLE__) && !defined(_DARWIN_C_SOURCE)
#define _DARWIN_C_SOURCE
#endif
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifndef _WIN32
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <dlfcn.h>
#include <sys/mman.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

// libuv's own names and messages for an errno, which Node's fs errors carry (`code`
// "EISDIR", message "illegal operation on a directory"): uv_err_name and uv_strerror, which
// every Node exports to addons, looked up once. Without them, the POSIX name of the common ones
// (else "UNKNOWN", as libuv says) and strerror's text.
typedef const char *(*uv_text_fn)(int);
static const char *uv_text(int which, int e) {
  static uv_text_fn fns[2];
  static bool looked = false;
  if (!looked) {
    looked = true;
    fns[0] = (uv_text_fn)dlsym(RTLD_DEFAULT, "uv_err_name");
    fns[1] = (uv_text_fn)dlsym(RTLD_DEFAULT, "uv_strerror");
  }
  return fns[which] ? fns[which](-e) : NULL;
}

static const char *errno_name(int e) {
  const char *uv = uv_text(0, e);
  if (uv) return uv;
  switch (e) {
    case EPIPE: return "EPIPE";
    case ENOENT: return "ENOENT";
    case ENOTDIR: return "ENOTDIR";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EISDIR: return "EISDIR";
    case EBADF: return "EBADF";
    case EIO: return "EIO";
    case ENOSPC: return "ENOSPC";
    case EEXIST: return "EEXIST";
    case EINVAL: return "EINVAL";
    case ELOOP: return "ELOOP";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENOMEM: return "ENOMEM";
    default: return "UNKNOWN";
  }
}

// Throws an Error with `code` and Node's message ("EACCES: permission denied, open '/x'").
static void throw_errno_at(napi_env env, int e, const char *syscall, const char *path) {
  char message[PATH_MAX + 256], what[128];
  const char *uv = uv_text(1, e);
  snprintf(what, sizeof what, "%s", uv ? uv : strerror(e));
  if (!uv && what[0] >= 'A' && what[0] <= 'Z') what[0] = (char)(what[0] - 'A' + 'a');
  if (path) snprintf(message, sizeof message, "%s: %s, %s '%s'", errno_name(e), what, syscall, path);
  else snprintf(message, sizeof message, "%s: %s, %s", errno_name(e), what, syscall);
  napi_value code, msg, error;
  if (napi_create_string_utf8(env, errno_name(e), NAPI_AUTO_LENGTH, &code) == napi_ok &&
      napi_create_string_utf8(env, message, NAPI_AUTO_LENGTH, &msg) == napi_ok && napi_create_error(env, code, msg, &error) == napi_ok) {
    napi_throw(env, error);
  } else {
    napi_throw_error(env, errno_name(e), message);
  }
}

static void throw_errno(napi_env env, int e, const char *syscall) {
  throw_errno_at(env, e, syscall, NULL);
}

// Waits until fd is ready for `events` (a non-blocking descriptor said EAGAIN).
static bool wait_for(int fd, short events) {
  struct pollfd p = {.fd = fd, .events = events, .revents = 0};
  for (;;) {
    int n = poll(&p, 1, -1);
    if (n > 0) return true;
    if (n < 0 && errno != EINTR) return false;
  }
}

// A path argument into buf (PATH_MAX + 1 bytes); false when it is not a string, holds a NUL or
// does not fit.
static bool path_arg(napi_env env, napi_value v, char *buf) {
  size_t len = 0;
  return napi_get_value_string_utf8(env, v, buf, PATH_MAX + 1, &len) == napi_ok && len < PATH_MAX && strlen(buf) == len;
}

static bool int_arg(napi_env env, napi_value v, int32_t *out) {
  return napi_get_value_int32(env, v, out) == napi_ok;
}

napi_value bashguard_read_all(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  int32_t fd;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 1 || !int_arg(env, argv[0], &fd) || fd < 0) {
    napi_throw_type_error(env, NULL, "readAll: expected a file descriptor");
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    throw_errno(env, errno, "fstat");
    return NULL;
  }
  if (S_ISCHR(st.st_mode) && isatty(fd)) {
    napi_get_null(env, &out);
    return out;
  }
  size_t cap = 64 * 1024, len = 0;
  char *buf = malloc(cap);
  if (!buf) {
    throw_errno(env, ENOMEM, "read");
    return NULL;
  }
  for (;;) {
    if (len == cap) {
      char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
      if (!bigger) {
        free(buf);
        throw_errno(env, ENOMEM, "read");
        return NULL;
      }
      buf = bigger;
      cap *= 2;
    }
    ssize_t n = read(fd, buf + len, cap - len);
    if (n > 0) {
      len += (size_t)n;
      continue;
    }
    if (n == 0) break;
    if (errno == EINTR) continue;
    if ((errno == EAGAIN || errno == EWOULDBLOCK) && wait_for(fd, POLLIN)) continue;
    int e = errno;
    free(buf);
    throw_errno(env, e, "read");
    return NULL;
  }
  napi_status status = napi_create_string_utf8(env, buf, len, &out);
  free(buf);
  if (status != napi_ok) {
    throw_errno(env, ENOMEM, "read");
    return NULL;
  }
  return out;
}

// The UTF-8 of a string argument, malloc'd (*len its length); NULL after throwing.
static char *utf8_arg(napi_env env, napi_value v, size_t *len, const char *what) {
  if (napi_get_value_string_utf8(env, v, NULL, 0, len) != napi_ok) {
    napi_throw_type_error(env, NULL, what);
    return NULL;
  }
  char *text = malloc(*len + 1);
  size_t got = 0;
  if (!text || napi_get_value_string_utf8(env, v, text, *len + 1, &got) != napi_ok || got != *len) {
    free(text);
    throw_errno(env, ENOMEM, "write");
    return NULL;
  }
  return text;
}

// Writes all of text[0..len) to fd; 0, or the errno that stopped it.
static int write_all(int fd, const char *text, size_t len) {
  size_t off = 0;
  while (off < len) {
    ssize_t n = write(fd, text + off, len - off);
    if (n > 0) {
      off += (size_t)n;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && wait_for(fd, POLLOUT)) continue;
    return n < 0 ? errno : EIO;
  }
  return 0;
}

napi_value bashguard_write_all(napi_env env, napi_callback_info info) {
  napi_value argv[2], out = NULL;
  size_t argc = 2, len = 0;
  int32_t fd;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !int_arg(env, argv[0], &fd) || fd < 0) {
    napi_throw_type_error(env, NULL, "writeAll: expected a file descriptor and a string");
    return NULL;
  }
  char *text = utf8_arg(env, argv[1], &len, "writeAll: expected a file descriptor and a string");
  if (!text) return NULL;
  int e = write_all(fd, text, len);
  free(text);
  if (e != 0) {
    throw_errno(env, e, "write");
    return NULL;
  }
  napi_get_boolean(env, true, &out);
  return out;
}

// The end of appendLine and createFile: closes fd (when open), frees the text, and throws for
// errno e (the open's when fd < 0, else the write's) or returns `result`.
static napi_value end_write(napi_env env, int fd, int e, char *text, const char *path, bool result) {
  napi_value out = NULL;
  if (fd >= 0) close(fd);
  free(text);
  if (e != 0) {
    if (fd < 0) throw_errno_at(env, e, "open", path);
    else throw_errno(env, e, "write");
    return NULL;
  }
  napi_get_boolean(env, result, &out);
  return out;
}

napi_value bashguard_append_line(napi_env env, napi_callback_info info) {
  napi_value argv[3];
  size_t argc = 3, len = 0;
  double max_bytes = 0;
  char path[PATH_MAX + 1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 3 || !path_arg(env, argv[0], path) ||
      napi_get_value_double(env, argv[2], &max_bytes) != napi_ok) {
    napi_throw_type_error(env, NULL, "appendLine: expected a path, a string and a size");
    return NULL;
  }
  char *text = utf8_arg(env, argv[1], &len, "appendLine: expected a path, a string and a size");
  if (!text) return NULL;
  // As Node's openSync(file, 'a', 0o600): O_APPEND | O_CREAT | O_WRONLY (and close-on-exec), and
  // O_NONBLOCK: a FIFO at the path (the agent can make one) fails with ENXIO or opens at once
  // instead of blocking until a reader comes; anything but a regular file is refused (ENXIO).
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0600);
  int e = 0;
  bool written = false;
  struct stat st;
  if (fd < 0) {
    e = errno;
  } else if (fstat(fd, &st) != 0) {
    e = errno;
  } else if (!S_ISREG(st.st_mode)) {
    e = ENXIO;
  } else if (!(st.st_size > 0 && (double)st.st_size + (double)len > max_bytes)) {
    e = write_all(fd, text, len);
    written = e == 0;
  }
  return end_write(env, fd, e, text, path, written);
}
// statKind's answers other than a regular file's size (src/util/native-io.ts has the same).
enum { STAT_ENOENT = -1, STAT_ERROR = -2, STAT_DIRECTORY = -3, STAT_OTHER = -4, STAT_SYMLINK = -5, STAT_ENOTDIR = -6 };

napi_value bashguard_stat_kind(napi_env env, napi_callback_info info) {
  napi_value argv[2], out = NULL;
  size_t argc = 2, len = 0;
  bool follow = true;
  char path[PATH_MAX + 1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 ||
      napi_get_value_string_utf8(env, argv[0], path, sizeof path, &len) != napi_ok || napi_get_value_bool(env, argv[1], &follow) != napi_ok) {
    napi_throw_type_error(env, NULL, "statKind: expected a path and a boolean");
    return NULL;
  }
  double kind;
  struct stat st;
  // A path cut to fit, or with a NUL inside, is one Node's fs refuses too (ERR_INVALID_ARG_VALUE
  // or ENAMETOOLONG): an error, not a missing file.
  if (len >= sizeof path - 1 || strlen(path) != len) kind = STAT_ERROR;
  else if ((follow ? stat(path, &st) : lstat(path, &st)) != 0) kind = errno == ENOENT ? STAT_ENOENT : errno == ENOTDIR ? STAT_ENOTDIR : STAT_ERROR;
  else if (S_ISREG(st.st_mode)) kind = (double)st.st_size;
  else if (S_ISDIR(st.st_mode)) kind = STAT_DIRECTORY;
  else if (S_ISLNK(st.st_mode)) kind = STAT_SYMLINK;
  else kind = STAT_OTHER;
  napi_create_double(env, kind, &out);
  return out;
}

napi_value bashguard_create_file(napi_env env, napi_callback_info info) {
  napi_value argv[2];
  size_t argc = 2, len = 0;
  char path[PATH_MAX + 1];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2 || !path_arg(env, argv[0], path)) {
    napi_throw_type_error(env, NULL, "createFile: expected a path and a string");
    return NULL;
  }
  char *text = utf8_arg(env, argv[1], &len, "createFile: expected a path and a string");
  if (!text) return NULL;
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  int e = fd < 0 ? errno : write_all(fd, text, len);
  return end_write(env, fd, e, text, path, true);
}

napi_value bashguard_remove_file(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  char path[PATH_MAX + 1];
  bool removed = false;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 && path_arg(env, argv[0], path)) removed = unlink(path) == 0;
  napi_get_boolean(env, removed, &out);
  return out;
}

napi_value bashguard_is_terminal(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  int32_t fd = -1;
  bool tty = napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 && int_arg(env, argv[0], &fd) && fd >= 0 && isatty(fd);
  napi_get_boolean(env, tty, &out);
  return out;
}

static bool is_private_dir(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() && (st.st_mode & 077) == 0;
}

napi_value bashguard_private_dir(napi_env env, napi_callback_info info) {
  napi_value argv[1], out = NULL;
  size_t argc = 1;
  char path[PATH_MAX + 1];
  bool ok = napi_get_cb_info(env, info, &argc, argv, NULL, NULL) == napi_ok && argc >= 1 && path_arg(env, argv[0], path) && is_private_dir(path);
  napi_get_boolean(env, ok, &out);
  return out;
}

// ---- readBundle ----

#define MAGIC_LEN 8
#define HEADER_LEN (MAGIC_LEN + 8)
#define MAX_CACHE (64u * 1024 * 1024)
#define CHUNK (64 * 1024)

// The text's buffer: mapped with its pages made up front where the system has anonymous mappings
// (~0.05 ms less than faulting in ~110 fresh pages of a malloc'd block one by one while reading);
// malloc'd elsewhere (macOS hides MAP_ANONYMOUS under the _POSIX_C_SOURCE the build defines).
static char *alloc_text(size_t n) {
#ifdef MAP_ANONYMOUS
#ifdef MAP_POPULATE
  int populate = MAP_POPULATE;
#else
  int populate = 0;
#endif
  void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | populate, -1, 0);
  return p == MAP_FAILED ? NULL : p;
#else
  return malloc(n);
#endif
}

static void free_text_buffer(char *p, size_t n) {
#ifdef MAP_ANONYMOUS
  munmap(p, n);
#else
  (void)n;
  free(p);
#endif
}

// Fills buf[0..n) from fd at pos; false when the file ends first or a read fails.
static bool read_at(int fd, char *buf, size_t n, off_t pos) {
  size_t off = 0;
  while (off < n) {
    ssize_t got = pread(fd, buf + off, n - off, pos + (off_t)off);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    off += (size_t)got;
  }
  return true;
}

// Whether the file's bytes at pos are exactly expected[0..n), read through chunk.
static bool same_as(int fd, off_t pos, const char *expected, size_t n, char *chunk) {
  for (size_t off = 0; off < n; off += CHUNK) {
    size_t part = n - off < CHUNK ? n - off : CHUNK;
    if (!read_at(fd, chunk, part, pos + (off_t)off) || memcmp(chunk, expected + off, part) != 0) return false;
  }
  return true;
}

static uint32_t le32(const unsigned char *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}


// A latin1 argument of at most `max` bytes into buf; its length, or -1.
static long latin1_arg(napi_env env, napi_value v, char *buf, size_t max) {
  size_t len = 0;
  if (napi_get_value_string_latin1(env, v, buf, max + 1, &len) != napi_ok || len >= max) return -1;
  return (long)len;
}

// The cache file's data for `source` (n bytes), as a new Buffer; NULL when it is not one to trust.
static napi_value read_cache(napi_env env, const char *file, const char *magic, const char *source, size_t n) {
  // The directory: a real directory of ours that nobody else can enter (src/runtime/startup/cache-dir.ts).
  char dir[PATH_MAX + 1];
  const char *slash = strrchr(file, '/');
  if (!slash || slash == file) return NULL;
  memcpy(dir, file, (size_t)(slash - file));
  dir[slash - file] = '\0';
  if (!is_private_dir(dir)) return NULL;
  struct stat st;
  uid_t me = getuid();
  int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  napi_value out = NULL;
  char *chunk = NULL;
  unsigned char header[HEADER_LEN];
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_uid != me || (st.st_mode & 022) != 0) goto done;
  if (st.st_size < HEADER_LEN || (uint64_t)st.st_size > MAX_CACHE) goto done;
  if (!read_at(fd, (char *)header, HEADER_LEN, 0) || memcmp(header, magic, MAGIC_LEN) != 0) goto done;
  uint64_t source_len = le32(header + MAGIC_LEN), data_len = le32(header + MAGIC_LEN + 4);
  if (data_len == 0 || HEADER_LEN + source_len + 2 * data_len != (uint64_t)st.st_size || source_len != n) goto done;
  if (!(chunk = malloc(CHUNK)) || !same_as(fd, HEADER_LEN, source, n, chunk)) goto done;
  void *data = NULL;
  napi_value buffer;
  if (napi_create_buffer(env, (size_t)data_len, &data, &buffer) != napi_ok) goto done;
  if (!read_at(fd, data, (size_t)data_len, (off_t)(HEADER_LEN + source_len))) goto done;
  if (!same_as(fd, (off_t)(HEADER_LEN + source_len + data_len), data, (size_t)data_len, chunk)) goto done;
  out = buffer;
done:
  free(chunk);
  close(fd);
  return out;
}

typedef napi_status (*external_latin1_fn)(napi_env, char *, size_t, napi_finalize, void *, napi_value *, bool *);

// V8 disposes of an external string's buffer when the string dies or the environment ends.
static void free_text(napi_env env, void *data, void *hint) {
  (void)env;
  free_text_buffer(data, (size_t)(uintptr_t)hint);
}

napi_value bashguard_read_bundle(napi_env env, napi_callback_info info) {
  static external_latin1_fn external = NULL;
  static bool looked = false;
  napi_value argv[5], out = NULL, nothing = NULL;
  size_t argc = 5;
  char path[PATH_MAX + 1], head[256], tail[256], magic[MAGIC_LEN + 1];
  napi_valuetype cache_type = napi_undefined;
  napi_get_null(env, &nothing);
  long head_len, tail_len;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 5 ||
      !path_arg(env, argv[0], path) || (head_len = latin1_arg(env, argv[1], head, sizeof head - 1)) < 0 ||
      (tail_len = latin1_arg(env, argv[2], tail, sizeof tail - 1)) < 0 || napi_typeof(env, argv[3], &cache_type) != napi_ok ||
      latin1_arg(env, argv[4], magic, MAGIC_LEN + 1) != MAGIC_LEN) {
    napi_throw_error(env, NULL, "readBundle: expected (bundle path, head, tail, cache path or null, 8-byte magic)");
    return NULL;
  }
  // O_NONBLOCK: a FIFO at the bundle's path opens at once (and is refused below) instead of blocking.
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return nothing;
  struct stat st;
  char *text = NULL;
  size_t size = 0;
  bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size < MAX_CACHE;
  if (ok) {
    size = (size_t)st.st_size;
    text = alloc_text((size_t)head_len + size + (size_t)tail_len);
    ok = text != NULL && read_at(fd, text + head_len, size, 0);
  }
  close(fd);
  size_t total = (size_t)head_len + size + (size_t)tail_len;
  // ASCII only: then latin1 is the text exactly (the build makes the bundles ASCII).
  unsigned char any = 0;
  for (size_t i = 0; ok && i < size; i++) any |= (unsigned char)text[head_len + i];
  if (!ok || (any & 0x80) != 0) {
    if (text) free_text_buffer(text, total);
    return nothing;
  }
  memcpy(text, head, (size_t)head_len);
  memcpy(text + head_len + size, tail, (size_t)tail_len);
  napi_value data = NULL;
  if (cache_type == napi_string) {
    char file[PATH_MAX + 1];
    if (path_arg(env, argv[3], file)) data = read_cache(env, file, magic, text + head_len, size);
  }
  if (!data) data = nothing;
  if (!looked) {
    looked = true;
    external = (external_latin1_fn)dlsym(RTLD_DEFAULT, "node_api_create_external_string_latin1");
  }
  napi_value string = NULL;
  bool copied = true;
  if (external && external(env, text, total, free_text, (void *)(uintptr_t)total, &string, &copied) == napi_ok) {
    // V8 took the buffer and frees it through free_text. A Node built with V8's sandbox copies it
    // instead and calls free_text right away (js_native_api_v8.cc, NewExternalString): either way
    // it is no longer ours.
    (void)copied;
  } else {
    string = NULL;
    if (napi_create_string_latin1(env, text, total, &string) != napi_ok) string = NULL;
    free_text_buffer(text, total);
  }
  if (!string || napi_create_array_with_length(env, 2, &out) != napi_ok || napi_set_element(env, out, 0, string) != napi_ok ||
      napi_set_element(env, out, 1, data) != napi_ok) {
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) return NULL;
    return nothing;
  }
  return out;
}
#endif
