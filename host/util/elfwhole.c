/* elfwhole: checks that an ELF file holds all its header says it holds, so that an image cut short by a killed link is refused by name, never flashed. */
#include "elfwhole.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "err.h"

/* What a killed build leaves, and what to do about it. */
#define REBUILD_HINT                                                           \
	"a build killed while writing it? remove it (make builds it again)"

/* ELF constants (elf.h has them, but not on every host this builds on). */
#define EI_CLASS_AT  4
#define EI_DATA_AT   5
#define CLASS_32     1
#define CLASS_64     2
#define DATA_BE	     2
#define SHT_NULL_    0
#define SHT_NOBITS_  8
#define EHDR32_BYTES 52u
#define EHDR64_BYTES 64u
#define PHDR32_BYTES 32u
#define PHDR64_BYTES 56u
#define SHDR32_BYTES 40u
#define SHDR64_BYTES 64u

struct layout {
	const unsigned char *b;
	size_t n;
	int is64;
	int be;
};

/* An unsigned field of size bytes at offset off (the caller checked that
 * it lies within the file). */
static uint64_t field(const struct layout *l, size_t off, unsigned size)
{
	uint64_t v = 0;
	unsigned i;

	for (i = 0; i < size; i++) {
		unsigned k = l->be ? i : size - 1 - i;

		v = v << 8 | l->b[off + k];
	}
	return v;
}

/* A word (4 bytes in ELF32, 8 in ELF64): an address, offset or size. */
static uint64_t word(const struct layout *l, size_t off32, size_t off64)
{
	return l->is64 ? field(l, off64, 8) : field(l, off32, 4);
}

/* Does [off, off + size) lie within the file? */
static int within(const struct layout *l, uint64_t off, uint64_t size)
{
	return off <= l->n && size <= l->n - off;
}

static int cut_short(const struct layout *l, uint64_t off, uint64_t size,
		     const char *what, char *why, size_t len)
{
	/* off + size may not fit 64 bits in a corrupt file: say it as is. */
	snprintf(
		why, len,
		"cut short: %zu bytes, but its %s lies at bytes %llu..+%llu (%s)",
		l->n, what, (unsigned long long)off, (unsigned long long)size,
		REBUILD_HINT);
	return HIL_ERR_ARG;
}

/* The program headers and the contents of each segment. */
static int check_segments(const struct layout *l, char *why, size_t len)
{
	uint64_t phoff = word(l, 28, 32);
	uint64_t entsize = field(l, l->is64 ? 54 : 42, 2);
	uint64_t num = field(l, l->is64 ? 56 : 44, 2);
	uint64_t min = l->is64 ? PHDR64_BYTES : PHDR32_BYTES;
	uint64_t i;
	char what[64];

	if (num == 0) {
		return HIL_OK;
	}
	if (entsize < min) {
		snprintf(why, len,
			 "malformed ELF: program headers of %llu bytes (%s)",
			 (unsigned long long)entsize, REBUILD_HINT);
		return HIL_ERR_ARG;
	}
	if (!within(l, phoff, entsize * num)) {
		return cut_short(l, phoff, entsize * num,
				 "program header table", why, len);
	}
	for (i = 0; i < num; i++) {
		size_t p = (size_t)(phoff + i * entsize);
		uint64_t off = word(l, p + 4, p + 8);
		uint64_t filesz = word(l, p + 16, p + 32);

		if (!within(l, off, filesz)) {
			snprintf(what, sizeof(what), "segment %llu",
				 (unsigned long long)i);
			return cut_short(l, off, filesz, what, why, len);
		}
	}
	return HIL_OK;
}

/* The section headers and the contents of each section that has some. */
static int check_sections(const struct layout *l, char *why, size_t len)
{
	uint64_t shoff = word(l, 32, 40);
	uint64_t entsize = field(l, l->is64 ? 58 : 46, 2);
	uint64_t num = field(l, l->is64 ? 60 : 48, 2);
	uint64_t min = l->is64 ? SHDR64_BYTES : SHDR32_BYTES;
	uint64_t i;
	char what[64];

	if (shoff == 0) {
		return HIL_OK; /* no section table (allowed in an image) */
	}
	if (entsize < min) {
		snprintf(why, len,
			 "malformed ELF: section headers of %llu bytes (%s)",
			 (unsigned long long)entsize, REBUILD_HINT);
		return HIL_ERR_ARG;
	}
	if (!within(l, shoff, entsize)) {
		return cut_short(l, shoff, entsize, "section header table", why,
				 len);
	}
	if (num == 0) {
		/* More than 0xff00 sections: the count is section 0's size. */
		num = word(l, (size_t)shoff + 20, (size_t)shoff + 32);
	}
	if (num > l->n / entsize || !within(l, shoff, entsize * num)) {
		return cut_short(l, shoff, entsize * num,
				 "section header table", why, len);
	}
	for (i = 0; i < num; i++) {
		size_t s = (size_t)(shoff + i * entsize);
		uint64_t type = field(l, s + 4, 4);
		uint64_t off = word(l, s + 16, s + 24);
		uint64_t size = word(l, s + 20, s + 32);

		if (type == SHT_NULL_ || type == SHT_NOBITS_) {
			continue;
		}
		if (!within(l, off, size)) {
			snprintf(what, sizeof(what), "section %llu",
				 (unsigned long long)i);
			return cut_short(l, off, size, what, why, len);
		}
	}
	return HIL_OK;
}

int hil_elf_whole(const unsigned char *b, size_t n, char *why, size_t len)
{
	static const unsigned char magic[4] = {0x7f, 'E', 'L', 'F'};
	struct layout l;
	size_t ehdr;
	int ret;

	if (len > 0) {
		why[0] = '\0';
	}
	if (n == 0) {
		snprintf(why, len, "empty (0 bytes): no image (%s)",
			 REBUILD_HINT);
		return HIL_ERR_ARG;
	}
	if (n < sizeof(magic) || memcmp(b, magic, sizeof(magic)) != 0) {
		snprintf(why, len, "not an ELF file");
		return HIL_ERR_ARG;
	}
	if (n <= EI_DATA_AT ||
	    (b[EI_CLASS_AT] != CLASS_32 && b[EI_CLASS_AT] != CLASS_64)) {
		snprintf(why, len, "%s",
			 n <= EI_DATA_AT
				 ? "cut short in its ELF header (" REBUILD_HINT
				   ")"
				 : "malformed ELF: unknown class");
		return HIL_ERR_ARG;
	}
	l.b = b;
	l.n = n;
	l.is64 = b[EI_CLASS_AT] == CLASS_64;
	l.be = b[EI_DATA_AT] == DATA_BE;
	ehdr = l.is64 ? EHDR64_BYTES : EHDR32_BYTES;
	if (n < ehdr) {
		return cut_short(&l, 0, ehdr, "ELF header", why, len);
	}
	ret = check_segments(&l, why, len);
	if (ret == HIL_OK) {
		ret = check_sections(&l, why, len);
	}
	return ret;
}
