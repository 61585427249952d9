/* semihost: the link backend to a stub built for Arm semihosting, whose frames travel on the emulator's stdin and stdout, one end of a socketpair the flasher made. */
#include "link.h"
#include "fdlink.h"

/*
 * The emulated board's fast transport (docs/protocol.md, "Transports").
 * The qemu flasher starts QEMU with `-semihosting-config
 * enable=on,target=native` and its stdin and stdout on one end of a
 * socketpair; the stub (target/boards/common/link_semihost.c, built with
 * HIL_LINK=semihost) reads them with SYS_READ and writes them with SYS_WRITE
 * on ":tt", a whole frame per call. This end is the other one, handed over
 * by hil_flasher_link_fd() and adopted with hil_link_adopt().
 *
 * Above the bytes nothing changes: the session writes a frame with one
 * write (its resync 0x00 with another), reads whatever has come, and the
 * COBS framing, the CRC-16, timeouts and retries are the protocol's, as on
 * the USART. So the calls are the fd link's; what differs is how the link
 * is made (from a descriptor, never a name) and how the stub is built for
 * it (stub_build).
 */
const struct hil_link_ops hil_link_semihost_ops = {
	.name = "semihost",
	.stub_build = "semihost",
	.needs = HIL_LINK_NEEDS_SEMIHOSTING,
	.open = NULL, /* made from the flasher's descriptor only */
	.adopt = hil_link_fd_adopt,
	.close = hil_link_fd_close,
	.write = hil_link_fd_write,
	.read = hil_link_fd_read,
	.drain = hil_link_fd_drain,
};
