/* elfwhole: is an ELF file whole? Its header, its tables and everything they point into lie within the file (a link killed half-way leaves one cut short, or empty). */
#ifndef HIL_ELFWHOLE_H
#define HIL_ELFWHOLE_H

#include <stddef.h>

/**
 * Check the n bytes of an ELF file (32- or 64-bit, either byte order): not
 * empty, the ELF magic, the ELF header, the program and section header
 * tables, and every segment's and section's contents (NOBITS sections
 * have none) within the n bytes.
 * @param why receives what is wrong, without the file's name (the caller
 *        names it): "empty (0 bytes)", "not an ELF file", "cut short: ...".
 * @return HIL_OK; HIL_ERR_ARG (empty, not an ELF, cut short or malformed).
 */
int hil_elf_whole(const unsigned char *b, size_t n, char *why, size_t len);

#endif /* HIL_ELFWHOLE_H */
