/* syscalls: newlib's system calls for guest code that reaches them (assert() prints and aborts), linked only into images whose implementations do. */
#include <errno.h>
#include <sys/stat.h>

void _exit(int status);
int _kill(int pid, int sig);
int _getpid(void);
int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
int _close(int fd);
int _lseek(int fd, int off, int whence);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);

/*
 * Like heap.c, this file sits alone in the archive searched with libc
 * (FW_HEAP_LIB), so an image gets it only when an implementation's code
 * references one of these: the NIST LWC trees' reference code keeps its
 * assert()s, whose newlib __assert_func prints to stderr (_write, _fstat,
 * _isatty, ...) and calls abort(): raise() (_kill, _getpid), then _exit().
 * Nothing of the stub calls them. There is no console: what is written is
 * dropped, nothing is read. Should a failed assertion abort while
 * measuring, _exit's undefined instruction faults: the stub's fault
 * handler reports it and the host fails that row, as for any crash.
 */
void _exit(int status)
{
	(void)status;
	for (;;) {
		__builtin_trap();
	}
}

int _kill(int pid, int sig)
{
	(void)pid;
	(void)sig;
	_exit(1);
	return -1;
}

int _getpid(void)
{
	return 1;
}

int _write(int fd, const char *buf, int len)
{
	(void)fd;
	(void)buf;
	return len;
}

int _read(int fd, char *buf, int len)
{
	(void)fd;
	(void)buf;
	(void)len;
	return 0;
}

int _close(int fd)
{
	(void)fd;
	errno = EBADF;
	return -1;
}

int _lseek(int fd, int off, int whence)
{
	(void)fd;
	(void)off;
	(void)whence;
	return 0;
}

int _fstat(int fd, struct stat *st)
{
	(void)fd;
	st->st_mode = S_IFCHR;
	return 0;
}

int _isatty(int fd)
{
	(void)fd;
	return 1;
}
