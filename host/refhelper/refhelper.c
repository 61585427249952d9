/* refhelper: the main of a foreign implementation's host build, a process of its own (jailed) that answers hilrun's requests (image/refwire.h) on stdin and stdout. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "image/refcrypto/refcrypto.h"
#include "image/refwire.h"
#include "registry.h"
#include "util/err.h"

/*
 * Built by `make host-impl` (mk/firmware.mk) with the implementation's
 * sources, target/glue.c, the bundled refcrypto.c (our code: the same
 * hil_ref_run() and hil_ref_bench_digest() hilrun uses for the bundled
 * algorithms, so the outputs are computed exactly as before) and this file.
 * HIL_ALG_SYM names the glue's description.
 */
#ifndef HIL_ALG_SYM
#error "HIL_ALG_SYM must name the implementation"
#endif
#define PASTE2(a, b) a##b
#define PASTE(a, b)  PASTE2(a, b)

extern const struct registry_alg PASTE(HIL_ALG_SYM, _alg);

/* refcrypto.c's lookups see this one implementation. */
size_t registry_count(void)
{
	return 1;
}

const struct registry_alg *registry_get(size_t i)
{
	return i == 0 ? &PASTE(HIL_ALG_SYM, _alg) : NULL;
}

static int read_all(int fd, uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t r = read(fd, p, n);

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			return -1;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w <= 0) {
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static void describe(const struct registry_alg *a, struct refwire_buf *out)
{
	size_t mlen = a->mode != NULL ? strlen(a->mode) : 0;
	uint8_t has = (uint8_t)((a->encrypt ? REFWIRE_HAS_ENCRYPT : 0) |
				(a->decrypt ? REFWIRE_HAS_DECRYPT : 0) |
				(a->hash ? REFWIRE_HAS_HASH : 0) |
				(a->xof ? REFWIRE_HAS_XOF : 0) |
				(a->keysetup ? REFWIRE_HAS_KEYSETUP : 0) |
				(a->ecb_encrypt ? REFWIRE_HAS_ECB : 0));

	if (mlen > 255) {
		mlen = 255;
	}
	refwire_put_u8(out, a->kind);
	refwire_put_u8(out, a->keybytes);
	refwire_put_u8(out, a->npubbytes);
	refwire_put_u8(out, a->abytes);
	refwire_put_u8(out, a->blockbytes);
	refwire_put_u8(out, (uint8_t)(a->ksbytes & 0xff));
	refwire_put_u8(out, (uint8_t)(a->ksbytes >> 8));
	refwire_put_u8(out, (uint8_t)a->constant_time);
	refwire_put_u8(out, has);
	refwire_put_u8(out, (uint8_t)mlen);
	refwire_put(out, a->mode, mlen);
}

static int run(const struct registry_alg *a, struct refwire_buf *in,
	       struct refwire_buf *out)
{
	uint8_t op = refwire_get_u8(in);
	uint32_t xof_len = refwire_get_u32(in);
	uint32_t cap = refwire_get_u32(in);
	uint8_t klen = refwire_get_u8(in);
	const uint8_t *key = refwire_get(in, klen);
	uint8_t nlen = refwire_get_u8(in);
	const uint8_t *npub = refwire_get(in, nlen);
	uint32_t adlen = refwire_get_u32(in);
	const uint8_t *ad = refwire_get(in, adlen);
	uint32_t mlen = refwire_get_u32(in);
	const uint8_t *msg = refwire_get(in, mlen);
	uint8_t kbuf[256], nbuf[256];
	size_t out_len = 0, room;
	int rejected = 0, ret;

	if (in->bad || cap > REFWIRE_MAX) {
		return HIL_ERR_PROTO;
	}
	/* The implementation reads its constants' worth of key and nonce:
	 * give it whole buffers whatever hilrun sent. */
	memset(kbuf, 0, sizeof(kbuf));
	memset(nbuf, 0, sizeof(nbuf));
	memcpy(kbuf, key, klen);
	memcpy(nbuf, npub, nlen);
	room = out->cap - out->pos - 5;
	if (cap > room) {
		cap = (uint32_t)room;
	}
	ret = hil_ref_run(a, op, kbuf, nbuf, ad, adlen, msg, mlen, xof_len,
			  out->p + out->pos + 5, cap, &out_len, &rejected);
	if (ret != HIL_OK) {
		return ret;
	}
	refwire_put_u8(out, (uint8_t)(rejected != 0));
	refwire_put_u32(out, (uint32_t)out_len);
	out->pos += out_len; /* written in place above */
	return HIL_OK;
}

static int digest(const struct registry_alg *a, struct refwire_buf *in,
		  struct refwire_buf *out)
{
	uint8_t op = refwire_get_u8(in);
	uint32_t msg_len = refwire_get_u32(in);
	uint32_t ad_len = refwire_get_u32(in);
	uint32_t xof_len = refwire_get_u32(in);
	uint32_t runs = refwire_get_u32(in);
	uint32_t seed = refwire_get_u32(in);
	uint32_t d = 0;
	int ret;

	if (in->bad || msg_len > REFWIRE_MAX || ad_len > REFWIRE_MAX ||
	    xof_len > REFWIRE_MAX) {
		return HIL_ERR_PROTO;
	}
	ret = hil_ref_bench_digest(a, op, msg_len, ad_len, xof_len, runs, seed,
				   &d);
	if (ret == HIL_OK) {
		refwire_put_u32(out, d);
	}
	return ret;
}

int main(void)
{
	const struct registry_alg *a = registry_get(0);
	static uint8_t req[REFWIRE_MAX], rep[REFWIRE_MAX + 16];
	int in_fd, out_fd, null_fd;

	/*
	 * The line to hilrun is on private descriptors; the implementation's
	 * own printf and reads (stdout, stdin) go to stderr (the build log)
	 * and /dev/null, never into a reply.
	 */
	in_fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	out_fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
	null_fd = open("/dev/null", O_RDONLY);
	if (in_fd < 0 || out_fd < 0 || dup2(2, 1) < 0 ||
	    (null_fd >= 0 && dup2(null_fd, 0) < 0)) {
		return 2;
	}
	for (;;) {
		struct refwire_buf in = {req, 0, 0, 0};
		struct refwire_buf out = {rep + 4, sizeof(rep) - 4, 0, 0};
		uint8_t len[4];
		uint32_t n;
		int ret;

		if (read_all(in_fd, len, 4) != 0) {
			return 0; /* hilrun is done */
		}
		n = (uint32_t)len[0] | (uint32_t)len[1] << 8 |
		    (uint32_t)len[2] << 16 | (uint32_t)len[3] << 24;
		if (n == 0 || n > REFWIRE_MAX || read_all(in_fd, req, n) != 0) {
			return 2;
		}
		in.cap = n;
		refwire_put_u32(&out, REFWIRE_MAGIC);
		refwire_put_u32(&out, 0); /* status, below */
		switch (refwire_get_u8(&in)) {
		case REFWIRE_DESCRIBE:
			describe(a, &out);
			ret = HIL_OK;
			break;
		case REFWIRE_RUN:
			ret = run(a, &in, &out);
			break;
		case REFWIRE_DIGEST:
			ret = digest(a, &in, &out);
			break;
		default:
			ret = HIL_ERR_PROTO;
			break;
		}
		if (ret != HIL_OK) {
			out.pos = 8; /* the magic, and the status alone */
		}
		{
			struct refwire_buf st = {rep + 8, 4, 0, 0};

			refwire_put_u32(&st, (uint32_t)ret);
		}
		{
			struct refwire_buf hdr = {rep, 4, 0, 0};

			refwire_put_u32(&hdr, (uint32_t)out.pos);
		}
		if (out.bad || write_all(out_fd, rep, 4 + out.pos) != 0) {
			return 2;
		}
	}
}
