/* fdlink: the calls of the link backends over one file descriptor (socket.c), shared by socket, fd and semihost; private to drivers/link. */
#ifndef HIL_FDLINK_H
#define HIL_FDLINK_H

#include <stddef.h>
#include <stdint.h>

struct hil_link;

/* struct hil_link_ops members, as hil_link_ops documents them. */
void hil_link_fd_close(struct hil_link *l);
int hil_link_fd_write(struct hil_link *l, const uint8_t *p, size_t n,
		      unsigned timeout_ms);
int hil_link_fd_read(struct hil_link *l, uint8_t *p, size_t cap,
		     unsigned timeout_ms);
int hil_link_fd_drain(struct hil_link *l);

/**
 * Make fd the descriptor of l, which is bound to ops using the calls above:
 * non-blocking, close-on-exec, written with send(MSG_NOSIGNAL) when it is a
 * socket.
 * @param fd taken over: closed with l, or at once when this fails.
 * @return HIL_OK, HIL_ERR_IO, HIL_ERR_NOMEM.
 */
int hil_link_fd_adopt(struct hil_link *l, int fd);

#endif /* HIL_FDLINK_H */
