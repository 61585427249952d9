/* linux_dev: the "linux:" I2C backend, /dev/i2c-N through the i2c-dev ioctl I2C_RDWR (a Raspberry Pi as lab host). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c-linux"

#include "i2c.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"

struct linux_i2c {
	int fd;
};

static int linux_open(struct hil_i2c_bus *bus, const char *where)
{
	struct linux_i2c *s;
	unsigned long funcs = 0;
	int fd, e;

	if (where[0] != '/') {
		hil_err("%s: give the device path, e.g. linux:/dev/i2c-1",
			hil_i2c_spec(bus));
		return HIL_ERR_ARG;
	}
	fd = open(where, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ENOENT || e == ENODEV || e == ENXIO) {
			hil_err("%s: no I2C device %s (is the i2c-dev module "
				"loaded and the bus enabled, e.g. "
				"dtparam=i2c_arm=on on a Raspberry Pi?)",
				hil_i2c_spec(bus), where);
			return HIL_ERR_NA;
		}
		if (e == EACCES || e == EPERM) {
			hil_err("%s: permission denied on %s (add the user to "
				"the group owning it, usually 'i2c', or install "
				"a udev rule)",
				hil_i2c_spec(bus), where);
			return HIL_ERR_IO;
		}
		hil_err("%s: cannot open %s: %s", hil_i2c_spec(bus), where,
			strerror(e));
		return HIL_ERR_IO;
	}
	/* I2C_RDWR needs a plain-I2C adapter (not SMBus-only). */
	if (ioctl(fd, I2C_FUNCS, &funcs) < 0) {
		e = errno;
		hil_err("%s: %s is not an I2C adapter (I2C_FUNCS: %s)",
			hil_i2c_spec(bus), where, strerror(e));
		close(fd);
		return HIL_ERR_NA;
	}
	if (!(funcs & I2C_FUNC_I2C)) {
		hil_err("%s: adapter %s does not do plain I2C transfers "
			"(SMBus only), which repeated starts need",
			hil_i2c_spec(bus), where);
		close(fd);
		return HIL_ERR_NA;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		close(fd);
		return HIL_ERR_NOMEM;
	}
	s->fd = fd;
	hil_i2c_set_priv(bus, s);
	return HIL_OK;
}

static void linux_close(struct hil_i2c_bus *bus)
{
	struct linux_i2c *s = hil_i2c_priv(bus);

	if (s != NULL) {
		close(s->fd);
		free(s);
	}
	hil_i2c_set_priv(bus, NULL);
}

static int linux_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		      size_t wlen, uint8_t *r, size_t rlen)
{
	struct linux_i2c *s = hil_i2c_priv(bus);
	struct i2c_msg msgs[2];
	struct i2c_rdwr_ioctl_data data;
	unsigned n = 0;
	int e;

	if (wlen > 8192 || rlen > 8192) {
		return HIL_ERR_ARG; /* the kernel refuses longer messages */
	}
	if (wlen > 0) {
		msgs[n].addr = addr;
		msgs[n].flags = 0;
		msgs[n].len = (uint16_t)wlen;
		msgs[n].buf = (uint8_t *)(uintptr_t)w; /* the kernel reads it */
		n++;
	}
	if (rlen > 0) {
		msgs[n].addr = addr;
		msgs[n].flags = I2C_M_RD;
		msgs[n].len = (uint16_t)rlen;
		msgs[n].buf = r;
		n++;
	}
	data.msgs = msgs;
	data.nmsgs = n;
	if (ioctl(s->fd, I2C_RDWR, &data) >= 0) {
		return HIL_OK;
	}
	e = errno;
	if (e == EREMOTEIO || e == ENXIO || e == EIO) {
		/* i2c-dev drivers report a NACK as one of these. */
		hil_err("%s: no ACK from 0x%02x (%s of %zu byte(s)): %s",
			hil_i2c_spec(bus), addr, rlen > 0 ? "read" : "write",
			rlen > 0 ? rlen : wlen, strerror(e));
		return HIL_ERR_IO;
	}
	if (e == ETIMEDOUT || e == EAGAIN) {
		hil_err("%s: transfer to 0x%02x timed out (SCL or SDA held "
			"low?)",
			hil_i2c_spec(bus), addr);
		return HIL_ERR_TIMEOUT;
	}
	hil_err("%s: transfer to 0x%02x failed: %s", hil_i2c_spec(bus), addr,
		strerror(e));
	return HIL_ERR_IO;
}

/* A spool job names a bus, not any device: /dev/i2c-N only. */
static int linux_job_ok(const char *where)
{
	const size_t p = strlen("/dev/i2c-");

	return strncmp(where, "/dev/i2c-", p) == 0 && where[p] != '\0' &&
	       strspn(where + p, "0123456789") == strlen(where + p);
}

const struct hil_i2c_ops hil_i2c_linux_ops = {
	.name = "linux",
	.spec_form = "linux:/dev/i2c-N",
	.forms = "linux:/dev/i2c-N",
	.example = "linux:/dev/i2c-1",
	.missing = "no I2C adapter",
	.missing_hint = "(is the i2c-dev module loaded and the bus enabled, "
			"e.g. dtparam=i2c_arm=on on a Raspberry Pi?)",
	.where_starts = "/",
	.job_ok = linux_job_ok,
	.job_rule = "a job's Linux I2C bus must be /dev/i2c-N",
	.open = linux_open,
	.close = linux_close,
	.xfer = linux_xfer,
	.xfer_batch = NULL,
};
