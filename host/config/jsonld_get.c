/* jsonld_get: typed getters of the JSON loader; every error names the file and the JSON path of the value. */
#define _XOPEN_SOURCE 700

#include "config/jsonld.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"
#include "util/util.h"

/* ---- validation helpers ------------------------------------------------ */

/* Refuse keys the schema does not have, suggesting a near miss. */
int hil_jsonld_check_keys(struct hil_jsonld *ld, const cJSON *obj,
			  const char *path, const char *const *allowed)
{
	const cJSON *c;
	const char *near;
	char kb[HIL_JSONLD_SHOW];
	size_t i, d, best;

	for (c = obj->child; c != NULL; c = c->next) {
		near = NULL;
		best = 3;
		for (i = 0; allowed[i] != NULL; i++) {
			if (strcmp(c->string, allowed[i]) == 0) {
				break;
			}
			d = hil_edit_distance(c->string, allowed[i]);
			if (d < best && 3 * d <= strlen(allowed[i])) {
				best = d;
				near = allowed[i];
			}
		}
		if (allowed[i] != NULL) {
			continue;
		}
		hil_jsonld_show(kb, sizeof(kb), c->string);
		if (near != NULL) {
			return hil_jsonld_fail(
				ld, c,
				"%s%s%s: unknown key (did you mean \"%s\"?)",
				path, path[0] ? "." : "", kb, near);
		}
		return hil_jsonld_fail(ld, c, "%s%s%s: unknown key", path,
				       path[0] ? "." : "", kb);
	}
	return HIL_OK;
}

/* Member key of a section that must be an object; *out NULL if absent. */
int hil_jsonld_section(struct hil_jsonld *ld, const cJSON *root,
		       const char *key, const char *const *allowed,
		       const cJSON **out)
{
	const cJSON *s = hil_jsonld_member(root, key);

	*out = NULL;
	if (s == NULL) {
		return HIL_OK;
	}
	if (!cJSON_IsObject(s)) {
		return hil_jsonld_fail(ld, s, "%s: expected an object", key);
	}
	*out = s;
	return hil_jsonld_check_keys(ld, s, key, allowed);
}

int hil_jsonld_u32(struct hil_jsonld *ld, const cJSON *it, const char *path,
		   uint32_t min, uint32_t max, uint32_t *out)
{
	double d;

	if (!cJSON_IsNumber(it)) {
		goto bad;
	}
	d = it->valuedouble;
	/* Written this way round so NaN and infinities fail too. */
	if (!(d >= (double)min && d <= (double)max)) {
		goto bad;
	}
	if (d != (double)(uint32_t)d) {
		goto bad;
	}
	*out = (uint32_t)d;
	return HIL_OK;
bad:
	return hil_jsonld_fail(ld, it,
			       "%s: expected an integer from %lu to %lu", path,
			       (unsigned long)min, (unsigned long)max);
}

/* A string that fits buf, with no control characters. */
int hil_jsonld_str(struct hil_jsonld *ld, const cJSON *it, const char *path,
		   char *buf, size_t size, int may_be_empty)
{
	const char *s;
	size_t n = 0, i;

	if (!cJSON_IsString(it)) {
		return hil_jsonld_fail(ld, it, "%s: expected a string", path);
	}
	s = it->valuestring;
	n = strlen(s);
	if (n >= size) {
		return hil_jsonld_fail(ld, it,
				       "%s: too long (%zu bytes, at most %zu)",
				       path, n, size - 1);
	}
	if (n == 0 && !may_be_empty) {
		return hil_jsonld_fail(ld, it, "%s: must not be empty", path);
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			return hil_jsonld_fail(
				ld, it, "%s: contains a control character",
				path);
		}
	}
	memcpy(buf, s, n + 1);
	return HIL_OK;
}

/*
 * A path that must exist (a folder when want_dir): relative ones are taken
 * from the folder of the file that wrote them, as "extends" is.
 */
int hil_jsonld_path(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    char *buf, size_t size, int want_dir)
{
	const char *file = hil_jsonld_origin_of(ld, it);
	char *dir = NULL;
	char *full = NULL;
	struct stat st;
	int ret;

	ret = hil_jsonld_str(ld, it, path, buf, size, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	dir = file != NULL ? hil_jsonld_dir_of(file)
			   : strdup(ld->base_dir ? ld->base_dir : "");
	full = dir != NULL ? hil_jsonld_join(dir, buf) : NULL;
	free(dir);
	if (full == NULL) {
		return hil_jsonld_fail(ld, it, "%s: out of memory", path);
	}
	if (strlen(full) >= size) {
		free(full);
		return hil_jsonld_fail(ld, it, "%s: too long once resolved",
				       path);
	}
	snprintf(buf, size, "%s", full);
	free(full);
	if (stat(buf, &st) != 0) {
		return hil_jsonld_fail(ld, it, "%s: %s: %s", path, buf,
				       strerror(errno));
	}
	if (!hil_jsonld_within_roots(ld, buf)) {
		char roots[512];

		hil_jsonld_roots_text(ld, roots, sizeof(roots));
		return hil_jsonld_fail(ld, it, "%s: %s is outside %s", path,
				       buf, roots);
	}
	if (want_dir && !S_ISDIR(st.st_mode)) {
		return hil_jsonld_fail(ld, it, "%s: %s is not a folder", path,
				       buf);
	}
	if (!want_dir && !S_ISREG(st.st_mode)) {
		return hil_jsonld_fail(ld, it, "%s: %s is not a file", path,
				       buf);
	}
	return HIL_OK;
}

int hil_jsonld_find_choice(const struct hil_jsonld_choice *ch, const char *s)
{
	int i;

	for (i = 0; ch->names[i] != NULL; i++) {
		if (strcmp(ch->names[i], s) == 0) {
			return i;
		}
	}
	return -1;
}

/* One of a fixed set of names; *index receives its position. */
int hil_jsonld_choice(struct hil_jsonld *ld, const cJSON *it, const char *path,
		      const struct hil_jsonld_choice *ch, char *buf,
		      size_t size, int *index)
{
	char sb[HIL_JSONLD_SHOW];
	int i;

	if (!cJSON_IsString(it)) {
		return hil_jsonld_fail(ld, it, "%s: expected one of %s", path,
				       ch->expected);
	}
	i = hil_jsonld_find_choice(ch, it->valuestring);
	if (i < 0) {
		return hil_jsonld_fail(
			ld, it, "%s: \"%s\" is not %s (expected %s)", path,
			hil_jsonld_show(sb, sizeof(sb), it->valuestring),
			ch->what, ch->expected);
	}
	if (buf != NULL) {
		snprintf(buf, size, "%s", ch->names[i]);
	}
	if (index != NULL) {
		*index = i;
	}
	return HIL_OK;
}

int hil_jsonld_array(struct hil_jsonld *ld, const cJSON *it, const char *path,
		     size_t min, size_t max, size_t *n)
{
	int count;

	if (!cJSON_IsArray(it)) {
		return hil_jsonld_fail(ld, it, "%s: expected an array", path);
	}
	count = cJSON_GetArraySize(it);
	if (max == SIZE_MAX && (count < 0 || (size_t)count < min)) {
		/* No upper limit: the one that holds is said alone. */
		return hil_jsonld_fail(
			ld, it, "%s: expected at least %zu entr%s, got %d",
			path, min, min == 1 ? "y" : "ies", count);
	}
	if (count < 0 || (size_t)count < min || (size_t)count > max) {
		return hil_jsonld_fail(
			ld, it, "%s: expected %zu to %zu entries, got %d", path,
			min, max, count);
	}
	*n = (size_t)count;
	return HIL_OK;
}

/* Names that end up in directory names and make variables. */
int hil_jsonld_is_name(const char *s)
{
	const char *p;

	if (s[0] == '\0' || s[0] == '.' || s[0] == '-') {
		return 0;
	}
	for (p = s; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._+-", *p) != NULL)) {
			return 0;
		}
	}
	return 1;
}

int hil_jsonld_name(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    char *buf, size_t size)
{
	char sb[HIL_JSONLD_SHOW];
	int ret;

	ret = hil_jsonld_str(ld, it, path, buf, size, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	if (!hil_jsonld_is_name(buf)) {
		return hil_jsonld_fail(
			ld, it,
			"%s: \"%s\" is not a name (letters, digits and . _ + -, not starting with . or -)",
			path, hil_jsonld_show(sb, sizeof(sb), buf));
	}
	return HIL_OK;
}

/* An integer list without repeats, e.g. bench.lengths. */
/*
 * A grid of lengths, {"from": A, "to": B, "step": S}: A, A+S, ... up to B
 * (B itself when it falls on the grid), as SUPERCOP and the NIST LWC
 * measurements sweep message lengths.
 */
int hil_jsonld_u32_range(struct hil_jsonld *ld, const cJSON *it,
			 const char *path, size_t max_n, uint32_t max_v,
			 uint32_t *vals, size_t *n_out)
{
	static const char *const keys[] = {"from", "to", "step", NULL};
	uint32_t from = 0, to = 0, step = 1, v;
	char p[HIL_JSONLD_PATH];
	size_t n = 0;
	int ret;

	ret = hil_jsonld_check_keys(ld, it, path, keys);
	if (ret != HIL_OK) {
		return ret;
	}
	if (hil_jsonld_member(it, "from") == NULL ||
	    hil_jsonld_member(it, "to") == NULL) {
		return hil_jsonld_fail(
			ld, it,
			"%s: a range needs \"from\" and \"to\" (and optionally \"step\")",
			path);
	}
	snprintf(p, sizeof(p), "%s.from", path);
	ret = hil_jsonld_u32(ld, hil_jsonld_member(it, "from"), p, 0, max_v,
			     &from);
	if (ret == HIL_OK) {
		snprintf(p, sizeof(p), "%s.to", path);
		ret = hil_jsonld_u32(ld, hil_jsonld_member(it, "to"), p, from,
				     max_v, &to);
	}
	if (ret == HIL_OK && hil_jsonld_member(it, "step") != NULL) {
		snprintf(p, sizeof(p), "%s.step", path);
		ret = hil_jsonld_u32(ld, hil_jsonld_member(it, "step"), p, 1,
				     max_v, &step);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if ((to - from) / step + 1 > max_n) {
		return hil_jsonld_fail(
			ld, it,
			"%s: from %lu to %lu in steps of %lu is %lu lengths, at most %zu",
			path, (unsigned long)from, (unsigned long)to,
			(unsigned long)step,
			(unsigned long)((to - from) / step + 1), max_n);
	}
	for (v = from; v <= to && n < max_n; v += step) {
		vals[n++] = v;
		if (to - v < step) {
			break;
		}
	}
	*n_out = n;
	return HIL_OK;
}

int hil_jsonld_u32_list(struct hil_jsonld *ld, const cJSON *it,
			const char *path, size_t max_n, uint32_t max_v,
			uint32_t *vals, size_t *n_out)
{
	const cJSON *c;
	char p[HIL_JSONLD_PATH];
	size_t n = 0, i, j;
	int ret;

	if (cJSON_IsObject(it)) {
		return hil_jsonld_u32_range(ld, it, path, max_n, max_v, vals,
					    n_out);
	}
	ret = hil_jsonld_array(ld, it, path, 1, max_n, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		ret = hil_jsonld_u32(ld, c, p, 0, max_v, &vals[i]);
		if (ret != HIL_OK) {
			return ret;
		}
		for (j = 0; j < i; j++) {
			if (vals[j] == vals[i]) {
				return hil_jsonld_fail(
					ld, c,
					"%s: %lu is repeated (also at [%zu])",
					p, (unsigned long)vals[i], j);
			}
		}
		i++;
	}
	*n_out = n;
	return HIL_OK;
}

/* ---- the schema -------------------------------------------------------- */

/* A JSON true or false. */
int hil_jsonld_flag(struct hil_jsonld *ld, const cJSON *it, const char *path,
		    int *out)
{
	if (!cJSON_IsBool(it)) {
		return hil_jsonld_fail(ld, it, "%s: expected true or false",
				       path);
	}
	*out = cJSON_IsTrue(it);
	return HIL_OK;
}

/* Where a message about obj points: key, else other, else obj. */
const cJSON *hil_jsonld_where(const cJSON *obj, const char *key,
			      const char *other)
{
	const cJSON *at = hil_jsonld_member(obj, key);

	if (at == NULL && other != NULL) {
		at = hil_jsonld_member(obj, other);
	}
	return at != NULL ? at : obj;
}
