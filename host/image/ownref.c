/* ownref: the host build of a user's folder of an algorithm hilrun does not bundle, a jailed process of its own that hilrun asks for the outputs its target build is checked against. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ownref"
#include "ownref.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "build.h"
#include "hilp.h"
#include "refwire.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/util.h"

#define OWNREF_TIMEOUT_MS 300000u
/* One answer: a bench digest is one operation on at most a few tens of
 * KiB, folded; a host build stuck longer than this is hung. */
#define ANSWER_TIMEOUT_MS 60000

/* The C name of alg/impl, as the Makefile's impl_sym makes it. */
static void sym_of(const struct hil_config_alg *a, char *buf, size_t len)
{
	size_t o = 0;
	const char *parts[2] = {a->name, a->impl};
	size_t k;

	for (k = 0; k < 2 && o + 1 < len; k++) {
		const char *p;

		if (k == 1) {
			buf[o++] = '_';
		}
		for (p = parts[k]; *p != '\0' && o + 1 < len; p++) {
			buf[o++] = strchr("-+./", *p) != NULL ? '_' : *p;
		}
	}
	buf[o] = '\0';
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n > 0) {
		ssize_t w = send(fd, p, n, MSG_NOSIGNAL);

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

/* n bytes, each wait for more bounded. @return 0, -1 (EOF, error), -2 (timeout). */
static int read_all(int fd, uint8_t *p, size_t n)
{
	while (n > 0) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN, .revents = 0};
		int r = poll(&pfd, 1, ANSWER_TIMEOUT_MS);
		ssize_t got;

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r == 0) {
			return -2;
		}
		if (r < 0) {
			return -1;
		}
		got = read(fd, p, n);
		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got <= 0) {
			return -1;
		}
		p += got;
		n -= (size_t)got;
	}
	return 0;
}

/* The helper is gone or hung: stop it for good; every later call fails. */
static void give_up(struct hil_ownref *r)
{
	if (r->proc != NULL) {
		shutdown(r->fd, SHUT_RDWR);
		close(r->fd);
		r->fd = -1;
		hil_proc_free(r->proc);
		r->proc = NULL;
	}
}

/*
 * Send req (req->pos bytes) and read the reply into rep (its capacity),
 * past the magic and the status. @return the helper's status, or
 * HIL_ERR_PROCESS (it died or answered nonsense) / HIL_ERR_TIMEOUT.
 */
static int transact(struct hil_ownref *r, const struct refwire_buf *req,
		    struct refwire_buf *rep)
{
	uint8_t len[4] = {(uint8_t)req->pos, (uint8_t)(req->pos >> 8),
			  (uint8_t)(req->pos >> 16), (uint8_t)(req->pos >> 24)};
	struct refwire_buf l = {len, 4, 0, 0};
	uint32_t n, magic;
	int rd;

	if (r->proc == NULL) {
		hil_err("the host build of %s/%s is not running", r->alg.name,
			r->alg.impl);
		return HIL_ERR_PROCESS;
	}
	if (req->bad) {
		return HIL_ERR_ARG;
	}
	if (write_all(r->fd, len, 4) != 0 ||
	    write_all(r->fd, req->p, req->pos) != 0) {
		hil_err("the host build %s stopped taking requests (see build.log)",
			r->exe);
		give_up(r);
		return HIL_ERR_PROCESS;
	}
	rd = read_all(r->fd, len, 4);
	n = refwire_get_u32(&l);
	if (rd == 0 && (n < 8 || n > rep->cap)) {
		rd = -1;
	}
	if (rd == 0) {
		rd = read_all(r->fd, rep->p, n);
	}
	if (rd != 0) {
		hil_err("the host build %s %s (see build.log)", r->exe,
			rd == -2 ? "did not answer in time: stopped"
				 : "died or answered nonsense");
		give_up(r);
		return rd == -2 ? HIL_ERR_TIMEOUT : HIL_ERR_PROCESS;
	}
	rep->cap = n;
	rep->pos = 0;
	magic = refwire_get_u32(rep);
	if (magic != REFWIRE_MAGIC) {
		hil_err("the host build %s answered nonsense (did it write to its standard output before main?)",
			r->exe);
		give_up(r);
		return HIL_ERR_PROCESS;
	}
	return (int)refwire_get_u32(rep);
}

/* Ask the helper what it is: r->alg without functions. */
static int describe(struct hil_ownref *r)
{
	uint8_t q[1] = {REFWIRE_DESCRIBE};
	struct refwire_buf req = {q, sizeof(q), 1, 0};
	uint8_t a[512];
	struct refwire_buf rep = {a, sizeof(a), 0, 0};
	const uint8_t *mode;
	uint8_t has, mlen;
	int ret;

	ret = transact(r, &req, &rep);
	if (ret != HIL_OK) {
		return ret;
	}
	r->alg.kind = refwire_get_u8(&rep);
	r->alg.keybytes = refwire_get_u8(&rep);
	r->alg.npubbytes = refwire_get_u8(&rep);
	r->alg.abytes = refwire_get_u8(&rep);
	r->alg.blockbytes = refwire_get_u8(&rep);
	r->alg.ksbytes = refwire_get_u8(&rep);
	r->alg.ksbytes |= (uint16_t)(refwire_get_u8(&rep) << 8);
	r->alg.constant_time = (int8_t)refwire_get_u8(&rep);
	has = refwire_get_u8(&rep);
	mlen = refwire_get_u8(&rep);
	mode = refwire_get(&rep, mlen);
	if (rep.bad) {
		hil_err("the host build %s described itself short", r->exe);
		return HIL_ERR_PROCESS;
	}
	snprintf(r->mode, sizeof(r->mode), "%.*s", (int)mlen,
		 (const char *)mode);
	r->alg.mode = r->mode;
	r->has = has;
	return HIL_OK;
}

/* Start the helper on one end of a socketpair, jailed with its folder. */
static int start(struct hil_ownref *r, const char *log_path, int jail)
{
	char dir[4096];
	char *argv[] = {r->exe, NULL};
	struct hil_jail *j = NULL;
	char *slash;
	int sv[2], ret;

	if (jail) {
		snprintf(dir, sizeof(dir), "%s", r->exe);
		slash = strrchr(dir, '/');
		if (slash != NULL) {
			*slash = '\0';
		}
		ret = hil_jail_new(&j);
		if (ret == HIL_OK) {
			ret = hil_jail_bind(j, dir, HIL_JAIL_RO);
		}
		if (ret != HIL_OK) {
			hil_jail_free(j);
			return ret;
		}
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		hil_err("cannot make a socketpair for %s: %s", r->exe,
			strerror(errno));
		hil_jail_free(j);
		return HIL_ERR_IO;
	}
	ret = hil_proc_spawn_jailed(&r->proc, argv, sv[1], log_path, j);
	close(sv[1]);
	hil_jail_free(j);
	if (ret != HIL_OK) {
		close(sv[0]);
		return ret;
	}
	r->fd = sv[0];
	return HIL_OK;
}

int hil_ownref_build(const char *root, const char *fw_dir,
		     const struct hil_config_alg *a, const char *log_path,
		     int jail, const volatile sig_atomic_t *stop,
		     struct hil_ownref *out)
{
	char link[HIL_PATH];
	char sym[2 * HIL_CFG_NAME + 8];
	char var_impl[HIL_PATH + 2 * HIL_CFG_NAME + 8];
	char var_dir[HIL_PATH + 16];
	char host_dir[HIL_PATH + 8];
	struct hil_jail *j = NULL;
	int status = -1;
	int ret;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	out->alg.name = a->name;
	out->alg.impl = a->impl;
	if (hil_build_source_link(fw_dir, a, link, sizeof(link)) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	sym_of(a, sym, sizeof(sym));
	snprintf(var_impl, sizeof(var_impl), "HOST_IMPL=%s/%s=%s", a->name,
		 a->impl, link);
	snprintf(var_dir, sizeof(var_dir), "FW_DIR=%s", fw_dir);
	snprintf(out->exe, sizeof(out->exe), "%s/host/%s", fw_dir, sym);
	snprintf(host_dir, sizeof(host_dir), "%s/host", fw_dir);
	if (jail) {
		/* The same jail as the firmware build's, writing only the
		 * host build's own folder. */
		ret = hil_build_jail(root, host_dir, var_impl + 10, &j);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	{
		char *argv[] = {"make",	     "--no-print-directory",
				"-C",	     (char *)root,
				"host-impl", var_impl,
				var_dir,     NULL};

		ret = hil_proc_run_jailed(argv, log_path, OWNREF_TIMEOUT_MS,
					  &status, j, stop);
	}
	hil_jail_free(j);
	if (ret == HIL_ERR_INTERRUPTED) {
		return ret; /* a stop, not a folder that does not build */
	}
	if (ret != HIL_OK) {
		hil_err("could not run make: %s", hil_strerror(ret));
		return ret == HIL_ERR_NA ? HIL_ERR_NA : HIL_ERR_BUILD;
	}
	if (status != 0) {
		hil_info("%s/%s does not build for this host (see %s)", a->name,
			 a->impl, log_path);
		return HIL_ERR_BUILD;
	}
	ret = start(out, log_path, jail);
	if (ret == HIL_OK) {
		ret = describe(out);
	}
	if (ret != HIL_OK) {
		hil_info("%s/%s: its host build does not start (see %s)",
			 a->name, a->impl, log_path);
		hil_ownref_close(out);
		return ret == HIL_ERR_NA ? HIL_ERR_NA : HIL_ERR_BUILD;
	}
	out->started = 1;
	hil_dbg("%s/%s: host build %s running (pid %ld)%s", a->name, a->impl,
		out->exe, (long)hil_proc_pid(out->proc),
		jail ? ", jailed" : "");
	return HIL_OK;
}

int hil_ownref_started(const struct hil_ownref *r)
{
	return r != NULL && r->started;
}

int hil_ownref_has(const struct hil_ownref *r, uint8_t kind)
{
	unsigned need;

	switch (kind) {
	case HILP_KIND_AEAD:
		need = REFWIRE_HAS_ENCRYPT | REFWIRE_HAS_DECRYPT;
		break;
	case HILP_KIND_HASH:
		need = REFWIRE_HAS_HASH;
		break;
	case HILP_KIND_XOF:
		need = REFWIRE_HAS_XOF;
		break;
	case HILP_KIND_BLOCK:
		need = REFWIRE_HAS_KEYSETUP | REFWIRE_HAS_ECB;
		break;
	default:
		return 0;
	}
	return r != NULL && (r->has & need) == need;
}

int hil_ownref_run(struct hil_ownref *r, uint8_t op, const uint8_t *key,
		   const uint8_t *npub, const uint8_t *ad, size_t adlen,
		   const uint8_t *msg, size_t msglen, size_t xof_len,
		   uint8_t *out, size_t cap, size_t *out_len, int *rejected)
{
	size_t qcap = 32 + r->alg.keybytes + r->alg.npubbytes + adlen + msglen;
	uint8_t *q, *a;
	size_t acap = cap + 32;
	struct refwire_buf req, rep;
	const uint8_t *got;
	uint32_t n;
	int ret;

	*rejected = 0;
	*out_len = 0;
	if (qcap > REFWIRE_MAX || cap > REFWIRE_MAX - 32) {
		return HIL_ERR_ARG;
	}
	q = malloc(qcap);
	a = malloc(acap);
	if (q == NULL || a == NULL) {
		free(q);
		free(a);
		return HIL_ERR_NOMEM;
	}
	req = (struct refwire_buf){q, qcap, 0, 0};
	refwire_put_u8(&req, REFWIRE_RUN);
	refwire_put_u8(&req, op);
	refwire_put_u32(&req, (uint32_t)xof_len);
	refwire_put_u32(&req, (uint32_t)cap);
	refwire_put_u8(&req, r->alg.keybytes);
	refwire_put(&req, key, key != NULL ? r->alg.keybytes : 0);
	refwire_put_u8(&req, r->alg.npubbytes);
	refwire_put(&req, npub, npub != NULL ? r->alg.npubbytes : 0);
	refwire_put_u32(&req, (uint32_t)adlen);
	refwire_put(&req, ad, adlen);
	refwire_put_u32(&req, (uint32_t)msglen);
	refwire_put(&req, msg, msglen);
	if (key == NULL || npub == NULL) {
		req.bad = 1; /* hil_ref_run always has both */
	}
	rep = (struct refwire_buf){a, acap, 0, 0};
	ret = transact(r, &req, &rep);
	if (ret == HIL_OK) {
		*rejected = refwire_get_u8(&rep) != 0;
		n = refwire_get_u32(&rep);
		got = refwire_get(&rep, n);
		if (rep.bad || n > cap) {
			hil_err("the host build %s answered a bad length",
				r->exe);
			ret = HIL_ERR_PROCESS;
		} else {
			memcpy(out, got, n);
			*out_len = n;
		}
	}
	free(q);
	free(a);
	return ret;
}

int hil_ownref_bench_digest(struct hil_ownref *r, uint8_t op, size_t msg_len,
			    size_t ad_len, size_t xof_len, unsigned runs,
			    uint32_t seed, uint32_t *digest)
{
	uint8_t q[32], a[32];
	struct refwire_buf req = {q, sizeof(q), 0, 0};
	struct refwire_buf rep = {a, sizeof(a), 0, 0};
	int ret;

	refwire_put_u8(&req, REFWIRE_DIGEST);
	refwire_put_u8(&req, op);
	refwire_put_u32(&req, (uint32_t)msg_len);
	refwire_put_u32(&req, (uint32_t)ad_len);
	refwire_put_u32(&req, (uint32_t)xof_len);
	refwire_put_u32(&req, runs);
	refwire_put_u32(&req, seed);
	ret = transact(r, &req, &rep);
	if (ret == HIL_OK) {
		*digest = refwire_get_u32(&rep);
		if (rep.bad) {
			ret = HIL_ERR_PROCESS;
		}
	}
	if (ret == HIL_ERR_VERIFY) {
		hil_err("the host build of %s/%s failed its own operation",
			r->alg.name, r->alg.impl);
	}
	return ret;
}

void hil_ownref_close(struct hil_ownref *r)
{
	if (r != NULL) {
		give_up(r);
	}
}
