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

#include "util/err.h"
#include "util/log.h"

struct hil_flasher {
	const struct hil_flasher_ops *ops;
	void *priv;
	struct hil_flasher_params params; /* strings below are owned */
	char *program;
	char *run_dir;
	char *files[HIL_FLASHER_MAX_FILES];
	char *probe_serial;
	char *target;
	char *qemu_plugin;
	char *link;
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
	for (i = 0; i < HIL_FLASHER_MAX_FILES; i++) {
		free(f->files[i]);
	}
	free(f->probe_serial);
	free(f->target);
	free(f->qemu_plugin);
	free(f->link);
}

/* The real-board fields (OpenOCD, pyOCD), copied so that the caller's strings may go. */
static int copy_openocd_params(struct hil_flasher *f,
			       const struct hil_flasher_params *p)
{
	size_t i;

	if (p->n_files > HIL_FLASHER_MAX_FILES) {
		hil_err("flasher: %zu OpenOCD config files, at most %d",
			p->n_files, HIL_FLASHER_MAX_FILES);
		return HIL_ERR_ARG;
	}
	for (i = 0; i < p->n_files; i++) {
		if (p->files[i] == NULL) {
			hil_err("flasher: OpenOCD config file %zu is missing",
				i);
			return HIL_ERR_ARG;
		}
		f->files[i] = strdup(p->files[i]);
		if (f->files[i] == NULL) {
			hil_err("flasher: no memory");
			return HIL_ERR_NOMEM;
		}
		f->params.files[i] = f->files[i];
	}
	f->params.n_files = p->n_files;
	if (p->probe_serial != NULL && p->probe_serial[0] != '\0') {
		f->probe_serial = strdup(p->probe_serial);
		if (f->probe_serial == NULL) {
			hil_err("flasher: no memory");
			return HIL_ERR_NOMEM;
		}
		f->params.probe_serial = f->probe_serial;
	}
	f->params.adapter_khz = p->adapter_khz;
	if (p->target != NULL && p->target[0] != '\0') {
		f->target = strdup(p->target); /* pyOCD's target type */
		if (f->target == NULL) {
			hil_err("flasher: no memory");
			return HIL_ERR_NOMEM;
		}
		f->params.target = f->target;
	}
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
	ret = copy_openocd_params(f, p);
	if (ret != HIL_OK) {
		goto err_free;
	}
	if (p->qemu_plugin != NULL && p->qemu_plugin[0] != '\0') {
		f->qemu_plugin = strdup(p->qemu_plugin);
		if (f->qemu_plugin == NULL) {
			hil_err("%s flasher: no memory", type);
			ret = HIL_ERR_NOMEM;
			goto err_free;
		}
		f->params.qemu_plugin = f->qemu_plugin;
	}
	if (p->link != NULL && p->link[0] != '\0') {
		f->link = strdup(p->link);
		if (f->link == NULL) {
			hil_err("%s flasher: no memory", type);
			ret = HIL_ERR_NOMEM;
			goto err_free;
		}
		f->params.link = f->link;
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

int hil_flasher_check_elf(const char *path, const char *raw_means)
{
	unsigned char h[EI_NIDENT + 4];
	unsigned machine;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		hil_err("image %s: cannot open: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	do {
		n = read(fd, h, sizeof(h));
	} while (n < 0 && errno == EINTR);
	if (n < 0) {
		hil_err("image %s: cannot read: %s", path, strerror(errno));
		close(fd);
		return HIL_ERR_IO;
	}
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, ELFMAG, SELFMAG) != 0) {
		hil_err("image %s: not an ELF file (%s)", path, raw_means);
		return HIL_ERR_ARG;
	}
	/* e_machine follows e_ident and e_type, in the file's byte order. */
	machine = h[EI_DATA] == ELFDATA2MSB
			  ? (unsigned)h[EI_NIDENT + 2] << 8 | h[EI_NIDENT + 3]
			  : (unsigned)h[EI_NIDENT + 3] << 8 | h[EI_NIDENT + 2];
	if (h[EI_CLASS] != ELFCLASS32 || machine != EM_ARM) {
		hil_err("image %s: not a 32-bit ARM ELF (class %u, machine %u)",
			path, (unsigned)h[EI_CLASS], machine);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

void hil_flasher_params_from_config(const struct hil_config *cfg,
				    const char *run_dir,
				    struct hil_flasher_params *p)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->program = cfg->flasher.program;
	p->run_dir = run_dir;
	p->timeout_ms = cfg->flasher.timeout_ms;
	for (i = 0; i < cfg->flasher.n_files && i < HIL_FLASHER_MAX_FILES;
	     i++) {
		p->files[i] = cfg->flasher.files[i];
	}
	p->n_files = i;
	p->probe_serial = cfg->flasher.probe_serial;
	p->target = cfg->flasher.target;
}
