/* A gsync_program: the constraints file read (a regular file, of bounded
 * size), parsed as one JSON document, loaded part by part (constraints.c,
 * identity.c), read back for hosts that launch by themselves
 * (gsync_program_get_info and the kernel and parameter infos), and
 * released. Also gsync_read_file, which reads a program's source with the
 * same care. */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The largest constraints file read: the tool writes a few kilobytes. */
#define MAX_CONSTRAINTS_BYTES (16u << 20)

/* Names a file type for a message about a file that is not regular. */
static const char *file_type_word(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

/* Reads the whole file at path into a malloc'd, NUL-terminated buffer.
 * Only a regular file of at most MAX_CONSTRAINTS_BYTES is read: a device
 * such as /dev/zero would be read without end, and opening a FIFO waits
 * for a writer (it is opened without waiting, then refused). Returns
 * GSYNC_OK and sets *out and *out_len, or GSYNC_ERR_IO / GSYNC_ERR_NOMEM;
 * kind names what the file should be in the message for one too large. */
static gsync_status read_file(const char *path, const char *kind, char **out,
                              size_t *out_len, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: cannot open: %s", path,
                     strerror(errno));
  struct stat sb;
  gsync_status st = GSYNC_OK;
  char *buf = NULL;
  size_t len = 0;
  if (fstat(fd, &sb) != 0) {
    st = gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: cannot open: %s", path,
                   strerror(errno));
    goto close_fd;
  }
  if (!S_ISREG(sb.st_mode)) {
    st = gsli_fail(err, errlen, GSYNC_ERR_IO,
                   "%s: cannot read: %s, not a regular file", path,
                   file_type_word(sb.st_mode));
    goto close_fd;
  }
  /* The size may change while it is read: read to the end, bounded. */
  size_t cap = sb.st_size > 0 && sb.st_size < MAX_CONSTRAINTS_BYTES
                   ? (size_t)sb.st_size + 1
                   : 4096;
  for (;;) {
    if (len + 1 >= cap || buf == NULL) {
      size_t want = buf == NULL ? cap : cap * 2;
      char *bigger = realloc(buf, want);
      if (bigger == NULL) {
        st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "%s: out of memory", path);
        goto close_fd;
      }
      buf = bigger;
      cap = want;
    }
    ssize_t got = read(fd, buf + len, cap - len - 1);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0) {
      st = gsli_fail(err, errlen, GSYNC_ERR_IO, "%s: read error: %s", path,
                     strerror(errno));
      goto close_fd;
    }
    if (got == 0)
      break;
    len += (size_t)got;
    if (len > MAX_CONSTRAINTS_BYTES) {
      st = gsli_fail(err, errlen, GSYNC_ERR_IO,
                     "%s: cannot read: larger than %u bytes, too large for %s",
                     path, MAX_CONSTRAINTS_BYTES, kind);
      goto close_fd;
    }
  }
  buf[len] = '\0';
  *out = buf;
  *out_len = len;
  buf = NULL;
close_fd:
  free(buf);
  close(fd);
  return st;
}

gsync_status gsync_read_file(const char *path, char **text, size_t *len,
                             char *err, size_t errlen) {
  if (path == NULL || text == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "gsync_read_file: %s is NULL",
                     path == NULL ? "path" : "text");
  size_t n = 0;
  *text = NULL;
  gsync_status st = read_file(path, "a source file", text, &n, err, errlen);
  if (st == GSYNC_OK && len != NULL)
    *len = n;
  return st;
}

/* Fills p from the parsed document root. Returns GSYNC_OK or the status
 * of the first problem found. */
static gsync_status load_document(const where *w, json_object *root,
                                  gsync_program *p) {
  json_object *v, *arr;
  gsync_status st;
  if (!json_object_is_type(root, json_type_object))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: not a JSON object", w->file);
  if ((st = gsli_get_field(w, root, "format", json_type_string, 0, &v)))
    return st;
  if (strcmp(json_object_get_string(v), "gsync-constraints") != 0)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: field \"format\" is \"%s\", not \"gsync-constraints\"", w->file,
        json_object_get_string(v));
  if ((st = gsli_get_field(w, root, "version", json_type_int, 0, &v)))
    return st;
  int64_t version;
  if (!gsli_json_int(v, &version))
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_FORMAT,
                     "%s: field \"version\" is out of range", w->file);
  if (version != 1)
    return gsli_fail(
        w->err, w->errlen, GSYNC_ERR_FORMAT,
        "%s: field \"version\" is %lld; this libgsync reads version 1", w->file,
        (long long)version);
  if ((st = gsli_get_field(w, root, "barrier", json_type_string, 0, &v)))
    return st;
  p->barrier = gsli_dup_string(json_object_get_string(v));
  if (p->barrier == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  if ((st = gsli_get_bool(w, root, "discovery", 0, &p->discovery)) ||
      (st = gsli_load_sites(w, root, p)) ||
      (st = gsli_load_requires(w, root, p)) ||
      (st = gsli_load_build(w, root, p)) ||
      (st = gsli_get_field(w, root, "kernels", json_type_array, 0, &arr)))
    return st;
  size_t n = json_object_array_length(arr);
  p->kernels = calloc(n > 0 ? n : 1, sizeof *p->kernels);
  if (p->kernels == NULL)
    return gsli_fail(w->err, w->errlen, GSYNC_ERR_NOMEM, "%s: out of memory",
                     w->file);
  for (size_t i = 0; i < n; i++) {
    p->n_kernels = i + 1;
    st = gsli_load_kernel(w, json_object_array_get_idx(arr, i), i,
                          p->timed_record ? ABORT_RECORD_BYTES
                                          : ABORT_RECORD_BYTES_UNTIMED,
                          &p->kernels[i]);
    if (st != GSYNC_OK)
      return st;
  }
  if ((st = gsli_load_auto(w, root, p)))
    return st;
  return gsli_load_identity(w, root, p);
}

/* Parses len bytes of text as one JSON document, with nothing after it
 * but white space (json-c alone stops at the first NUL and ignores what
 * follows the document). Returns the document, or NULL with *why set. */
static json_object *parse_json(const char *text, size_t len, const char **why) {
  if (len > INT32_MAX || memchr(text, '\0', len) != NULL) {
    *why = len > INT32_MAX ? "too large" : "it holds a NUL byte";
    return NULL;
  }
  json_tokener *tok = json_tokener_new();
  if (tok == NULL) {
    *why = "out of memory";
    return NULL;
  }
  json_object *root = json_tokener_parse_ex(tok, text, (int)len);
  enum json_tokener_error jerr = json_tokener_get_error(tok);
  size_t used = json_tokener_get_parse_end(tok);
  json_tokener_free(tok);
  if (root == NULL || jerr != json_tokener_success) {
    json_object_put(root);
    *why = json_tokener_error_desc(
        jerr == json_tokener_continue ? json_tokener_error_parse_eof : jerr);
    return NULL;
  }
  for (; used < len; used++)
    if (strchr(" \t\r\n", text[used]) == NULL) {
      json_object_put(root);
      *why = "text after the JSON document";
      return NULL;
    }
  return root;
}

/* Parses and validates the constraints text (len bytes) into a new
 * program; name is the file's, for messages. Returns GSYNC_OK and sets
 * *out, or the first problem's status. */
gsync_status gsli_load_text(const char *name, const char *text, size_t len,
                            gsync_program **out, char *err, size_t errlen) {
  const char *why = NULL;
  gsync_program *p = NULL;
  gsync_status st;
  json_object *root = parse_json(text, len, &why);
  if (root == NULL)
    return gsli_fail(err, errlen, GSYNC_ERR_FORMAT, "%s: not valid JSON: %s",
                     name, why);
  p = calloc(1, sizeof *p);
  if (p == NULL || (p->path = gsli_dup_string(name)) == NULL) {
    st = gsli_fail(err, errlen, GSYNC_ERR_NOMEM, "%s: out of memory", name);
    goto free_program;
  }
  where w = {name, "", err, errlen};
  st = load_document(&w, root, p);
  if (st != GSYNC_OK)
    goto free_program;
  *out = p;
  p = NULL;
free_program:
  gsync_program_release(p);
  json_object_put(root);
  return st;
}

/* Reads, parses and validates the constraints file into a new program.
 * Returns GSYNC_OK and sets *out, or the first problem's status. */
gsync_status gsync_program_load(const char *constraints_path,
                                gsync_program **out, char *err, size_t errlen) {
  char *text = NULL;
  size_t len = 0;
  if (out == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_load", "out");
  *out = NULL;
  if (constraints_path == NULL)
    return gsli_null_argument(err, errlen, "gsync_program_load",
                              "constraints_path");
  gsync_status st = read_file(constraints_path, "a constraints file", &text,
                              &len, err, errlen);
  if (st == GSYNC_OK)
    st = gsli_load_text(constraints_path, text, len, out, err, errlen);
  free(text);
  return st;
}

/* Frees the site table of an abort_info. */
void gsli_free_abort_info(abort_info *a) {
  for (size_t i = 0; i < a->n_sites; i++)
    free(a->site_places[i]);
  free(a->site_places);
  memset(a, 0, sizeof *a);
}

/* Copies src into *dst (site strings too). Returns 0 when out of memory,
 * leaving *dst empty. */
int gsli_copy_abort_info(abort_info *dst, const abort_info *src) {
  *dst = *src;
  dst->site_places =
      calloc(src->n_sites > 0 ? src->n_sites : 1, sizeof(char *));
  if (dst->site_places == NULL) {
    dst->n_sites = 0;
    return 0;
  }
  for (size_t i = 0; i < src->n_sites; i++)
    if ((dst->site_places[i] = gsli_dup_string(src->site_places[i])) == NULL) {
      gsli_free_abort_info(dst);
      return 0;
    }
  return 1;
}

/* Frees program and everything it owns; NULL is a no-op. */
void gsync_program_release(gsync_program *program) {
  if (program == NULL)
    return;
  gsli_free_needs(&program->needs);
  for (size_t i = 0; i < program->n_auto; i++) {
    free(program->auto_rules[i].name);
    free(program->auto_rules[i].define);
    gsli_free_needs(&program->auto_rules[i].needs);
  }
  free(program->auto_rules);
  free(program->chosen_why);
  free(program->forced);
  for (size_t i = 0; i < program->n_build_args; i++)
    free(program->build_args[i]);
  free(program->build_args);
  free(program->build_options);
  for (size_t i = 0; i < program->n_alias; i++) {
    close(program->alias_fds[i]);
    free(program->alias_dirs[i]);
  }
  free(program->alias_dirs);
  free(program->alias_fds);
  for (size_t i = 0; i < program->n_kernels; i++) {
    free(program->kernels[i].name);
    gsli_free_params(&program->kernels[i]);
  }
  free(program->kernels);
  gsli_free_abort_info(&program->abort);
  free(program->fingerprint);
  free(program->layout);
  free(program->canon);
  free(program->barrier);
  free(program->path);
  free(program);
}

/* ---- A loaded program read back (gsync_program_get_info and the
 * kernel and parameter infos) ---- */

/* Checks the arguments every info call takes. info is the caller's
 * struct, whose first field is its size. Returns GSYNC_OK or
 * GSYNC_ERR_ARGUMENT. */
static gsync_status check_info_call(const char *fn,
                                    const gsync_program *program,
                                    const void *info, char *err,
                                    size_t errlen) {
  size_t size;
  if (program == NULL)
    return gsli_null_argument(err, errlen, fn, "program");
  if (info == NULL)
    return gsli_null_argument(err, errlen, fn, "info");
  memcpy(&size, info, sizeof size);
  if (size <= sizeof size)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: info->size %zu holds no field", fn, size);
  return GSYNC_OK;
}

/* Copies got (a whole struct of full bytes) into the caller's info as far
 * as info's size reaches, leaving that size as it is: a caller built
 * against an older, shorter struct gets the fields it knows. */
static void give_info(void *info, const void *got, size_t full) {
  size_t size;
  memcpy(&size, info, sizeof size);
  size_t n = size < full ? size : full;
  memcpy((char *)info + sizeof size, (const char *)got + sizeof size,
         n - sizeof size);
}

gsync_status gsync_program_get_info(const gsync_program *program,
                                    gsync_program_info *info, char *err,
                                    size_t errlen) {
  gsync_status st =
      check_info_call("gsync_program_get_info", program, info, err, errlen);
  if (st != GSYNC_OK)
    return st;
  gsync_program_info got = {
      .path = program->path,
      .barrier = program->barrier,
      .discovery = program->discovery,
      .spin_limit_ms = program->abort.spin_limit_ms,
      .fingerprint = program->fingerprint,
      .n_kernels = program->n_kernels,
      .sites = (const char *const *)program->abort.site_places,
      .n_sites = program->abort.n_sites,
      .build_args = (const char *const *)program->build_args,
      .n_build_args = program->n_build_args,
  };
  give_info(info, &got, sizeof got);
  return GSYNC_OK;
}

/* check_info_call, and that index names one of program's kernels, which
 * *k is then set to. Returns GSYNC_OK or GSYNC_ERR_ARGUMENT. */
static gsync_status check_kernel_call(const char *fn,
                                      const gsync_program *program,
                                      size_t index, const void *info,
                                      const kernel_info **k, char *err,
                                      size_t errlen) {
  gsync_status st = check_info_call(fn, program, info, err, errlen);
  if (st != GSYNC_OK)
    return st;
  if (index >= program->n_kernels)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: kernel index %zu, but %s lists %zu kernels", fn,
                     index, program->path, program->n_kernels);
  *k = &program->kernels[index];
  return GSYNC_OK;
}

/* An optional offset for a caller: GSYNC_NO_OFFSET where absent. */
static size_t given_offset(int has, size_t offset) {
  return has ? offset : GSYNC_NO_OFFSET;
}

gsync_status gsync_program_kernel_info(const gsync_program *program,
                                       size_t index, gsync_kernel_info *info,
                                       char *err, size_t errlen) {
  const kernel_info *k = NULL;
  gsync_status st = check_kernel_call("gsync_program_kernel_info", program,
                                      index, info, &k, err, errlen);
  if (st != GSYNC_OK)
    return st;
  gsync_kernel_info got = {
      .name = k->name,
      .global_barrier = k->global_barrier,
      .work_dim = k->work_dim,
      .state_index = k->state_index,
      .fixed_bytes = k->fixed_bytes,
      .per_group_bytes = k->per_group_bytes,
      .reset_by_kernel = k->reset_by_kernel,
      .participants_offset = k->participants_offset,
      .grid_offset = given_offset(k->has_grid, k->grid_offset),
      .abort_offset = given_offset(k->has_abort_record, k->abort_offset),
      .abort_bytes = k->has_abort_record ? k->abort_bytes : 0,
      .poll_cap_offset = given_offset(k->has_poll_cap, k->poll_cap_offset),
      .max_work_groups = k->max_work_groups,
      .min_local_size = k->min_local_size,
      .coresident_launch_required = k->coresident_launch_required,
      .has_params = k->has_params,
      .n_params = k->n_params,
  };
  give_info(info, &got, sizeof got);
  return GSYNC_OK;
}

gsync_status gsync_program_param_info(const gsync_program *program,
                                      size_t index, size_t param,
                                      gsync_param_info *info, char *err,
                                      size_t errlen) {
  static const char fn[] = "gsync_program_param_info";
  const kernel_info *k = NULL;
  gsync_status st =
      check_kernel_call(fn, program, index, info, &k, err, errlen);
  if (st != GSYNC_OK)
    return st;
  if (param >= k->n_params)
    return gsli_fail(err, errlen, GSYNC_ERR_ARGUMENT,
                     "%s: parameter %zu, but kernel %s has %zu in \"params\"",
                     fn, param, k->name, k->n_params);
  const param_info *p = &k->params[param];
  gsync_param_info got = {
      .name = p->name,
      .kind = p->kind_name,
      .bytes = p->kind == PARAM_PRIVATE ? p->bytes : 0,
  };
  give_info(info, &got, sizeof got);
  return GSYNC_OK;
}
