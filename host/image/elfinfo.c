/* elfinfo: build-id, SHA-256, compiler strings and Berkeley sizes of an ELF, via libelf and libmd. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"elfinfo"

#include "elfinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <sha2.h>

#include "util/elfwhole.h"
#include "util/err.h"
#include "util/log.h"

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3
#endif

/* A file read into memory and parsed from there. */
struct image {
	const char *path;
	char *buf;
	size_t len;
	Elf *elf;
	size_t shstrndx;
};

static int read_file(struct image *im)
{
	struct stat st;
	size_t done = 0;
	int fd, ret = HIL_ERR_IO;

	fd = open(im->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		hil_err("%s: cannot open: %s", im->path, strerror(errno));
		return HIL_ERR_IO;
	}
	if (fstat(fd, &st) != 0) {
		hil_err("%s: cannot stat: %s", im->path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		hil_err("%s: not a regular file", im->path);
		ret = HIL_ERR_ARG;
		goto out;
	}
	im->len = (size_t)st.st_size;
	im->buf = malloc(im->len > 0 ? im->len : 1);
	if (im->buf == NULL) {
		hil_err("%s: no memory for %zu bytes", im->path, im->len);
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	while (done < im->len) {
		ssize_t n = read(fd, im->buf + done, im->len - done);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			hil_err("%s: cannot read: %s", im->path,
				strerror(errno));
			goto out;
		}
		if (n == 0) {
			hil_err("%s: file shrank while being read", im->path);
			goto out;
		}
		done += (size_t)n;
	}
	ret = HIL_OK;
out:
	close(fd);
	return ret;
}

static void image_close(struct image *im)
{
	if (im->elf != NULL) {
		elf_end(im->elf);
	}
	free(im->buf);
	im->elf = NULL;
	im->buf = NULL;
}

/* Parse the buffer; the caller calls image_close() whatever this returns. */
static int image_parse(struct image *im)
{
	GElf_Ehdr eh;
	char why[256];

	/* Empty, or cut short by a link that was killed: said as such, and
	 * never read further (libelf would call it "invalid" at best). */
	if (hil_elf_whole((const unsigned char *)im->buf, im->len, why,
			  sizeof(why)) != HIL_OK) {
		hil_err("%s: %s", im->path, why);
		return HIL_ERR_ARG;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		hil_err("%s: libelf is unusable: %s", im->path, elf_errmsg(-1));
		return HIL_ERR_NA;
	}
	im->elf = elf_memory(im->buf, im->len);
	if (im->elf == NULL) {
		hil_err("%s: cannot parse: %s", im->path, elf_errmsg(-1));
		return HIL_ERR_ARG;
	}
	if (elf_kind(im->elf) != ELF_K_ELF) {
		hil_err("%s: not an ELF file", im->path);
		return HIL_ERR_ARG;
	}
	if (gelf_getehdr(im->elf, &eh) == NULL ||
	    elf_getshdrstrndx(im->elf, &im->shstrndx) != 0) {
		hil_err("%s: malformed ELF: %s", im->path, elf_errmsg(-1));
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

static int image_open(struct image *im, const char *path)
{
	int ret;

	memset(im, 0, sizeof(*im));
	im->path = path;
	if (path == NULL) {
		hil_err("no ELF path given");
		return HIL_ERR_ARG;
	}
	ret = read_file(im);
	if (ret == HIL_OK) {
		ret = image_parse(im);
	}
	if (ret != HIL_OK) {
		image_close(im);
	}
	return ret;
}

static const char *section_name(const struct image *im, const GElf_Shdr *sh)
{
	const char *n = elf_strptr(im->elf, im->shstrndx, sh->sh_name);

	return n != NULL ? n : "";
}

static void to_hex(const uint8_t *b, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[b[i] >> 4];
		out[2 * i + 1] = digits[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Look for NT_GNU_BUILD_ID in one block of notes; 1 if found. */
static int find_build_id(Elf_Data *d, struct hil_elf_info *out)
{
	size_t off = 0, next, name_off, desc_off;
	GElf_Nhdr nh;

	while (off < d->d_size) {
		next = gelf_getnote(d, off, &nh, &name_off, &desc_off);
		if (next == 0) {
			break;
		}
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    memcmp((const char *)d->d_buf + name_off, "GNU", 4) == 0 &&
		    nh.n_descsz > 0 && nh.n_descsz <= HIL_ELF_BUILD_ID_MAX) {
			memcpy(out->build_id, (const char *)d->d_buf + desc_off,
			       nh.n_descsz);
			out->build_id_len = nh.n_descsz;
			to_hex(out->build_id, out->build_id_len,
			       out->build_id_hex);
			return 1;
		}
		off = next;
	}
	return 0;
}

static void read_build_id(const struct image *im, struct hil_elf_info *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	GElf_Phdr ph;
	size_t i, nph = 0;

	for (scn = elf_nextscn(im->elf, NULL); scn != NULL;
	     scn = elf_nextscn(im->elf, scn)) {
		Elf_Data *d;

		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_NOTE) {
			continue;
		}
		d = elf_getdata(scn, NULL);
		if (d != NULL && find_build_id(d, out)) {
			return;
		}
	}
	/* No section headers (stripped hard): try the PT_NOTE segments. */
	if (elf_getphdrnum(im->elf, &nph) != 0) {
		return;
	}
	for (i = 0; i < nph; i++) {
		Elf_Data *d;

		if (gelf_getphdr(im->elf, (int)i, &ph) == NULL ||
		    ph.p_type != PT_NOTE) {
			continue;
		}
		d = elf_getdata_rawchunk(im->elf, (int64_t)ph.p_offset,
					 ph.p_filesz, ELF_T_NHDR);
		if (d != NULL && find_build_id(d, out)) {
			return;
		}
	}
}

/* Has the NUL-terminated string s appeared in d before offset end? */
static int seen_before(const char *d, size_t end, const char *s)
{
	size_t off = 0;

	while (off < end) {
		size_t n = strnlen(d + off, end - off);

		if (n > 0 && off + n < end && strcmp(d + off, s) == 0) {
			return 1;
		}
		off += n + 1;
	}
	return 0;
}

static void read_comment(const struct image *im, struct hil_elf_info *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t used = 0;

	out->compiler[0] = '\0';
	for (scn = elf_nextscn(im->elf, NULL); scn != NULL;
	     scn = elf_nextscn(im->elf, scn)) {
		Elf_Data *d;
		const char *p;
		size_t off = 0;

		if (gelf_getshdr(scn, &sh) == NULL ||
		    strcmp(section_name(im, &sh), ".comment") != 0) {
			continue;
		}
		d = elf_getdata(scn, NULL);
		if (d == NULL || d->d_buf == NULL) {
			return;
		}
		p = d->d_buf;
		while (off < d->d_size) {
			size_t n = strnlen(p + off, d->d_size - off);

			/* Only complete, non-empty, first occurrences. */
			if (n > 0 && off + n < d->d_size &&
			    !seen_before(p, off, p + off)) {
				const char *sep = used > 0 ? "; " : "";
				size_t need = strlen(sep) + n;

				if (used + need >= sizeof(out->compiler)) {
					return; /* full: keep what fits */
				}
				memcpy(out->compiler + used, sep, strlen(sep));
				memcpy(out->compiler + used + strlen(sep),
				       p + off, n);
				used += need;
				out->compiler[used] = '\0';
			}
			off += n + 1;
		}
		return;
	}
}

/* Add a section of an alloc'd kind to Berkeley sizes, as size(1) does. */
static void add_berkeley(struct hil_elf_sizes *s, const GElf_Shdr *sh,
			 uint64_t size)
{
	if ((sh->sh_flags & SHF_EXECINSTR) != 0 ||
	    (sh->sh_flags & SHF_WRITE) == 0) {
		s->text += size;
	} else if (sh->sh_type != SHT_NOBITS) {
		s->data += size;
	} else {
		s->bss += size;
	}
}

static void read_sizes(const struct image *im, struct hil_elf_info *out)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	for (scn = elf_nextscn(im->elf, NULL); scn != NULL;
	     scn = elf_nextscn(im->elf, scn)) {
		if (gelf_getshdr(scn, &sh) == NULL ||
		    (sh.sh_flags & SHF_ALLOC) == 0) {
			continue;
		}
		if (strcmp(section_name(im, &sh), ".stack") == 0) {
			out->stack += sh.sh_size;
			continue;
		}
		add_berkeley(&out->sizes, &sh, sh.sh_size);
	}
	out->flash = out->sizes.text + out->sizes.data;
	out->ram = out->sizes.data + out->sizes.bss;
}

int hil_elf_info(const char *path, struct hil_elf_info *out)
{
	struct image im;
	SHA2_CTX sha;
	uint8_t digest[SHA256_DIGEST_LENGTH];
	GElf_Ehdr eh;
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	ret = image_open(&im, path);
	if (ret != HIL_OK) {
		return ret;
	}
	SHA256Init(&sha);
	SHA256Update(&sha, (const uint8_t *)im.buf, im.len);
	SHA256Final(digest, &sha);
	to_hex(digest, sizeof(digest), out->sha256_hex);
	out->file_size = im.len;
	if (gelf_getehdr(im.elf, &eh) != NULL) {
		out->machine = eh.e_machine;
	}
	read_build_id(&im, out);
	read_comment(&im, out);
	read_sizes(&im, out);
	image_close(&im);

	if (out->build_id_len == 0) {
		hil_err("%s: no GNU build-id (link with -Wl,--build-id)", path);
		return HIL_ERR_NA;
	}
	return HIL_OK;
}

/* The symbol table, preferring .symtab over .dynsym; NULL if none. */
static Elf_Scn *symbol_table(const struct image *im, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL, *dyn = NULL;
	GElf_Shdr dsh;

	memset(&dsh, 0, sizeof(dsh));
	for (scn = elf_nextscn(im->elf, NULL); scn != NULL;
	     scn = elf_nextscn(im->elf, scn)) {
		if (gelf_getshdr(scn, sh) == NULL) {
			continue;
		}
		if (sh->sh_type == SHT_SYMTAB) {
			return scn;
		}
		if (sh->sh_type == SHT_DYNSYM && dyn == NULL) {
			dyn = scn;
			dsh = *sh;
		}
	}
	if (dyn != NULL) {
		*sh = dsh;
	}
	return dyn;
}

struct sym {
	size_t shndx;
	uint64_t value;
	uint64_t size;
};

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->shndx != y->shndx) {
		return x->shndx < y->shndx ? -1 : 1;
	}
	if (x->value != y->value) {
		return x->value < y->value ? -1 : 1;
	}
	return 0;
}

int hil_elf_symbol_size_by_prefix(const char *path, const char *prefix,
				  struct hil_elf_sizes *out, size_t *count)
{
	struct image im;
	struct sym *syms = NULL;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n, nsyms = 0, counted = 0, plen;
	int ret;

	if (out == NULL || prefix == NULL) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	if (count != NULL) {
		*count = 0;
	}
	ret = image_open(&im, path);
	if (ret != HIL_OK) {
		return ret;
	}
	scn = symbol_table(&im, &sh);
	d = scn != NULL && sh.sh_entsize != 0 ? elf_getdata(scn, NULL) : NULL;
	if (d == NULL) {
		hil_err("%s: no symbol table (stripped?)", path);
		ret = HIL_ERR_NA;
		goto out;
	}
	n = sh.sh_size / sh.sh_entsize;
	syms = calloc(n > 0 ? n : 1, sizeof(*syms));
	if (syms == NULL) {
		hil_err("%s: no memory for %zu symbols", path, n);
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	plen = strlen(prefix);
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type;

		if (gelf_getsym(d, (int)i, &s) == NULL) {
			continue;
		}
		type = GELF_ST_TYPE(s.st_info);
		if ((type != STT_FUNC && type != STT_OBJECT) ||
		    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE) {
			continue;
		}
		name = elf_strptr(im.elf, sh.sh_link, s.st_name);
		if (name == NULL || strncmp(name, prefix, plen) != 0) {
			continue;
		}
		syms[nsyms].shndx = s.st_shndx;
		syms[nsyms].value = s.st_value;
		syms[nsyms].size = s.st_size;
		nsyms++;
	}
	qsort(syms, nsyms, sizeof(*syms), cmp_sym);
	for (i = 0; i < nsyms; i++) {
		GElf_Shdr ssh;
		Elf_Scn *sec;

		if (i > 0 && cmp_sym(&syms[i - 1], &syms[i]) == 0) {
			continue; /* an alias of the previous one */
		}
		sec = elf_getscn(im.elf, syms[i].shndx);
		if (sec == NULL || gelf_getshdr(sec, &ssh) == NULL ||
		    (ssh.sh_flags & SHF_ALLOC) == 0) {
			continue;
		}
		add_berkeley(out, &ssh, syms[i].size);
		counted++;
	}
	if (count != NULL) {
		*count = counted;
	}
	ret = HIL_OK;
out:
	free(syms);
	image_close(&im);
	return ret;
}

int hil_elf_has_symbol(const char *path, const char *name)
{
	struct image im;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n;
	int ret, found = 0;

	if (name == NULL) {
		return HIL_ERR_ARG;
	}
	ret = image_open(&im, path);
	if (ret != HIL_OK) {
		return ret;
	}
	scn = symbol_table(&im, &sh);
	d = scn != NULL && sh.sh_entsize != 0 ? elf_getdata(scn, NULL) : NULL;
	if (d == NULL) {
		hil_err("%s: no symbol table (stripped?)", path);
		image_close(&im);
		return HIL_ERR_NA;
	}
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && !found; i++) {
		GElf_Sym s;
		const char *sn;

		if (gelf_getsym(d, (int)i, &s) == NULL ||
		    s.st_shndx == SHN_UNDEF) {
			continue;
		}
		sn = elf_strptr(im.elf, sh.sh_link, s.st_name);
		found = sn != NULL && strcmp(sn, name) == 0;
	}
	image_close(&im);
	return found;
}

/* name, or a compiler's clone of it: "name.lto_priv.0", "name.constprop.0". */
static int clone_of(const char *sn, const char *name, int *exact)
{
	size_t n = strlen(name);

	if (strncmp(sn, name, n) != 0) {
		return 0;
	}
	*exact = sn[n] == '\0';
	return *exact || sn[n] == '.';
}

int hil_elf_function_range(const char *path, const char *name, uint64_t *addr,
			   uint64_t *size)
{
	struct image im;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	GElf_Sym best;
	size_t i, n, clones = 0;
	int ret, have_exact = 0;

	if (name == NULL || name[0] == '\0' || addr == NULL || size == NULL) {
		return HIL_ERR_ARG;
	}
	ret = image_open(&im, path);
	if (ret != HIL_OK) {
		return ret;
	}
	scn = symbol_table(&im, &sh);
	d = scn != NULL && sh.sh_entsize != 0 ? elf_getdata(scn, NULL) : NULL;
	if (d == NULL) {
		hil_err("%s: no symbol table (stripped?)", path);
		image_close(&im);
		return HIL_ERR_NA;
	}
	memset(&best, 0, sizeof(best));
	n = sh.sh_size / sh.sh_entsize;
	for (i = 0; i < n && !have_exact; i++) {
		GElf_Sym s;
		const char *sn;
		int exact = 0;

		if (gelf_getsym(d, (int)i, &s) == NULL ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || s.st_size == 0) {
			continue;
		}
		sn = elf_strptr(im.elf, sh.sh_link, s.st_name);
		if (sn == NULL || !clone_of(sn, name, &exact)) {
			continue;
		}
		if (exact) {
			have_exact = 1;
			best = s;
		} else if (clones == 0) {
			best = s;
			clones = 1;
		} else if (s.st_value != best.st_value) {
			clones++; /* an alias of the same code is no ambiguity */
		}
	}
	image_close(&im);
	if (!have_exact && clones == 0) {
		hil_err("%s: no function %s", path, name);
		return HIL_ERR_NA;
	}
	if (!have_exact && clones > 1) {
		hil_err("%s: %zu functions named %s.*; which one is meant?",
			path, clones, name);
		return HIL_ERR_ARG;
	}
	*addr = best.st_value & ~(uint64_t)1; /* the Thumb bit */
	*size = best.st_size;
	return HIL_OK;
}

int hil_elf_function_at(const char *path, uint64_t addr, char *name, size_t len,
			uint64_t *off)
{
	struct image im;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Shdr sh;
	size_t i, n;
	int ret = HIL_ERR_NA;

	if (name == NULL || len == 0 || off == NULL) {
		return HIL_ERR_ARG;
	}
	name[0] = '\0';
	addr &= ~(uint64_t)1;
	ret = image_open(&im, path);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = HIL_ERR_NA;
	scn = symbol_table(&im, &sh);
	d = scn != NULL && sh.sh_entsize != 0 ? elf_getdata(scn, NULL) : NULL;
	n = d != NULL ? sh.sh_size / sh.sh_entsize : 0;
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *sn;
		uint64_t lo;

		if (gelf_getsym(d, (int)i, &s) == NULL ||
		    GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || s.st_size == 0) {
			continue;
		}
		lo = s.st_value & ~(uint64_t)1;
		if (addr < lo || addr >= lo + s.st_size) {
			continue;
		}
		sn = elf_strptr(im.elf, sh.sh_link, s.st_name);
		if (sn != NULL) {
			snprintf(name, len, "%s", sn);
			*off = addr - lo;
			ret = HIL_OK;
			break;
		}
	}
	image_close(&im);
	return ret;
}
