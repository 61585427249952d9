/* pyocd_image: the ELF's load segments written as the Intel HEX pyocd-flashtool programs, and the flash read back with pyocd-tool and compared with them. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"pyocd"

#include "pyocd.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define MERGE_GAP 4096u /* read across gaps up to this: one run */

void hil_pyocd_image_free(struct image *img)
{
	size_t i;

	for (i = 0; i < img->n; i++) {
		free(img->seg[i].data);
	}
	img->n = 0;
}

/* Sorted by address; overlaps refused. */
static int image_sort(struct image *img, const char *path)
{
	size_t i, j;

	for (i = 1; i < img->n; i++) {
		struct segment s = img->seg[i];

		for (j = i; j > 0 && img->seg[j - 1].addr > s.addr; j--) {
			img->seg[j] = img->seg[j - 1];
		}
		img->seg[j] = s;
	}
	for (i = 1; i < img->n; i++) {
		const struct segment *a = &img->seg[i - 1];

		if ((uint64_t)a->addr + a->len > img->seg[i].addr) {
			hil_err("image %s: loadable segments overlap at 0x%08x",
				path, (unsigned)img->seg[i].addr);
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
}

/* The bytes a loader puts in memory: PT_LOAD p_filesz bytes at p_paddr. */
int hil_pyocd_image_load(struct image *img, const char *path)
{
	GElf_Phdr ph;
	Elf *elf = NULL;
	Elf_Data *d;
	size_t nph, i;
	int fd, ret = HIL_ERR_ARG;

	memset(img, 0, sizeof(*img));
	if (elf_version(EV_CURRENT) == EV_NONE) {
		hil_err("image %s: libelf is unusable: %s", path,
			elf_errmsg(-1));
		return HIL_ERR_NA;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		hil_err("image %s: cannot open: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf == NULL || elf_kind(elf) != ELF_K_ELF ||
	    elf_getphdrnum(elf, &nph) != 0) {
		hil_err("image %s: malformed ELF: %s", path, elf_errmsg(-1));
		goto out;
	}
	for (i = 0; i < nph; i++) {
		struct segment *s;

		if (gelf_getphdr(elf, (int)i, &ph) == NULL) {
			hil_err("image %s: program header %zu: %s", path, i,
				elf_errmsg(-1));
			goto out;
		}
		if (ph.p_type != PT_LOAD || ph.p_filesz == 0) {
			continue; /* .bss and the stack: nothing to write */
		}
		if (img->n == MAX_SEGS) {
			hil_err("image %s: more than %d loadable segments",
				path, MAX_SEGS);
			goto out;
		}
		if (ph.p_paddr + ph.p_filesz > 0x100000000ull ||
		    ph.p_filesz > SIZE_MAX) {
			hil_err("image %s: a segment at 0x%llx ends beyond 4 GiB",
				path, (unsigned long long)ph.p_paddr);
			goto out;
		}
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
					 (size_t)ph.p_filesz, ELF_T_BYTE);
		if (d == NULL || d->d_buf == NULL) {
			hil_err("image %s: segment at 0x%08llx: %s", path,
				(unsigned long long)ph.p_paddr, elf_errmsg(-1));
			goto out;
		}
		s = &img->seg[img->n];
		s->data = malloc(d->d_size);
		if (s->data == NULL) {
			hil_err("image %s: no memory", path);
			ret = HIL_ERR_NOMEM;
			goto out;
		}
		memcpy(s->data, d->d_buf, d->d_size);
		s->addr = (uint32_t)ph.p_paddr;
		s->len = d->d_size;
		img->bytes += s->len;
		img->n++;
	}
	if (img->n == 0) {
		hil_err("image %s: nothing to program (no PT_LOAD segment with contents)",
			path);
		goto out;
	}
	ret = image_sort(img, path);
out:
	if (elf != NULL) {
		elf_end(elf);
	}
	close(fd);
	if (ret != HIL_OK) {
		hil_pyocd_image_free(img);
	}
	return ret;
}

/* One Intel HEX record: :LLAAAATT<data>CC. */
static void hex_record(FILE *fp, unsigned type, unsigned addr16,
		       const unsigned char *data, size_t n)
{
	unsigned sum = (unsigned)n + (addr16 >> 8) + (addr16 & 0xffu) + type;
	size_t i;

	fprintf(fp, ":%02X%04X%02X", (unsigned)n, addr16, type);
	for (i = 0; i < n; i++) {
		fprintf(fp, "%02X", data[i]);
		sum += data[i];
	}
	fprintf(fp, "%02X\n", (0x100u - (sum & 0xffu)) & 0xffu);
}

/* The image as Intel HEX: 16 bytes a record, type 04 for the upper half. */
int hil_pyocd_write_hex(const char *path, const struct image *img)
{
	unsigned long upper = 0x10000ul; /* none yet */
	FILE *fp = hil_fopen_write(path);
	size_t i, off;

	if (fp == NULL) {
		hil_err("%s: cannot write: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	for (i = 0; i < img->n; i++) {
		const struct segment *s = &img->seg[i];

		for (off = 0; off < s->len;) {
			uint32_t addr = s->addr + (uint32_t)off;
			size_t n = s->len - off;

			if (n > 16) {
				n = 16;
			}
			/* A record may not cross a 64 KiB boundary. */
			if (n > 0x10000u - (addr & 0xffffu)) {
				n = 0x10000u - (addr & 0xffffu);
			}
			if (addr >> 16 != upper) {
				unsigned char u[2] = {
					(unsigned char)(addr >> 24),
					(unsigned char)(addr >> 16)};

				upper = addr >> 16;
				hex_record(fp, 0x04, 0, u, 2);
			}
			hex_record(fp, 0x00, addr & 0xffffu, s->data + off, n);
			off += n;
		}
	}
	hex_record(fp, 0x01, 0, NULL, 0);
	if (ferror(fp) != 0 || fclose(fp) != 0) {
		hil_err("%s: cannot write: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/* ---- verification ---- */

/* Compare the read-back bytes of [start, start + n) with the segments. */
static int compare(const struct image *img, size_t from, size_t to,
		   uint32_t start, const unsigned char *got, char *why,
		   size_t len)
{
	size_t i, k;

	for (i = from; i <= to; i++) {
		const struct segment *s = &img->seg[i];
		const unsigned char *g = got + (s->addr - start);

		for (k = 0; k < s->len; k++) {
			if (g[k] != s->data[k]) {
				snprintf(
					why, len,
					"verify failed: the flash differs from the image after programming (first difference at 0x%08x: read 0x%02x, image 0x%02x)",
					(unsigned)(s->addr + k), g[k],
					s->data[k]);
				return HIL_ERR_VERIFY;
			}
		}
	}
	return HIL_OK;
}

/* Read the flash back with `pyocd-tool ... savemem` and compare. */
int hil_pyocd_verify(struct hil_flasher *f, const struct image *img,
		     uint64_t deadline, unsigned bound_ms, char *why,
		     size_t len)
{
	struct pyocd *o = hil_flasher_priv(f);
	struct pyo_argv a;
	char rwhy[160];
	size_t i = 0, j, got_len = 0;
	char *got = NULL;
	int fd, ret;

	while (i < img->n) {
		uint32_t start = img->seg[i].addr;
		uint64_t end = (uint64_t)start + img->seg[i].len;

		/* Each run connects anew: one read for segments close by. */
		for (j = i;
		     j + 1 < img->n && img->seg[j + 1].addr - end <= MERGE_GAP;
		     j++) {
			end = (uint64_t)img->seg[j + 1].addr +
			      img->seg[j + 1].len;
		}
		if (unlink(o->readback_path) != 0 && errno != ENOENT) {
			snprintf(why, len, "cannot remove %s: %s",
				 o->readback_path, strerror(errno));
			return HIL_ERR_IO;
		}
		/* Made empty here, so that a jailed pyocd-tool may write this
		 * one file (pyocd_run.c binds it) and nothing beside it. */
		fd = open(o->readback_path,
			  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0644);
		if (fd < 0) {
			snprintf(why, len, "cannot create %s: %s",
				 o->readback_path, strerror(errno));
			return HIL_ERR_IO;
		}
		close(fd);
		snprintf(a.addr, sizeof(a.addr), "0x%08x", (unsigned)start);
		snprintf(a.len, sizeof(a.len), "%llu",
			 (unsigned long long)(end - start));
		hil_pyocd_tool_argv(f, &a, "savemem", a.addr, a.len,
				    o->readback_path);
		ret = hil_pyocd_run_step(f, a.v, deadline, bound_ms, why, len);
		if (ret != HIL_OK) {
			return ret;
		}
		fd = hil_open_regular(o->readback_path, (size_t)(end - start),
				      rwhy, sizeof(rwhy));
		ret = fd < 0 ? fd
			     : hil_read_fd(fd, (size_t)(end - start), &got,
					   &got_len);
		if (fd >= 0) {
			close(fd);
		}
		if (ret == HIL_ERR_NOMEM) {
			snprintf(why, len, "no memory for the read-back");
			return ret;
		}
		if (ret != HIL_OK || got_len != (size_t)(end - start)) {
			snprintf(
				why, len,
				"pyocd-tool savemem did not save the %llu bytes at %s to %s (%s; log: %s)",
				(unsigned long long)(end - start), a.addr,
				o->readback_path,
				ret != HIL_OK
					? (fd < 0 ? rwhy : strerror(errno))
					: "a shorter file",
				o->log_path);
			free(got);
			return HIL_ERR_PROCESS;
		}
		ret = compare(img, i, j, start, (unsigned char *)got, why, len);
		free(got);
		got = NULL;
		if (ret != HIL_OK) {
			return ret;
		}
		i = j + 1;
	}
	return HIL_OK;
}
