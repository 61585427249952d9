/* jsonld: the one JSON loader of hilrun's files: reading bounded files, "extends" chains, and typed getters whose errors name the file and the JSON path. */
#ifndef HIL_JSONLD_H
#define HIL_JSONLD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

#include "config/config.h"

/* The file itself plus HIL_CFG_MAX_EXTENDS_DEPTH bases. */
#define HIL_JSONLD_MAX_CHAIN (HIL_CFG_MAX_EXTENDS_DEPTH + 1)
/* Room for a key or value quoted in a message. */
#define HIL_JSONLD_SHOW	     72
/* Room for a JSON path built from schema keys and indexes. */
#define HIL_JSONLD_PATH	     64

/* Which file of the chain an item of the merged tree was written in. */
struct hil_jsonld_origin {
	const cJSON *item;
	size_t file;
};

/*
 * State of one load. Items that merging replaces are parked in graveyard
 * rather than freed, so no address in origins is ever reused while we may
 * still look it up.
 */
struct hil_jsonld {
	char *base_dir; /* folder of the top file, or parse()'s base_dir */
	char *err;
	size_t errlen;
	char *files[HIL_JSONLD_MAX_CHAIN]; /* display names; files[0] NULL for inline text */
	dev_t dev[HIL_JSONLD_MAX_CHAIN];
	ino_t ino[HIL_JSONLD_MAX_CHAIN];
	int has_id[HIL_JSONLD_MAX_CHAIN];
	struct hil_jsonld_origin *origins;
	size_t n_origins;
	size_t cap_origins;
	cJSON *graveyard;
	const struct hil_config_roots *roots; /* NULL: files anywhere */
	/* What the file is, for messages: "a configuration" when NULL. */
	const char *kind;
	int top_array; /* its top level is an array (a hardware map) */
};

/**
 * Start a load of one file of hilrun's that has no "extends" (a hardware
 * map, a sweep, a job file): messages go to err.
 */
void hil_jsonld_init(struct hil_jsonld *ld, char *err, size_t errlen);

/**
 * Read path (a regular file of at most 1 MiB, inside ld->roots when set)
 * and parse it: a JSON object (an array with ld->top_array), no NUL byte,
 * no key twice in one object. Errors name the file and where:
 * "boards.json: line 3, column 15: invalid JSON near ...".
 * @param out receives the tree; the caller frees it (cJSON_Delete), and
 *        the loader with hil_jsonld_done.
 * @return HIL_OK, HIL_ERR_IO (cannot read), HIL_ERR_CONFIG or
 *         HIL_ERR_NOMEM, with the message in the err given to init.
 */
int hil_jsonld_load(struct hil_jsonld *ld, const char *path, cJSON **out);

/**
 * The same for len bytes of text already read (a job file read through
 * its locked descriptor); name is what messages call it ("job file"), or
 * NULL for none.
 */
int hil_jsonld_load_text(struct hil_jsonld *ld, const char *name,
			 const char *text, size_t len, cJSON **out);

/** Free what a load of hil_jsonld_init holds (not the tree it gave). */
void hil_jsonld_done(struct hil_jsonld *ld);

/* Whether path (which must exist) lies inside one of the loader's roots,
 * links resolved; always true without roots. */
int hil_jsonld_within_roots(const struct hil_jsonld *ld, const char *path);

/* The loader's roots as "A, B or C", for a message. */
void hil_jsonld_roots_text(const struct hil_jsonld *ld, char *buf, size_t len);

/* The display name of the file of the chain the item was written in. */
const char *hil_jsonld_origin_of(const struct hil_jsonld *ld, const cJSON *at);

/* dir/name, or name when it is absolute or dir is empty; malloc'ed. */
char *hil_jsonld_join(const char *dir, const char *name);

/* A name chosen from a list (a driver, an operation). */
struct hil_jsonld_choice {
	const char *what;	  /* "a board" */
	const char *const *names; /* NULL-terminated */
	const char *expected;	  /* "qemu-netduino or nucleo-f401re" */
};

const char *hil_jsonld_show(char *buf, size_t size, const char *s);

void hil_jsonld_append_err(struct hil_jsonld *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

int hil_jsonld_fail_file(struct hil_jsonld *ld, int code, const char *file,
			 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

int hil_jsonld_fail(struct hil_jsonld *ld, const cJSON *at, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));

int hil_jsonld_read_file(struct hil_jsonld *ld, size_t level, char **out,
			 size_t *outlen);

int hil_jsonld_parse_text(struct hil_jsonld *ld, size_t level, const char *text,
			  size_t len, cJSON **out);

cJSON *hil_jsonld_member(const cJSON *obj, const char *key);

/*
 * Where a message about obj points: its member key, else its member other
 * (NULL: none), else obj itself.
 */
const cJSON *hil_jsonld_where(const cJSON *obj, const char *key,
			      const char *other);

char *hil_jsonld_dir_of(const char *path);

int hil_jsonld_resolve(struct hil_jsonld *ld, size_t level, cJSON *root,
		       const char *dir, cJSON **out);

int hil_jsonld_check_keys(struct hil_jsonld *ld, const cJSON *obj,
			  const char *path, const char *const *allowed);

int hil_jsonld_section(struct hil_jsonld *ld, const cJSON *root,
		       const char *key, const char *const *allowed,
		       const cJSON **out);

int hil_jsonld_u32(struct hil_jsonld *ld, const cJSON *it, const char *path,
		   uint32_t min, uint32_t max, uint32_t *out);

int hil_jsonld_str(struct hil_jsonld *ld, const cJSON *it, const char *path,
		   char *buf, size_t size, int may_be_empty);

int hil_jsonld_path(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    char *buf, size_t size, int want_dir);

int hil_jsonld_find_choice(const struct hil_jsonld_choice *ch, const char *s);

int hil_jsonld_choice(struct hil_jsonld *ld, const cJSON *it, const char *path,
		      const struct hil_jsonld_choice *ch, char *buf,
		      size_t size, int *index);

int hil_jsonld_array(struct hil_jsonld *ld, const cJSON *it, const char *path,
		     size_t min, size_t max, size_t *n);

int hil_jsonld_is_name(const char *s);

int hil_jsonld_name(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    char *buf, size_t size);

int hil_jsonld_u32_range(struct hil_jsonld *ld, const cJSON *it,
			 const char *path, size_t max_n, uint32_t max_v,
			 uint32_t *vals, size_t *n_out);

int hil_jsonld_u32_list(struct hil_jsonld *ld, const cJSON *it,
			const char *path, size_t max_n, uint32_t max_v,
			uint32_t *vals, size_t *n_out);

int hil_jsonld_flag(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    int *out);

#endif /* HIL_JSONLD_H */
