/* elfinfo: identity (build-id, SHA-256, compiler) and sizes of a linked firmware ELF, read with libelf. */
#ifndef HIL_ELFINFO_H
#define HIL_ELFINFO_H

#include <stddef.h>
#include <stdint.h>

#define HIL_ELF_BUILD_ID_MAX 64 /* bytes; GNU ld makes 20 (sha1) */
#define HIL_ELF_COMMENT_MAX  512

/*
 * Sizes in the Berkeley sense of size(1), over SHF_ALLOC sections: text =
 * executable or read-only, data = writable with contents, bss = writable
 * without contents (NOBITS).
 */
struct hil_elf_sizes {
	uint64_t text;
	uint64_t data;
	uint64_t bss;
};

struct hil_elf_info {
	uint8_t build_id[HIL_ELF_BUILD_ID_MAX]; /* NT_GNU_BUILD_ID bytes */
	size_t build_id_len;			/* 0: the ELF has none */
	char build_id_hex[2 * HIL_ELF_BUILD_ID_MAX + 1]; /* lower case */
	char sha256_hex[65]; /* of the whole file, lower case */
	/* The .comment strings ("GCC: (15:12.2.rel1-1) 12.2.1 20221205"),
	 * distinct ones joined by "; "; empty if there is no .comment. */
	char compiler[HIL_ELF_COMMENT_MAX];
	uint16_t machine; /* e_machine: EM_ARM = 40 */
	/* As size(1) prints them, except that a section named .stack is left
	 * out of bss and reported in `stack` (0 if there is none). */
	struct hil_elf_sizes sizes;
	uint64_t flash; /* text + data (the init image of data) */
	uint64_t ram;	/* data + bss, without the stack */
	uint64_t stack; /* size of the .stack section */
	uint64_t file_size;
};

/**
 * Read the identity and sizes of an ELF. The file is read once: the hash and
 * the parsed fields describe the same bytes.
 * @param path the ELF file.
 * @param out filled; owned by the caller.
 * @return HIL_OK; HIL_ERR_IO (cannot read the file); HIL_ERR_ARG (not an
 *         ELF file, a malformed one, an empty one or one cut short: a
 *         table, segment or section past its end, util/elfwhole.h; every
 *         function here refuses those); HIL_ERR_NA (no GNU build-id: every
 *         other field is still filled, build_id_len is 0); HIL_ERR_NOMEM.
 *         Each failure is logged once with the path.
 */
int hil_elf_info(const char *path, struct hil_elf_info *out);

/**
 * Sum the sizes of the FUNC and OBJECT symbols whose names start with prefix,
 * sorted by the kind of section they are in (as struct hil_elf_sizes), e.g.
 * prefix "ascon_" for one implementation's code and tables. Aliases (two
 * names at the same address in the same section) count once. Undefined and
 * absolute symbols are not counted.
 * @param count receives how many symbols were counted; may be NULL.
 * @return HIL_OK (also when nothing matched: sizes are 0); HIL_ERR_IO;
 *         HIL_ERR_ARG (not an ELF); HIL_ERR_NA (no symbol table: stripped).
 */
int hil_elf_symbol_size_by_prefix(const char *path, const char *prefix,
				  struct hil_elf_sizes *out, size_t *count);

/**
 * Is a symbol of this name defined in the ELF (linked into the image)? A mere
 * undefined reference (resolved from a shared library at run time) does not
 * count. Used to fail the build if malloc or _sbrk is linked into the stub.
 * @return 1 defined, 0 not, or a negative code (HIL_ERR_IO, HIL_ERR_ARG,
 *         HIL_ERR_NA for a file without any symbol table).
 */
int hil_elf_has_symbol(const char *path, const char *name);

/**
 * Where a function's code is: the FUNC symbol named name, or, failing that,
 * the one compiler clone of it ("name.lto_priv.0", "name.constprop.0").
 * @param addr receives its first byte (the Thumb bit cleared).
 * @param size receives its size in bytes.
 * @return HIL_OK; HIL_ERR_NA (no such function, or no symbol table);
 *         HIL_ERR_ARG (several clones and no exact name; bad arguments);
 *         HIL_ERR_IO. Failures are logged with the path.
 */
int hil_elf_function_range(const char *path, const char *name, uint64_t *addr,
			   uint64_t *size);

/**
 * The function whose code holds addr (its Thumb bit ignored): the FUNC
 * symbol with st_value <= addr < st_value + st_size.
 * @param name receives its name (cut to len).
 * @param off receives addr's offset into it.
 * @return HIL_OK; HIL_ERR_NA (none holds it, or no symbol table);
 *         HIL_ERR_ARG; HIL_ERR_IO.
 */
int hil_elf_function_at(const char *path, uint64_t addr, char *name, size_t len,
			uint64_t *off);

#endif /* HIL_ELFINFO_H */
