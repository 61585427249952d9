/* beneath: files opened and folders made beneath a folder without following a link, and files read only when they are regular. */
#ifndef HIL_BENEATH_H
#define HIL_BENEATH_H

#include <stddef.h>
#include <sys/types.h>

/**
 * Open rel beneath the folder root_fd without following any symbolic link
 * and without leaving it: openat2() with RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS, or, where the kernel has no openat2 (ENOSYS),
 * hil_open_beneath_compat(). O_CLOEXEC and O_NOCTTY are added to flags.
 * @param rel a relative path; "", absolute paths, "." and ".." components
 *        are refused.
 * @param why receives the reason on failure ("a symbolic link on the way",
 *        "leaves the folder", the errno text), never the file's content.
 * @return a descriptor (caller closes), or HIL_ERR_NA (no such file) or
 *         HIL_ERR_IO / HIL_ERR_ARG with why set.
 */
int hil_open_beneath_at(int root_fd, const char *rel, int flags, mode_t mode,
			char *why, size_t why_len);

/**
 * The fallback of hil_open_beneath_at: one component at a time, each
 * folder opened with O_DIRECTORY | O_NOFOLLOW and the last with O_NOFOLLOW.
 * Same parameters and results.
 */
int hil_open_beneath_compat(int root_fd, const char *rel, int flags,
			    mode_t mode, char *why, size_t why_len);

/**
 * hil_open_beneath_at with the folder given by its path (opened as it is:
 * the root itself is the caller's choice, links in it included).
 */
int hil_open_beneath(const char *root, const char *rel, int flags, char *why,
		     size_t why_len);

/**
 * Open rel beneath root_fd to read it, only if it is a regular file: opened
 * O_NONBLOCK (a FIFO or a device never blocks), fstat'ed, then made
 * blocking again.
 * @return a descriptor, or a negative code with why set (for a FIFO:
 *         "not a regular file (a FIFO)").
 */
int hil_open_regular_beneath(int root_fd, const char *rel, char *why,
			     size_t why_len);

/**
 * mkdir -p of rel beneath root_fd (AT_FDCWD: the working directory), never
 * through a link: each component is created (mode 0777 less the umask) or,
 * when it exists, must be a folder that is not a link; "." components are
 * skipped, ".." refused.
 * @return a descriptor of the last folder (caller closes), or a negative
 *         code with why naming the component at fault.
 */
int hil_mkdirs_beneath(int root_fd, const char *rel, char *why, size_t why_len);

/**
 * What a file type is, for a refusal: "a FIFO", "a device", "a symbolic
 * link", "a socket", "a folder" or "a regular file".
 */
const char *hil_file_type_name(mode_t mode);

#endif /* HIL_BENEATH_H */
