/* socket: the link backend over a file descriptor: a unix socket (QEMU's USART, native stub) or an adopted fd; its calls serve the semihost link too. */
#define _DEFAULT_SOURCE /* SOCK_CLOEXEC, MSG_NOSIGNAL with glibc */
#define HIL_LOG_PREFIX	"socket"

#include "link.h"
#include "fdlink.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"

/* Pause between connect attempts while the server is starting. */
#define CONNECT_RETRY_MS 10

struct fdlink {
	int fd;
	int is_socket; /* send(MSG_NOSIGNAL) instead of write() */
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static int set_flags(int fd, const char *where)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		hil_err("%s: cannot make the descriptor non-blocking: %s",
			where, strerror(errno));
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/*
 * Wait for events on fd until deadline; EINTR restarts the wait with the time
 * left. Returns 1 when ready (revents set), 0 on timeout, negative on error.
 */
static int wait_fd(int fd, short events, uint64_t deadline, short *revents,
		   const char *where)
{
	struct pollfd pfd = {.fd = fd, .events = events, .revents = 0};
	int n;

	for (;;) {
		unsigned left = hil_link_ms_left(deadline);

		n = poll(&pfd, 1,
			 left > (unsigned)INT32_MAX ? INT32_MAX : (int)left);
		if (n >= 0) {
			break;
		}
		if (errno != EINTR) {
			hil_err("%s: poll failed: %s", where, strerror(errno));
			return HIL_ERR_IO;
		}
	}
	*revents = pfd.revents;
	return n;
}

void hil_link_fd_close(struct hil_link *l)
{
	struct fdlink *s = hil_link_priv(l);

	if (s != NULL) {
		if (s->fd >= 0) {
			close(s->fd);
		}
		free(s);
	}
	hil_link_set_priv(l, NULL);
}

static ssize_t fd_send(const struct fdlink *s, const uint8_t *p, size_t n)
{
	if (s->is_socket) {
		return send(s->fd, p, n, MSG_NOSIGNAL);
	}
	return write(s->fd, p, n);
}

int hil_link_fd_write(struct hil_link *l, const uint8_t *p, size_t n,
		      unsigned timeout_ms)
{
	struct fdlink *s = hil_link_priv(l);
	uint64_t deadline = hil_link_now_ms() + timeout_ms;
	size_t done = 0;

	while (done < n) {
		ssize_t w = fd_send(s, p + done, n - done);
		short rev;
		int ret;

		if (w > 0) {
			done += (size_t)w;
			continue;
		}
		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w < 0 && (errno == EPIPE || errno == ECONNRESET)) {
			hil_err("%s: peer closed the connection",
				hil_link_where(l));
			return HIL_ERR_IO;
		}
		if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			hil_err("%s: write failed: %s", hil_link_where(l),
				strerror(errno));
			return HIL_ERR_IO;
		}
		ret = wait_fd(s->fd, POLLOUT, deadline, &rev,
			      hil_link_where(l));
		if (ret < 0) {
			return ret;
		}
		if (ret == 0) {
			hil_err("%s: write timed out after %u ms (%zu of %zu bytes sent)",
				hil_link_where(l), timeout_ms, done, n);
			return HIL_ERR_TIMEOUT;
		}
		if ((rev & POLLOUT) == 0 && (rev & (POLLERR | POLLHUP)) != 0) {
			hil_err("%s: peer closed the connection",
				hil_link_where(l));
			return HIL_ERR_IO;
		}
	}
	return HIL_OK;
}

int hil_link_fd_read(struct hil_link *l, uint8_t *p, size_t cap,
		     unsigned timeout_ms)
{
	struct fdlink *s = hil_link_priv(l);
	uint64_t deadline = hil_link_now_ms() + timeout_ms;

	for (;;) {
		ssize_t r = read(s->fd, p, cap);
		short rev;
		int ret;

		if (r > 0) {
			return (int)r;
		}
		if (r == 0) {
			hil_err("%s: peer closed the connection",
				hil_link_where(l));
			return HIL_ERR_IO;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno == ECONNRESET) {
			hil_err("%s: peer closed the connection",
				hil_link_where(l));
			return HIL_ERR_IO;
		}
		if (errno != EAGAIN && errno != EWOULDBLOCK) {
			hil_err("%s: read failed: %s", hil_link_where(l),
				strerror(errno));
			return HIL_ERR_IO;
		}
		ret = wait_fd(s->fd, POLLIN, deadline, &rev, hil_link_where(l));
		if (ret <= 0) {
			return ret; /* 0: timeout with nothing read */
		}
		/* Readable, hung up or in error: the next read() tells which. */
	}
}

int hil_link_fd_drain(struct hil_link *l)
{
	struct fdlink *s = hil_link_priv(l);
	uint8_t buf[256];

	for (;;) {
		ssize_t r = read(s->fd, buf, sizeof(buf));

		if (r > 0) {
			continue;
		}
		if (r == 0) {
			hil_err("%s: peer closed the connection",
				hil_link_where(l));
			return HIL_ERR_IO;
		}
		if (errno == EINTR) {
			continue;
		}
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			return HIL_OK;
		}
		hil_err("%s: read failed: %s", hil_link_where(l),
			strerror(errno));
		return HIL_ERR_IO;
	}
}

/*
 * Connect, retrying while the path is missing (ENOENT: QEMU has not created
 * it yet) or refuses (ECONNREFUSED: a stale socket file, or the listener not
 * yet listening).
 */
static int socket_connect(struct hil_link *l, const char *path,
			  unsigned timeout_ms)
{
	struct sockaddr_un sa;
	struct fdlink *s;
	uint64_t deadline = hil_link_now_ms() + timeout_ms;
	int fd = -1, err = 0, ret;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		hil_err("%s: socket path longer than %zu bytes", path,
			sizeof(sa.sun_path) - 1);
		return HIL_ERR_ARG;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path) + 1);

	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		hil_err("%s: no memory for the link", path);
		return HIL_ERR_NOMEM;
	}
	s->fd = -1;
	s->is_socket = 1;
	hil_link_set_priv(l, s); /* hil_link_fd_close frees it on error */

	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0) {
			hil_err("%s: cannot create a socket: %s", path,
				strerror(errno));
			return HIL_ERR_IO;
		}
		do {
			ret = connect(fd, (const struct sockaddr *)&sa,
				      sizeof(sa));
		} while (ret != 0 && errno == EINTR);
		if (ret == 0) {
			break;
		}
		err = errno;
		close(fd);
		fd = -1;
		if (err != ENOENT && err != ECONNREFUSED) {
			hil_err("%s: cannot connect: %s", path, strerror(err));
			return HIL_ERR_IO;
		}
		if (hil_link_ms_left(deadline) == 0) {
			hil_err("%s: no server after %u ms: %s", path,
				timeout_ms, strerror(err));
			return HIL_ERR_TIMEOUT;
		}
		sleep_ms(CONNECT_RETRY_MS < hil_link_ms_left(deadline)
				 ? CONNECT_RETRY_MS
				 : hil_link_ms_left(deadline));
	}
	s->fd = fd;
	ret = set_flags(fd, path);
	if (ret != HIL_OK) {
		return ret;
	}
	hil_dbg("%s: connected", path);
	return HIL_OK;
}

static int socket_open(struct hil_link *l, const char *where, unsigned baud)
{
	(void)baud;
	return socket_connect(l, where, HIL_LINK_SOCKET_CONNECT_MS);
}

const struct hil_link_ops hil_link_socket_ops = {
	.name = "socket",
	.needs = HIL_LINK_NEEDS_SOCKET,
	.open = socket_open,
	.close = hil_link_fd_close,
	.write = hil_link_fd_write,
	.read = hil_link_fd_read,
	.drain = hil_link_fd_drain,
};

static const struct hil_link_ops fd_ops = {
	.name = "fd",
	.open = NULL, /* made by hil_link_from_fd only */
	.close = hil_link_fd_close,
	.write = hil_link_fd_write,
	.read = hil_link_fd_read,
	.drain = hil_link_fd_drain,
};

int hil_link_socket_open(struct hil_link **out, const char *path,
			 unsigned connect_timeout_ms)
{
	struct hil_link *l;
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (path == NULL || path[0] == '\0') {
		hil_err("socket link: no path given");
		return HIL_ERR_ARG;
	}
	ret = hil_link_alloc(&l, &hil_link_socket_ops, path);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = socket_connect(l, path, connect_timeout_ms);
	if (ret != HIL_OK) {
		hil_link_close(l);
		return ret;
	}
	*out = l;
	return HIL_OK;
}

/*
 * Take fd over as l's descriptor (ops: the fd calls above): non-blocking,
 * close-on-exec, send(MSG_NOSIGNAL) when it is a socket. On error fd is
 * closed (by hil_link_fd_close once it is l's).
 */
int hil_link_fd_adopt(struct hil_link *l, int fd)
{
	struct fdlink *s;
	int type;
	socklen_t len = sizeof(type);

	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		hil_err("%s: no memory for the link", hil_link_where(l));
		close(fd);
		return HIL_ERR_NOMEM;
	}
	s->fd = fd;
	s->is_socket = getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0;
	hil_link_set_priv(l, s);
	return set_flags(fd, hil_link_where(l));
}

int hil_link_from_fd(struct hil_link **out, int fd, const char *name)
{
	struct hil_link *l = NULL;
	int ret;

	if (out == NULL || fd < 0 || name == NULL) {
		if (fd >= 0) {
			close(fd);
		}
		return HIL_ERR_ARG;
	}
	*out = NULL;
	ret = hil_link_alloc(&l, &fd_ops, name);
	if (ret != HIL_OK) {
		close(fd);
		return ret;
	}
	ret = hil_link_fd_adopt(l, fd);
	if (ret != HIL_OK) {
		hil_link_close(l);
		return ret;
	}
	*out = l;
	return HIL_OK;
}
