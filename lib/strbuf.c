/* A growable string buffer, so that no part of the engine formats into a
 * fixed array. An allocation failure is remembered in the buffer and
 * checked once by the caller, instead of after every append. Also the
 * growth step of the engine's other arrays. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Makes room for n more bytes plus a NUL; returns 0 on allocation failure. */
static int buf_reserve(gsri_buf *b, size_t n) {
  if (b->failed)
    return 0;
  if (b->len + n + 1 <= b->cap)
    return 1;
  size_t cap = b->cap ? b->cap : 256;
  while (cap < b->len + n + 1)
    cap *= 2;
  char *p = realloc(b->data, cap);
  if (!p) {
    b->failed = 1;
    return 0;
  }
  b->data = p;
  b->cap = cap;
  return 1;
}

/* Appends n bytes of s. */
void gsri_buf_append(gsri_buf *b, const char *s, size_t n) {
  if (!buf_reserve(b, n))
    return;
  if (n)
    memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

/* Appends the NUL-terminated string s. */
void gsri_buf_puts(gsri_buf *b, const char *s) {
  gsri_buf_append(b, s, strlen(s));
}

/* Appends printf-formatted text. */
void gsri_buf_vprintf(gsri_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    b->failed = 1;
    return;
  }
  if (!buf_reserve(b, (size_t)n))
    return;
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

/* Appends printf-formatted text. */
void gsri_buf_printf(gsri_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  gsri_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

/* Appends the line '#line LINE "FILE"', the name escaped as in a C string
 * literal: " and \ with a backslash, control characters in octal. */
void gsri_buf_line_directive(gsri_buf *b, unsigned line, const char *file) {
  gsri_buf_printf(b, "#line %u \"", line);
  for (; *file; file++) {
    unsigned char c = (unsigned char)*file;
    if (c < 0x20 || c == 0x7f) /* a file name may hold a newline */
      gsri_buf_printf(b, "\\%03o", c);
    else if (c == '"' || c == '\\')
      gsri_buf_printf(b, "\\%c", c);
    else
      gsri_buf_append(b, file, 1);
  }
  gsri_buf_puts(b, "\"\n");
}

/* Returns the buffer's string (never NULL unless allocation failed) and
 * leaves b empty. */
char *gsri_buf_take(gsri_buf *b) {
  if (!b->data && !b->failed && buf_reserve(b, 0))
    b->data[0] = '\0'; /* a failed reserve leaves b->failed set */
  char *p = b->failed ? NULL : b->data;
  if (b->failed)
    free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->failed = 0;
  return p;
}

/* Frees the buffer's memory and empties it. */
void gsri_buf_free(gsri_buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
  b->failed = 0;
}

/* Returns array p (*cap elements of size sz) grown, by doubling, to hold at
 * least n + 1 elements; or NULL when out of memory (p is then still
 * valid). */
void *gsri_grow(void *p, size_t *cap, size_t n, size_t sz) {
  if (n < *cap)
    return p;
  size_t c = *cap ? *cap * 2 : 64;
  while (c <= n)
    c *= 2;
  void *q = realloc(p, c * sz);
  if (q)
    *cap = c;
  return q;
}

/* Returns a malloc'd copy of the first n bytes of s, NUL-terminated. */
char *gsri_strndup(const char *s, size_t n) {
  char *p = malloc(n + 1);
  if (p) {
    memcpy(p, s, n);
    p[n] = '\0';
  }
  return p;
}

/* Returns a malloc'd copy of s (NULL for NULL). */
char *gsri_strdup(const char *s) {
  return s ? gsri_strndup(s, strlen(s)) : NULL;
}

const char gsri_out_of_memory[] = "out of memory";

/* Reads a whole file into a malloc'd NUL-terminated buffer: only a regular
 * file of at most max bytes (a link to /dev/zero would be read without end;
 * opening a FIFO would wait for a writer, so it is opened without waiting).
 * The one reader of files in the engine. Returns NULL with *why set: a
 * static string (too_large for a file over max, gsri_out_of_memory), or NULL
 * for errno's. */
char *gsri_read_file(const char *path, size_t max, const char *too_large,
                     size_t *len, const char **why) {
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  struct stat st;
  *why = NULL;
  if (fd < 0)
    return NULL;
  gsri_buf b = {0};
  if (fstat(fd, &st) != 0) {
    close(fd);
    return NULL;
  }
  if (!S_ISREG(st.st_mode)) {
    *why =
        S_ISDIR(st.st_mode) ? "it is a directory" : "it is not a regular file";
    close(fd);
    return NULL;
  }
  if ((unsigned long long)st.st_size > max) { /* refused before reading */
    *why = too_large;
    close(fd);
    return NULL;
  }
  char chunk[4096];
  ssize_t n;
  while ((n = read(fd, chunk, sizeof chunk)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || b.len + (size_t)n > max) {
      *why = n < 0 ? NULL : too_large;
      close(fd);
      gsri_buf_free(&b);
      return NULL;
    }
    gsri_buf_append(&b, chunk, (size_t)n);
  }
  close(fd);
  size_t n_read = b.len;
  char *text = gsri_buf_take(&b);
  if (!text) {
    *why = gsri_out_of_memory;
    return NULL;
  }
  *len = n_read;
  return text;
}
