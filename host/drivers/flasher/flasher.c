/* flasher: backend selection by name and the generic calls of the flasher interface. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"flasher"

#include "flasher.h"

#include "config/config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/elfwhole.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/util.h"

struct hil_flasher {
	const struct hil_flasher_ops *ops;
	void *priv;
	struct hil_flasher_params params; /* strings below are owned */
	char *program;
	char *run_dir;
	char *probe_serial;
	char *link;
	char *opt_key[HIL_FLASHER_MAX_OPTS];
	char *opt_value[HIL_FLASHER_MAX_OPTS];
};

void *hil_flasher_priv(const struct hil_flasher *f)
{
	return f->priv;
}

void hil_flasher_set_priv(struct hil_flasher *f, void *priv)
{
	f->priv = priv;
}

const struct hil_flasher_params *hil_flasher_params(const struct hil_flasher *f)
{
	return &f->params;
}

int hil_flasher_set_program(struct hil_flasher *f, const char *program)
{
	char *copy = strdup(program);

	if (copy == NULL) {
		hil_err("%s: no memory", program);
		return HIL_ERR_NOMEM;
	}
	free(f->program);
	f->program = copy;
	f->params.program = copy;
	return HIL_OK;
}

const char *hil_flasher_type(const struct hil_flasher *f)
{
	return f != NULL ? f->ops->name : "(no flasher)";
}

static int check_run_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st) != 0) {
		hil_err("run directory %s: %s", dir, strerror(errno));
		return HIL_ERR_IO;
	}
	if (!S_ISDIR(st.st_mode)) {
		hil_err("run directory %s: not a directory", dir);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

static void free_params(struct hil_flasher *f)
{
	size_t i;

	free(f->program);
	free(f->run_dir);
	free(f->probe_serial);
	free(f->link);
	for (i = 0; i < HIL_FLASHER_MAX_OPTS; i++) {
		free(f->opt_key[i]);
		free(f->opt_value[i]);
	}
}

/* Whether the driver lists key among its options. */
static int takes_opt(const struct hil_flasher_ops *ops, const char *key)
{
	size_t i;

	for (i = 0; ops->opts != NULL && ops->opts[i] != NULL; i++) {
		if (strcmp(ops->opts[i], key) == 0) {
			return 1;
		}
	}
	return 0;
}

/* The driver's options, for a message: "machine, plugin" or "none". */
static void opt_names(const struct hil_flasher_ops *ops, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s",
		 ops->opts == NULL || ops->opts[0] == NULL ? "none" : "");
	for (i = 0; ops->opts != NULL && ops->opts[i] != NULL; i++) {
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s",
			 i > 0 ? ", " : "", ops->opts[i]);
	}
}

/* The driver's options, checked against its list and copied. */
static int copy_opts(struct hil_flasher *f, const struct hil_flasher_params *p)
{
	char names[128];
	size_t i;

	if (p->n_opts > HIL_FLASHER_MAX_OPTS) {
		hil_err("%s flasher: %zu options, at most %d", f->ops->name,
			p->n_opts, HIL_FLASHER_MAX_OPTS);
		return HIL_ERR_ARG;
	}
	for (i = 0; i < p->n_opts; i++) {
		const struct hil_flasher_opt *o = &p->opts[i];

		if (o->key == NULL || o->value == NULL) {
			hil_err("%s flasher: option %zu has no key or no value",
				f->ops->name, i);
			return HIL_ERR_ARG;
		}
		if (!takes_opt(f->ops, o->key)) {
			opt_names(f->ops, names, sizeof(names));
			hil_err("%s flasher: no option \"%s\" (its options: %s)",
				f->ops->name, o->key, names);
			return HIL_ERR_ARG;
		}
		f->opt_key[i] = strdup(o->key);
		f->opt_value[i] = strdup(o->value);
		if (f->opt_key[i] == NULL || f->opt_value[i] == NULL) {
			hil_err("%s flasher: no memory", f->ops->name);
			return HIL_ERR_NOMEM;
		}
		f->params.opts[i].key = f->opt_key[i];
		f->params.opts[i].value = f->opt_value[i];
	}
	f->params.n_opts = p->n_opts;
	return HIL_OK;
}

/* A string copied into *own and pointed to by *param, unless NULL or "". */
static int copy_str(struct hil_flasher *f, const char *s, char **own,
		    const char **param)
{
	if (s == NULL || s[0] == '\0') {
		return HIL_OK;
	}
	*own = strdup(s);
	if (*own == NULL) {
		hil_err("%s flasher: no memory", f->ops->name);
		return HIL_ERR_NOMEM;
	}
	*param = *own;
	return HIL_OK;
}

int hil_flasher_params_add(struct hil_flasher_params *p, const char *key,
			   const char *value)
{
	if (p == NULL || key == NULL || value == NULL) {
		return HIL_ERR_ARG;
	}
	if (p->n_opts >= HIL_FLASHER_MAX_OPTS) {
		hil_err("flasher: no room for option %s: at most %d", key,
			HIL_FLASHER_MAX_OPTS);
		return HIL_ERR_ARG;
	}
	p->opts[p->n_opts].key = key;
	p->opts[p->n_opts].value = value;
	p->n_opts++;
	return HIL_OK;
}

const char *hil_flasher_opt_at(const struct hil_flasher *f, const char *key,
			       size_t i)
{
	size_t j;

	for (j = 0; f != NULL && key != NULL && j < f->params.n_opts; j++) {
		if (strcmp(f->params.opts[j].key, key) == 0 && i-- == 0) {
			return f->params.opts[j].value;
		}
	}
	return NULL;
}

const char *hil_flasher_opt(const struct hil_flasher *f, const char *key)
{
	return hil_flasher_opt_at(f, key, 0);
}

int hil_flasher_opt_uint(const struct hil_flasher *f, const char *key,
			 unsigned max, unsigned *out)
{
	const char *v = hil_flasher_opt(f, key);
	unsigned long n;
	char *end;

	*out = 0;
	if (v == NULL) {
		return HIL_OK;
	}
	errno = 0;
	n = strtoul(v, &end, 10);
	if (v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 || n > max) {
		hil_err("%s flasher: option %s \"%s\": expected an integer from 0 to %u",
			f->ops->name, key, v, max);
		return HIL_ERR_ARG;
	}
	*out = (unsigned)n;
	return HIL_OK;
}

int hil_flasher_open(struct hil_flasher **out, const char *type,
		     const struct hil_flasher_params *p)
{
	const struct hil_flasher_ops *ops = NULL;
	struct hil_flasher *f;
	size_t i;
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (type == NULL || p == NULL || p->run_dir == NULL ||
	    p->run_dir[0] == '\0') {
		hil_err("flasher: no type or no run directory given");
		return HIL_ERR_ARG;
	}
	ops = hil_flasher_find(type);
	if (ops == NULL) {
		char names[128];
		const struct hil_flasher_ops *const *all = hil_flasher_all();

		names[0] = '\0';
		for (i = 0; all[i] != NULL; i++) {
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 i > 0 ? ", " : "", all[i]->name);
		}
		hil_err("unknown flasher type '%s' (%s)", type, names);
		return HIL_ERR_ARG;
	}
	ret = check_run_dir(p->run_dir);
	if (ret != HIL_OK) {
		return ret;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL) {
		hil_err("%s flasher: no memory", type);
		return HIL_ERR_NOMEM;
	}
	f->ops = ops;
	f->params.timeout_ms = p->timeout_ms;
	f->params.jail = p->jail;
	f->run_dir = strdup(p->run_dir);
	if (f->run_dir == NULL) {
		hil_err("%s flasher: no memory", type);
		ret = HIL_ERR_NOMEM;
		goto err_free;
	}
	f->params.run_dir = f->run_dir;
	if (p->program != NULL && p->program[0] != '\0') {
		ret = hil_flasher_set_program(f, p->program);
		if (ret != HIL_OK) {
			goto err_free;
		}
	}
	ret = copy_str(f, p->probe_serial, &f->probe_serial,
		       &f->params.probe_serial);
	if (ret == HIL_OK) {
		ret = copy_str(f, p->link, &f->link, &f->params.link);
	}
	if (ret == HIL_OK) {
		ret = copy_opts(f, p);
	}
	if (ret != HIL_OK) {
		goto err_free;
	}
	ret = ops->open(f);
	if (ret != HIL_OK) {
		hil_flasher_close(f);
		return ret;
	}
	*out = f;
	return HIL_OK;

err_free:
	free_params(f);
	free(f);
	return ret;
}

void hil_flasher_close(struct hil_flasher *f)
{
	if (f == NULL) {
		return;
	}
	if (f->ops->close != NULL) {
		f->ops->close(f);
	}
	free_params(f);
	free(f);
}

int hil_flasher_start(struct hil_flasher *f, const char *elf_path)
{
	if (f == NULL || elf_path == NULL || elf_path[0] == '\0') {
		hil_err("flasher: no image given");
		return HIL_ERR_ARG;
	}
	return f->ops->start(f, elf_path);
}

void hil_flasher_stop(struct hil_flasher *f)
{
	if (f != NULL) {
		f->ops->stop(f);
	}
}

const char *hil_flasher_link_where(struct hil_flasher *f)
{
	if (f == NULL || f->ops->link_where == NULL) {
		return NULL;
	}
	return f->ops->link_where(f);
}

int hil_flasher_link_fd(struct hil_flasher *f)
{
	if (f == NULL) {
		return HIL_ERR_ARG;
	}
	if (f->ops->link_fd == NULL) {
		return HIL_ERR_NA;
	}
	return f->ops->link_fd(f);
}

int hil_flasher_check(struct hil_flasher *f)
{
	if (f == NULL) {
		return HIL_ERR_ARG;
	}
	if (f->ops->check == NULL) {
		return HIL_OK; /* nothing to watch: a real board keeps running */
	}
	return f->ops->check(f);
}

int hil_flasher_version(struct hil_flasher *f, char *buf, size_t len)
{
	if (f == NULL || buf == NULL || len == 0) {
		return HIL_ERR_ARG;
	}
	buf[0] = '\0';
	if (f->ops->version == NULL) {
		return HIL_ERR_NA;
	}
	return f->ops->version(f, buf, len);
}

int hil_flasher_reset(struct hil_flasher *f)
{
	if (f == NULL) {
		return HIL_ERR_ARG;
	}
	if (f->ops->reset == NULL) {
		return HIL_ERR_NA;
	}
	return f->ops->reset(f);
}

int hil_flasher_probe(struct hil_flasher *f, char *why, size_t len)
{
	if (f == NULL || why == NULL || len == 0) {
		return HIL_ERR_ARG;
	}
	why[0] = '\0';
	if (f->ops->probe == NULL) {
		snprintf(why, len, "the %s flasher has no probe to check",
			 f->ops->name);
		return HIL_ERR_NA;
	}
	return f->ops->probe(f, why, len);
}

int hil_flasher_tool_version(struct hil_flasher *f, char *out, size_t len,
			     unsigned timeout_ms, int *status)
{
	char *const argv[] = {(char *)f->params.program, "--version", NULL};
	struct hil_jail *jail = NULL;
	int ret;

	*status = -1;
	if (f->params.jail) {
		ret = hil_jail_new(&jail);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	ret = hil_proc_capture_jailed(argv, out, len, timeout_ms, status, jail,
				      NULL);
	hil_jail_free(jail);
	return ret;
}

int hil_flasher_check_elf(const char *path, const char *raw_means)
{
	unsigned char *h = NULL;
	char why[256];
	unsigned machine;
	size_t n = 0;
	int fd, ret;

	/* Never blocked by a FIFO, nor a device read. */
	fd = hil_open_regular(path, HIL_READ_MAX, why, sizeof(why));
	if (fd < 0) {
		hil_err("image %s: cannot open: %s", path, why);
		return HIL_ERR_IO;
	}
	ret = hil_read_fd(fd, HIL_READ_MAX, (char **)&h, &n);
	close(fd);
	if (ret != HIL_OK) {
		hil_err("image %s: cannot read: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	ret = hil_elf_whole(h, n, why, sizeof(why));
	if (ret != HIL_OK || n < EI_NIDENT + 4) {
		/* Not an ELF at all: what the tool would make of it. */
		if (n >= SELFMAG && memcmp(h, ELFMAG, SELFMAG) != 0) {
			hil_err("image %s: not an ELF file (%s)", path,
				raw_means);
		} else {
			hil_err("image %s: %s", path, why);
		}
		free(h);
		return HIL_ERR_ARG;
	}
	/* e_machine follows e_ident and e_type, in the file's byte order. */
	machine = h[EI_DATA] == ELFDATA2MSB
			  ? (unsigned)h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3]
			  : (unsigned)h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
	if (h[EI_CLASS] != ELFCLASS32 || machine != EM_ARM) {
		hil_err("image %s: not a 32-bit ARM ELF (class %u, machine %u)",
			path, (unsigned)h[EI_CLASS], machine);
		free(h);
		return HIL_ERR_ARG;
	}
	free(h);
	return HIL_OK;
}

int hil_flasher_params_from_config(const struct hil_config *cfg,
				   const char *run_dir,
				   struct hil_flasher_params *p)
{
	const struct hil_flasher_ops *ops = hil_flasher_find(cfg->flasher.type);

	memset(p, 0, sizeof(*p));
	p->program = cfg->flasher.program;
	p->run_dir = run_dir;
	p->timeout_ms = cfg->flasher.timeout_ms;
	p->probe_serial = cfg->flasher.probe_serial;
	if (ops == NULL || ops->options == NULL) {
		return HIL_OK;
	}
	return ops->options(cfg, p);
}

int hil_flasher_jail_finish(struct hil_jail *j, int ret, struct hil_jail **out)
{
	if (ret == HIL_OK && access("/dev/bus/usb", F_OK) == 0) {
		ret = hil_jail_bind(j, "/dev/bus/usb", HIL_JAIL_DEV);
	}
	if (ret != HIL_OK) {
		hil_jail_free(j);
		return ret;
	}
	hil_jail_with_sys(j);
	*out = j;
	return HIL_OK;
}
