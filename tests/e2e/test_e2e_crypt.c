/* test_e2e_crypt: `hilrun crypt` agrees with independent implementations (OpenSSL, the other Ascon-AEAD128 implementation, the official KAT files) on random inputs, on the host and under QEMU. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "image/kat.h"

/*
 * What is compared, name by name:
 *
 *	aes128-ecb, aes128-gcm, chacha20-poly1305: OpenSSL's libcrypto
 *	ascon-aead128 (ref) and ascon-aead128/bi32: each other (two
 *		implementations written separately), the host run of the
 *		other one being the expected output
 *	speck64-128-ecb: a multi-block message equals its blocks encrypted
 *		one `hilrun crypt` call at a time (and those are checked
 *		against the KAT file)
 *	ascon128v12, ascon-hash256, ascon-xof128: nothing independent on
 *		random inputs; on the host the output length, the AEAD round
 *		trip and the XOF prefix property, under QEMU the host build
 *	every name: 5 vectors of its official KAT file, picked at random
 *		(all of them when the file has fewer; the first one under
 *		QEMU), encrypted and, on the host, decrypted
 *	every AEAD: --decrypt of the output gives the plaintext back; a
 *		flipped bit in the tag (or the ciphertext) exits with 1 and
 *		prints nothing on stdout
 *
 * Inputs come from a fixed-seed PRNG (HIL_CRYPT_SEED overrides it), so a
 * failure reproduces; it prints the seed and the whole command line.
 * HIL_CRYPT_ONLY="host aes128-gcm*" runs the tests whose names match.
 */

#define DEFAULT_SEED	0x48494c4352595054ULL /* "HILCRYPT" */
#define MAX_MSG		400u		      /* bytes of a random message */
#define MAX_AD		64u
#define MAX_XOF		300u /* random --outlen of the XOF */
#define N_HOST		20   /* random inputs per name on the host */
#define N_QEMU		3    /* ... under QEMU: every call boots it */
#define KAT_PICKS	5    /* vectors per KAT file on the host */
#define KAT_PICKS_QEMU	1    /* ... under QEMU (the first of the same picks) */
#define OUT_MAX		(KAT_FIELD_MAX + 64)
#define HOST_TIMEOUT_MS 20000u
/* The first call for an algorithm builds its firmware image. */
#define QEMU_TIMEOUT_MS 300000u
#define QEMU_CONFIG	"configs/qemu.json"
#define CAPTURE_MAX	(1u << 20)

enum kind { K_AEAD, K_BLOCK, K_HASH, K_XOF };

struct alg {
	const char *name; /* as given to hilrun crypt */
	const char *base; /* the first token of hilrun's output line */
	enum kind kind;
	size_t key, nonce, tag, block;
	const EVP_CIPHER *(*evp)(void); /* OpenSSL's, or NULL */
	const char *twin;		/* another implementation, or NULL */
	int blockwise;			/* expected: one call per block */
	const char *kat;		/* under tests/kat/ */
};

static const struct alg algs[] = {
	{"ascon-aead128", "ascon-aead128", K_AEAD, 16, 16, 16, 0, NULL,
	 "ascon-aead128/bi32", 0, "asconaead128_LWC_AEAD_KAT_128_128.txt"},
	{"ascon-aead128/bi32", "ascon-aead128", K_AEAD, 16, 16, 16, 0, NULL,
	 "ascon-aead128/ref", 0, "asconaead128_LWC_AEAD_KAT_128_128.txt"},
	{"ascon128v12", "ascon128v12", K_AEAD, 16, 16, 16, 0, NULL, NULL, 0,
	 "ascon128v12_LWC_AEAD_KAT_128_128.txt"},
	{"ascon-hash256", "ascon-hash256", K_HASH, 0, 0, 0, 0, NULL, NULL, 0,
	 "asconhash256_LWC_HASH_KAT_128_256.txt"},
	{"ascon-xof128", "ascon-xof128", K_XOF, 0, 0, 0, 0, NULL, NULL, 0,
	 "asconxof128_LWC_XOF_KAT_128_512.txt"},
	{"speck64-128-ecb", "speck64-128-ecb", K_BLOCK, 16, 0, 0, 8, NULL, NULL,
	 1, "speck64128_le_bytes.txt"},
	{"aes128-ecb", "aes128-ecb", K_BLOCK, 16, 0, 0, 16, EVP_aes_128_ecb,
	 NULL, 0, "aes128_ecb.txt"},
	{"aes128-gcm", "aes128-gcm", K_AEAD, 16, 12, 16, 0, EVP_aes_128_gcm,
	 NULL, 0, "aes128_gcm.txt"},
	{"chacha20-poly1305", "chacha20-poly1305", K_AEAD, 32, 12, 16, 0,
	 EVP_chacha20_poly1305, NULL, 0, "chacha20poly1305.txt"},
};
#define N_ALGS (sizeof(algs) / sizeof(algs[0]))

/* One generated test: an algorithm on one side. */
struct tcase {
	const struct alg *alg;
	int qemu;
	char name[128];
};

static char src_dir[4096];
static char bin[4096 + 64];
static uint64_t seed = DEFAULT_SEED;
/* What the running test is doing, printed with every failure. */
static char where[512];
/* Where the expected output of the running comparison came from. */
static const char *exp_from = "";

/* ------------------------------------------------------------- the PRNG */

struct rng {
	uint64_t s;
};

/* A stream of its own for every label, so tests do not depend on order. */
static void rng_init(struct rng *r, const char *label)
{
	uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a */

	while (*label != '\0') {
		h = (h ^ (uint8_t)*label++) * 0x100000001b3ULL;
	}
	r->s = seed ^ h;
}

static uint64_t rng_next(struct rng *r) /* splitmix64 */
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform enough in [lo, hi]. */
static size_t rng_range(struct rng *r, size_t lo, size_t hi)
{
	return lo + (size_t)(rng_next(r) % (uint64_t)(hi - lo + 1));
}

static void rng_fill(struct rng *r, uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		p[i] = (uint8_t)rng_next(r);
	}
}

/* ----------------------------------------------------------------- hex */

static char *hex_new(const uint8_t *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	char *s = malloc(2 * n + 1);
	size_t i;

	assert_non_null(s);
	for (i = 0; i < n; i++) {
		s[2 * i] = digits[p[i] >> 4];
		s[2 * i + 1] = digits[p[i] & 15];
	}
	s[2 * n] = '\0';
	return s;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

/* Decode exactly n characters of hex; -1 unless they are whole bytes of hex. */
static long hex_decode(const char *s, size_t n, uint8_t *out, size_t cap)
{
	size_t i;

	if (n % 2 != 0 || n / 2 > cap) {
		return -1;
	}
	for (i = 0; i < n; i += 2) {
		int hi = hex_digit(s[i]), lo = hex_digit(s[i + 1]);

		if (hi < 0 || lo < 0) {
			return -1;
		}
		out[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

/* ------------------------------------------------- running hilrun */

/* A command line: hilrun crypt NAME [options]; owns its hex strings. */
struct cmd {
	char *argv[48];
	int argc;
	char *owned[16];
	int n_owned;
};

static void cmd_add(struct cmd *c, const char *s)
{
	assert_true(c->argc + 1 < (int)(sizeof(c->argv) / sizeof(c->argv[0])));
	c->argv[c->argc++] = (char *)s;
	c->argv[c->argc] = NULL;
}

static void cmd_init(struct cmd *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	cmd_add(c, bin);
	cmd_add(c, "crypt");
	cmd_add(c, name);
}

static void cmd_hex(struct cmd *c, const char *opt, const uint8_t *p, size_t n)
{
	assert_true(c->n_owned < (int)(sizeof(c->owned) / sizeof(c->owned[0])));
	c->owned[c->n_owned] = hex_new(p, n);
	cmd_add(c, opt);
	cmd_add(c, c->owned[c->n_owned++]);
}

static void cmd_qemu(struct cmd *c)
{
	cmd_add(c, "--on");
	cmd_add(c, "qemu");
	cmd_add(c, "--config");
	cmd_add(c, QEMU_CONFIG);
}

static void cmd_free(struct cmd *c)
{
	int i;

	for (i = 0; i < c->n_owned; i++) {
		free(c->owned[i]);
	}
	c->n_owned = 0;
}

/* The command as one would type it in the repo root (to reproduce). */
static void cmd_print(const struct cmd *c, FILE *f)
{
	int i;

	for (i = 0; i < c->argc; i++) {
		const char *a = c->argv[i];

		fprintf(f, "%s%s", i ? " " : "", a[0] == '\0' ? "\"\"" : a);
	}
	fputc('\n', f);
}

struct result {
	int status; /* exit status; 128 + N when killed by signal N */
	int timed_out;
	char *out; /* stdout, NUL-terminated */
	char *err; /* stderr */
};

static void result_free(struct result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

struct sink {
	int fd;
	char *buf;
	size_t len, cap;
};

/* Read what is there; 0 at EOF. Output beyond CAPTURE_MAX is dropped. */
static int sink_read(struct sink *s)
{
	char chunk[4096];
	ssize_t n = read(s->fd, chunk, sizeof(chunk));

	if (n < 0) {
		return errno == EINTR || errno == EAGAIN ? 1 : 0;
	}
	if (n == 0) {
		return 0;
	}
	if (s->len + (size_t)n + 1 > s->cap && s->len < CAPTURE_MAX) {
		size_t cap = s->cap ? s->cap : 8192;

		while (cap < s->len + (size_t)n + 1) {
			cap *= 2;
		}
		s->buf = realloc(s->buf, cap);
		assert_non_null(s->buf);
		s->cap = cap;
	}
	if (s->len + (size_t)n + 1 <= s->cap) {
		memcpy(s->buf + s->len, chunk, (size_t)n);
		s->len += (size_t)n;
	}
	return 1;
}

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static int wait_status(int st)
{
	if (WIFEXITED(st)) {
		return WEXITSTATUS(st);
	}
	if (WIFSIGNALED(st)) {
		return 128 + WTERMSIG(st);
	}
	return -1;
}

/*
 * Processes left behind: this process is a child subreaper, so anything
 * hilrun started and did not reap is reparented to us when hilrun exits.
 * Each one found is killed, reaped and named in names.
 */
static int reap_orphans(char *names, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t self = getpid();
	int n = 0;

	if (names != NULL && len > 0) {
		names[0] = '\0';
	}
	if (d == NULL) {
		return 0;
	}
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		char path[300], buf[1024], *close_paren;
		long ppid = 0;
		char state = '?';
		size_t got;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		got = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[got] = '\0';
		/* "pid (comm) S ppid ...": comm may hold spaces and ')'. */
		close_paren = strrchr(buf, ')');
		if (close_paren == NULL ||
		    sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2 ||
		    ppid != (long)self) {
			continue;
		}
		n++;
		if (names != NULL) {
			size_t o = strlen(names);

			snprintf(names + o, len - o, "%s%s (pid %s, state %c)",
				 o ? ", " : "", strchr(buf, '(') + 1, e->d_name,
				 state);
		}
		if (state != 'Z') {
			kill((pid_t)atol(e->d_name), SIGKILL);
		}
		waitpid((pid_t)atol(e->d_name), NULL, 0);
	}
	closedir(d);
	return n;
}

/*
 * Run argv from the repo root with stdin from /dev/null, stdout and stderr
 * captured through pipes; no shell. SIGTERM, then SIGKILL, on timeout.
 */
static void run_capture(char *const argv[], unsigned timeout_ms,
			struct result *r)
{
	struct sink s[2];
	int po[2], pe[2];
	uint64_t deadline = ms_now() + timeout_ms;
	pid_t pid;
	int open_fds = 2, st = 0;

	memset(r, 0, sizeof(*r));
	memset(s, 0, sizeof(s));
	assert_int_equal(pipe(po), 0);
	assert_int_equal(pipe(pe), 0);
	fflush(NULL); /* nothing buffered is written twice */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null >= 0) {
			dup2(null, 0);
			close(null);
		}
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(po[1]);
		close(pe[0]);
		close(pe[1]);
		if (chdir(src_dir) != 0) {
			fprintf(stderr, "e2e_crypt: chdir %s: %s\n", src_dir,
				strerror(errno));
			_exit(126);
		}
		execv(argv[0], argv);
		fprintf(stderr, "e2e_crypt: cannot run %s: %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	s[0].fd = po[0];
	s[1].fd = pe[0];
	while (open_fds > 0) {
		struct pollfd p[2];
		int np = 0, k, ret;
		int64_t left = (int64_t)deadline - (int64_t)ms_now();

		if (left <= 0) {
			r->timed_out = 1;
			break;
		}
		for (k = 0; k < 2; k++) {
			if (s[k].fd >= 0) {
				p[np].fd = s[k].fd;
				p[np].events = POLLIN;
				p[np].revents = 0;
				np++;
			}
		}
		ret = poll(p, (nfds_t)np, (int)(left > 1000 ? 1000 : left));
		if (ret < 0 && errno != EINTR) {
			break;
		}
		for (k = 0; ret > 0 && k < np; k++) {
			int j = p[k].fd == s[0].fd ? 0 : 1;

			if (p[k].revents == 0) {
				continue;
			}
			if (!sink_read(&s[j])) {
				close(s[j].fd);
				s[j].fd = -1;
				open_fds--;
			}
		}
	}
	if (r->timed_out) {
		uint64_t grace = ms_now() + 3000u;

		kill(pid, SIGTERM);
		while (waitpid(pid, &st, WNOHANG) == 0) {
			if (ms_now() >= grace) {
				kill(pid, SIGKILL);
				waitpid(pid, &st, 0);
				break;
			}
			struct timespec ts = {0, 20000000L};

			nanosleep(&ts, NULL);
		}
	} else {
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
		}
	}
	r->status = wait_status(st);
	for (open_fds = 0; open_fds < 2; open_fds++) {
		if (s[open_fds].fd >= 0) {
			close(s[open_fds].fd);
		}
	}
	r->out = s[0].buf ? s[0].buf : calloc(1, 1);
	r->err = s[1].buf ? s[1].buf : calloc(1, 1);
	assert_non_null(r->out);
	assert_non_null(r->err);
	r->out[s[0].len] = '\0';
	r->err[s[1].len] = '\0';
}

/* Length of s without its trailing newlines. */
static size_t trimmed(const char *s)
{
	size_t n = strlen(s);

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r')) {
		n--;
	}
	return n;
}

/* Print the whole story of a failed call, free c and r, and fail. */
static void fail_call(struct cmd *c, struct result *r, const char *why,
		      const uint8_t *exp, size_t exp_len)
{
	fprintf(stderr, "\ne2e_crypt: FAILED: %s\n", why);
	fprintf(stderr, "  seed:     0x%016llx (HIL_CRYPT_SEED)\n",
		(unsigned long long)seed);
	fprintf(stderr, "  where:    %s\n", where);
	fprintf(stderr, "  command (from %s):\n    ", src_dir);
	cmd_print(c, stderr);
	if (exp != NULL) {
		char *h = hex_new(exp, exp_len);

		fprintf(stderr, "  expected: %s (%zu bytes, from %s)\n", h,
			exp_len, exp_from);
		free(h);
	}
	if (r != NULL) {
		fprintf(stderr, "  exit:     %d%s\n", r->status,
			r->timed_out ? " (timed out, killed)" : "");
		fprintf(stderr, "  stdout:   %.*s\n", (int)trimmed(r->out),
			r->out);
		fprintf(stderr, "  stderr:   %.*s\n", (int)trimmed(r->err),
			r->err);
		result_free(r);
	}
	cmd_free(c);
	fail_msg("%s (%s)", why, where);
}

/* Run c on the side it names; check that hilrun left nothing behind. */
static void run_cmd(struct cmd *c, int qemu, struct result *r)
{
	char orphans[1024];

	run_capture(c->argv, qemu ? QEMU_TIMEOUT_MS : HOST_TIMEOUT_MS, r);
	if (reap_orphans(orphans, sizeof(orphans)) != 0) {
		char why[1200];

		snprintf(why, sizeof(why), "processes outlived hilrun: %s",
			 orphans);
		fail_call(c, r, why, NULL, 0);
	}
}

/*
 * The output bytes: the last whitespace-separated token of stdout, in hex.
 * An empty output is printed as "" (as empty inputs are given), and only
 * as the third of exactly three tokens.
 * @return 0, or -1 with the reason in why.
 */
static int parse_output(const struct alg *a, const char *text, uint8_t *out,
			size_t cap, size_t *len, char *why, size_t why_len)
{
	const char *p = text, *first = NULL, *last = NULL;
	size_t first_len = 0, last_len = 0;
	int ntok = 0;
	long n;

	for (;;) {
		size_t k;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			p++;
		}
		if (*p == '\0') {
			break;
		}
		k = strcspn(p, " \t\r\n");
		if (ntok++ == 0) {
			first = p;
			first_len = k;
		}
		last = p;
		last_len = k;
		p += k;
	}
	if (ntok == 0) {
		snprintf(why, why_len, "nothing on stdout");
		return -1;
	}
	n = hex_decode(last, last_len, out, cap);
	if (n >= 0) {
		*len = (size_t)n;
		return 0;
	}
	if (ntok == 3 && first_len == strlen(a->base) &&
	    strncmp(first, a->base, first_len) == 0 && last_len == 2 &&
	    strncmp(last, "\"\"", 2) == 0) {
		*len = 0;
		return 0;
	}
	snprintf(why, why_len, "the last token of stdout is not hex");
	return -1;
}

/* One `hilrun crypt` request. */
struct req {
	const char *name; /* NULL: the test's algorithm */
	int qemu;
	const uint8_t *key, *nonce, *ad, *in;
	size_t ad_len, in_len;
	int decrypt;
	size_t outlen; /* --outlen; 0: none */
	int check_len; /* the output must be want_len bytes */
	size_t want_len;
};

static void cmd_for(struct cmd *c, const struct alg *a, const struct req *q)
{
	cmd_init(c, q->name ? q->name : a->name);
	if (a->key > 0) {
		cmd_hex(c, "--key", q->key, a->key);
	}
	if (a->nonce > 0) {
		cmd_hex(c, "--nonce", q->nonce, a->nonce);
	}
	if (a->kind == K_AEAD) {
		cmd_hex(c, "--ad", q->ad, q->ad_len);
	}
	if (q->decrypt) {
		cmd_add(c, "--decrypt");
		cmd_hex(c, "--ct", q->in, q->in_len);
	} else {
		cmd_hex(c, "--pt", q->in, q->in_len);
	}
	if (q->outlen > 0) {
		char *n = malloc(24);

		assert_non_null(n);
		assert_true(c->n_owned < 16);
		snprintf(n, 24, "%zu", q->outlen);
		c->owned[c->n_owned++] = n;
		cmd_add(c, "--outlen");
		cmd_add(c, n);
	}
	if (q->qemu) {
		cmd_qemu(c);
	}
}

/*
 * Run the request; it must succeed and print its output. When exp is not
 * NULL the output must be those bytes.
 */
static void crypt_ok(const struct alg *a, const struct req *q, uint8_t *out,
		     size_t cap, size_t *out_len, const uint8_t *exp,
		     size_t exp_len)
{
	struct cmd c;
	struct result r;
	char why[256];

	cmd_for(&c, a, q);
	run_cmd(&c, q->qemu, &r);
	if (r.status != 0) {
		fail_call(&c, &r, "hilrun crypt failed", exp, exp_len);
	}
	if (parse_output(a, r.out, out, cap, out_len, why, sizeof(why)) != 0) {
		fail_call(&c, &r, why, exp, exp_len);
	}
	if (exp != NULL &&
	    (*out_len != exp_len || memcmp(out, exp, exp_len) != 0)) {
		fail_call(&c, &r, "the output differs from the expected one",
			  exp, exp_len);
	}
	if (q->check_len && *out_len != q->want_len) {
		snprintf(why, sizeof(why), "%zu output bytes, expected %zu",
			 *out_len, q->want_len);
		fail_call(&c, &r, why, exp, exp_len);
	}
	result_free(&r);
	cmd_free(&c);
}

/* A failed comparison of derived outputs: print the request that made them. */
static void fail_req(const struct alg *a, const struct req *q, const char *why,
		     const uint8_t *exp, size_t exp_len)
{
	struct cmd c;

	cmd_for(&c, a, q);
	fail_call(&c, NULL, why, exp, exp_len);
}

/* A forged input: exit status 1 (authentication failed, not "could not
 * start"), nothing on stdout, the reason on stderr. */
static void crypt_rejected(const struct alg *a, const struct req *q)
{
	struct cmd c;
	struct result r;

	cmd_for(&c, a, q);
	run_cmd(&c, q->qemu, &r);
	if (r.status != 1) {
		fail_call(&c, &r, "a forged ciphertext was not refused with 1",
			  NULL, 0);
	}
	if (r.out[0] != '\0') {
		fail_call(&c, &r, "a forged ciphertext printed an output", NULL,
			  0);
	}
	if (strstr(r.err, "authentication") == NULL) {
		fail_call(&c, &r, "stderr does not say authentication failed",
			  NULL, 0);
	}
	result_free(&r);
	cmd_free(&c);
}

/* ------------------------------------------------------ OpenSSL */

/* ECB over whole blocks, no padding. */
static void ossl_ecb(const struct alg *a, const uint8_t *key, const uint8_t *in,
		     size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0, m = 0;

	assert_non_null(ctx);
	assert_int_equal(EVP_EncryptInit_ex(ctx, a->evp(), NULL, key, NULL), 1);
	assert_int_equal(EVP_CIPHER_CTX_set_padding(ctx, 0), 1);
	if (len > 0) {
		assert_int_equal(EVP_EncryptUpdate(ctx, out, &n, in, (int)len),
				 1);
	}
	assert_int_equal(EVP_EncryptFinal_ex(ctx, out + n, &m), 1);
	assert_int_equal((size_t)(n + m), len);
	EVP_CIPHER_CTX_free(ctx);
}

/* AEAD encryption: out receives ciphertext || 16-byte tag. */
static void ossl_aead(const struct alg *a, const uint8_t *key,
		      const uint8_t *nonce, const uint8_t *ad, size_t ad_len,
		      const uint8_t *in, size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int n = 0, m = 0;

	assert_non_null(ctx);
	assert_int_equal(EVP_EncryptInit_ex(ctx, a->evp(), NULL, NULL, NULL),
			 1);
	assert_int_equal(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN,
					     (int)a->nonce, NULL),
			 1);
	assert_int_equal(EVP_EncryptInit_ex(ctx, NULL, NULL, key, nonce), 1);
	if (ad_len > 0) {
		assert_int_equal(
			EVP_EncryptUpdate(ctx, NULL, &m, ad, (int)ad_len), 1);
	}
	if (len > 0) {
		assert_int_equal(EVP_EncryptUpdate(ctx, out, &n, in, (int)len),
				 1);
	}
	assert_int_equal(EVP_EncryptFinal_ex(ctx, out + n, &m), 1);
	assert_int_equal((size_t)(n + m), len);
	assert_int_equal(EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG,
					     (int)a->tag, out + len),
			 1);
	EVP_CIPHER_CTX_free(ctx);
}

/* ------------------------------------------- random inputs agree */

struct bufs {
	uint8_t key[32], nonce[16], ad[MAX_AD], msg[MAX_MSG];
	uint8_t exp[OUT_MAX], got[OUT_MAX], tmp[OUT_MAX];
};

/*
 * Static, so that a failing test (which leaves through a longjmp) leaks
 * nothing; the teardown closes a KAT file left open.
 */
static struct bufs bufs;
static struct kat_file kat;
static struct kat_record kat_rec;

/* A message length: the edges first, then anything up to MAX_MSG. */
static size_t pick_len(struct rng *r, const struct alg *a, int i)
{
	static const size_t edges[] = {1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 64};

	if (a->kind == K_BLOCK) {
		/* Whole blocks: none, one, two, then any number. */
		return a->block * (i < 3 ? (size_t)i
					 : rng_range(r, 1, MAX_MSG / a->block));
	}
	if (i == 0) {
		return 0;
	}
	if (i % 2 == 1 && i < 8) {
		return edges[rng_range(r, 0,
				       sizeof(edges) / sizeof(edges[0]) - 1)];
	}
	return rng_range(r, 0, MAX_MSG);
}

/* Encrypt in one `hilrun crypt` call per block, on the host or QEMU. */
static void blockwise(const struct alg *a, int qemu, const uint8_t *key,
		      const uint8_t *msg, size_t len, uint8_t *out)
{
	struct req q;
	size_t off, n;

	memset(&q, 0, sizeof(q));
	q.qemu = qemu;
	q.key = key;
	for (off = 0; off < len; off += a->block) {
		q.in = msg + off;
		q.in_len = a->block;
		crypt_ok(a, &q, out + off, a->block, &n, NULL, 0);
		assert_int_equal(n, a->block);
	}
}

/* The expected output of q, from something other than the run under test. */
static int expected(const struct tcase *tc, const struct req *q, struct bufs *b,
		    size_t *exp_len)
{
	const struct alg *a = tc->alg;
	size_t n;

	if (a->evp != NULL && a->kind == K_BLOCK) {
		exp_from = "OpenSSL";
		ossl_ecb(a, q->key, q->in, q->in_len, b->exp);
		*exp_len = q->in_len;
		return 1;
	}
	if (a->evp != NULL) {
		exp_from = "OpenSSL";
		ossl_aead(a, q->key, q->nonce, q->ad, q->ad_len, q->in,
			  q->in_len, b->exp);
		*exp_len = q->in_len + a->tag;
		return 1;
	}
	if (a->twin != NULL) {
		struct req t = *q;

		t.name = a->twin;
		t.qemu = 0;
		exp_from = "the other implementation (--on host)";
		crypt_ok(a, &t, b->exp, sizeof(b->exp), exp_len, NULL, 0);
		return 1;
	}
	if (a->blockwise) {
		exp_from = "one call per block (--on host)";
		blockwise(a, 0, q->key, q->in, q->in_len, b->exp);
		*exp_len = q->in_len;
		return 1;
	}
	if (tc->qemu) {
		/* Nothing independent: the host build of the same sources. */
		struct req h = *q;

		h.qemu = 0;
		exp_from = "the host build";
		crypt_ok(a, &h, b->exp, sizeof(b->exp), &n, NULL, 0);
		*exp_len = n;
		return 1;
	}
	return 0;
}

static size_t out_len_of(const struct alg *a, const struct req *q)
{
	switch (a->kind) {
	case K_AEAD:
		return q->in_len + a->tag;
	case K_BLOCK:
		return q->in_len;
	case K_HASH:
		return 32;
	case K_XOF:
	default:
		return q->outlen ? q->outlen : 64;
	}
}

/* Where to flip a bit of ciphertext||tag: in the tag, or in the ciphertext. */
static size_t flip_at(struct rng *r, const struct alg *a, size_t ct_len,
		      int in_ct)
{
	if (!in_ct || ct_len == 0) {
		return ct_len + rng_range(r, 0, a->tag - 1);
	}
	return rng_range(r, 0, ct_len - 1);
}

static void test_random_inputs_agree(void **state)
{
	const struct tcase *tc = *state;
	const struct alg *a = tc->alg;
	struct bufs *b = &bufs;
	int n = tc->qemu ? N_QEMU : N_HOST;
	struct rng r;
	int i;

	memset(b, 0, sizeof(*b));
	rng_init(&r, tc->name);
	for (i = 0; i < n; i++) {
		struct req q;
		size_t exp_len = 0, got_len = 0, len;
		int have;

		memset(&q, 0, sizeof(q));
		q.qemu = tc->qemu;
		rng_fill(&r, b->key, sizeof(b->key));
		rng_fill(&r, b->nonce, sizeof(b->nonce));
		q.key = b->key;
		q.nonce = b->nonce;
		q.ad = b->ad;
		q.in = b->msg;
		q.in_len = pick_len(&r, a, i);
		rng_fill(&r, b->msg, q.in_len);
		if (a->kind == K_AEAD) {
			q.ad_len = i == 0 ? 0 : rng_range(&r, 0, MAX_AD);
			rng_fill(&r, b->ad, q.ad_len);
		}
		if (a->kind == K_XOF && i > 0) {
			q.outlen = rng_range(&r, 1, MAX_XOF);
		}
		snprintf(where, sizeof(where), "%s, input %d of %d", tc->name,
			 i + 1, n);

		have = expected(tc, &q, b, &exp_len);
		q.check_len = 1;
		q.want_len = out_len_of(a, &q);
		crypt_ok(a, &q, b->got, sizeof(b->got), &got_len,
			 have ? b->exp : NULL, exp_len);
		q.check_len = 0;

		if (a->blockwise && tc->qemu && i == 2) {
			/* Two blocks: also one QEMU call per block. */
			snprintf(where, sizeof(where),
				 "%s, input %d of %d: block by block on QEMU",
				 tc->name, i + 1, n);
			blockwise(a, 1, q.key, q.in, q.in_len, b->tmp);
			exp_from = "one QEMU call per block";
			if (memcmp(b->tmp, b->got, q.in_len) != 0) {
				fail_req(
					a, &q,
					"one call per block differs from this call (expected)",
					b->tmp, q.in_len);
			}
		}

		if (a->kind == K_XOF && !tc->qemu) {
			/* A shorter output is a prefix of a longer one. */
			struct req l = q;

			l.outlen = out_len_of(a, &q) + rng_range(&r, 1, 64);
			snprintf(
				where, sizeof(where),
				"%s, input %d of %d: --outlen %zu starts with the --outlen %zu output",
				tc->name, i + 1, n, l.outlen,
				out_len_of(a, &q));
			exp_from = "the shorter output";
			l.check_len = 1;
			l.want_len = l.outlen;
			crypt_ok(a, &l, b->tmp, sizeof(b->tmp), &len, NULL, 0);
			if (memcmp(b->tmp, b->got, got_len) != 0) {
				fail_req(
					a, &l,
					"the longer output does not start with the shorter one (expected)",
					b->got, got_len);
			}
		}

		if (a->kind == K_AEAD) {
			struct req d = q;

			/* Decrypt what was checked: the plaintext again. */
			d.decrypt = 1;
			d.in = b->got;
			d.in_len = got_len;
			snprintf(where, sizeof(where),
				 "%s, input %d of %d: --decrypt of the output",
				 tc->name, i + 1, n);
			exp_from = "the random plaintext";
			crypt_ok(a, &d, b->tmp, sizeof(b->tmp), &len, b->msg,
				 q.in_len);

			/* One flipped bit, in the tag or in the ciphertext. */
			if (!tc->qemu || i == n - 1) {
				size_t at = flip_at(&r, a, q.in_len, i % 2);

				memcpy(b->tmp, b->got, got_len);
				b->tmp[at] ^=
					(uint8_t)(1u << rng_range(&r, 0, 7));
				d.in = b->tmp;
				snprintf(
					where, sizeof(where),
					"%s, input %d of %d: --decrypt with byte %zu of %zu flipped (%s)",
					tc->name, i + 1, n, at, got_len,
					at >= q.in_len ? "tag" : "ciphertext");
				crypt_rejected(a, &d);
			}
		}
	}
}

/* ---------------------------------------------- KAT vectors agree */

static const struct kat_field *kat_need(const struct kat_record *r,
					const char *name)
{
	const struct kat_field *f = kat_find(r, name);

	if (f == NULL) {
		fail_msg("%s: record Count = %lu has no %s", where, r->count,
			 name);
	}
	return f;
}

static void kat_check(const struct tcase *tc, const struct kat_record *rec,
		      struct bufs *b)
{
	const struct alg *a = tc->alg;
	struct req q;
	size_t len;

	memset(&q, 0, sizeof(q));
	q.qemu = tc->qemu;
	exp_from = "the KAT file";
	if (a->kind == K_HASH || a->kind == K_XOF) {
		const struct kat_field *msg = kat_need(rec, "Msg");
		const struct kat_field *md = kat_need(rec, "MD");

		q.in = msg->data;
		q.in_len = msg->len;
		q.outlen = a->kind == K_XOF ? md->len : 0;
		crypt_ok(a, &q, b->got, sizeof(b->got), &len, md->data,
			 md->len);
		return;
	}
	{
		const struct kat_field *key = kat_need(rec, "Key");
		const struct kat_field *nonce = kat_need(rec, "Nonce");
		const struct kat_field *ad = kat_need(rec, "AD");
		const struct kat_field *pt = kat_need(rec, "PT");
		const struct kat_field *ct = kat_need(rec, "CT");

		assert_int_equal(key->len, a->key);
		assert_int_equal(nonce->len, a->nonce);
		q.key = key->data;
		q.nonce = nonce->data;
		q.ad = ad->data;
		q.ad_len = ad->len;
		q.in = pt->data;
		q.in_len = pt->len;

		/* The oracle of the random tests knows the vector too. */
		if (a->evp != NULL && !tc->qemu) {
			if (a->kind == K_BLOCK) {
				ossl_ecb(a, q.key, q.in, q.in_len, b->exp);
			} else {
				ossl_aead(a, q.key, q.nonce, q.ad, q.ad_len,
					  q.in, q.in_len, b->exp);
			}
			if (memcmp(b->exp, ct->data, ct->len) != 0) {
				fail_msg(
					"%s: OpenSSL disagrees with the KAT file",
					where);
			}
		}
		crypt_ok(a, &q, b->got, sizeof(b->got), &len, ct->data,
			 ct->len);
		if (a->kind == K_AEAD && !tc->qemu) {
			q.decrypt = 1;
			q.in = ct->data;
			q.in_len = ct->len;
			crypt_ok(a, &q, b->got, sizeof(b->got), &len, pt->data,
				 pt->len);
		}
	}
}

static void test_kat_vectors_agree(void **state)
{
	const struct tcase *tc = *state;
	const struct alg *a = tc->alg;
	struct kat_file *kf = &kat;
	struct kat_record *rec = &kat_rec;
	struct bufs *b = &bufs;
	unsigned long picks[KAT_PICKS], ordinal = 0, n_records = 0;
	char path[sizeof(src_dir) + 64], label[128];
	size_t n_picks, want, k;
	struct rng r;
	int got;

	memset(b, 0, sizeof(*b));
	snprintf(path, sizeof(path), "%s/tests/kat/%s", src_dir, a->kat);

	/* Count the records, then pick distinct ones. */
	if (kat_open(kf, path) != KAT_OK) {
		fail_msg("%s", kf->err);
	}
	while ((got = kat_next(kf, rec)) == 1) {
		n_records++;
	}
	kat_close(kf);
	if (got < 0) {
		fail_msg("%s", kf->err);
	}
	assert_true(n_records > 0);
	/* The same picks on both sides and for both Ascon-AEAD128 builds. */
	snprintf(label, sizeof(label), "kat:%s", a->kat);
	rng_init(&r, label);
	want = n_records < KAT_PICKS ? n_records : KAT_PICKS;
	for (n_picks = 0; n_picks < want;) {
		unsigned long p = (unsigned long)rng_range(&r, 1, n_records);

		for (k = 0; k < n_picks && picks[k] != p; k++) {
		}
		if (k == n_picks) {
			picks[n_picks++] = p;
		}
	}
	if (tc->qemu && n_picks > KAT_PICKS_QEMU) {
		n_picks = KAT_PICKS_QEMU;
	}

	if (kat_open(kf, path) != KAT_OK) {
		fail_msg("%s", kf->err);
	}
	while ((got = kat_next(kf, rec)) == 1) {
		ordinal++;
		for (k = 0; k < n_picks && picks[k] != ordinal; k++) {
		}
		if (k == n_picks) {
			continue;
		}
		snprintf(where, sizeof(where), "%s, %s Count = %lu (line %lu)",
			 tc->name, a->kat, rec->count, rec->line);
		kat_check(tc, rec, b);
	}
	kat_close(kf);
	if (got < 0) {
		fail_msg("%s", kf->err);
	}
}

/* --------------------------------------------------------- errors */

/*
 * hilrun crypt ARGS... (NULL-terminated) must exit with 2, print nothing
 * on stdout and name needle on stderr.
 */
static void refused(int qemu, const char *needle, ...)
{
	struct cmd c;
	struct result r;
	const char *arg;
	va_list ap;
	char why[256];

	memset(&c, 0, sizeof(c));
	cmd_add(&c, bin);
	if (qemu) {
		cmd_add(&c, "-v"); /* the proc log says if QEMU started */
	}
	cmd_add(&c, "crypt");
	va_start(ap, needle);
	for (arg = va_arg(ap, const char *); arg != NULL;
	     arg = va_arg(ap, const char *)) {
		cmd_add(&c, arg);
	}
	va_end(ap);
	if (qemu) {
		cmd_qemu(&c);
	}
	snprintf(where, sizeof(where), "refused with a message naming %s",
		 needle);
	run_cmd(&c, qemu, &r);
	if (r.status != 2) {
		fail_call(&c, &r, "exit status is not 2", NULL, 0);
	}
	if (r.out[0] != '\0') {
		fail_call(&c, &r, "something was printed on stdout", NULL, 0);
	}
	if (strstr(r.err, needle) == NULL) {
		snprintf(why, sizeof(why), "stderr does not name %s", needle);
		fail_call(&c, &r, why, NULL, 0);
	}
	/* Found before a boot: the emulator never started (its start is
	 * logged at -v), whatever the time it took. */
	if (qemu && strstr(r.err, "qemu-system-arm: started") != NULL) {
		fail_call(&c, &r, "a bad argument was found only after a boot",
			  NULL, 0);
	}
	result_free(&r);
}

#define K16 "000102030405060708090a0b0c0d0e0f"
#define N12 "101112131415161718191a1b"

static void test_unknown_name_is_refused_listing_the_known_ones(void **state)
{
	struct cmd c;
	struct result r;
	size_t i;

	(void)state;
	refused(0, "no-such-cipher", "no-such-cipher", "--pt", "00", NULL);
	refused(0, "ascon-aead128/nope", "ascon-aead128/nope", "--key", K16,
		"--nonce", K16, "--pt", "", NULL);

	cmd_init(&c, "no-such-cipher");
	run_cmd(&c, 0, &r);
	for (i = 0; i < N_ALGS; i++) {
		char known[64];

		snprintf(known, sizeof(known), "%s%s", algs[i].name,
			 strchr(algs[i].name, '/') ? "" : "/ref");
		if (strstr(r.err, known) == NULL) {
			snprintf(where, sizeof(where),
				 "the known names on stderr: %s", known);
			fail_call(&c, &r, "a known name is missing", NULL, 0);
		}
	}
	result_free(&r);
}

static void test_odd_length_hex_is_refused_naming_the_option(void **state)
{
	(void)state;
	refused(0, "--key", "aes128-gcm", "--key", K16 "0", "--nonce", N12,
		"--ad", "", "--pt", "", NULL);
	refused(0, "--nonce", "aes128-gcm", "--key", K16, "--nonce", N12 "0",
		"--ad", "", "--pt", "", NULL);
	refused(0, "--ad", "ascon-aead128", "--key", K16, "--nonce", K16,
		"--ad", "abc", "--pt", "", NULL);
	refused(0, "--pt", "ascon-hash256", "--pt", "0", NULL);
	refused(0, "--ct", "chacha20-poly1305", "--key", K16 K16, "--nonce",
		N12, "--ad", "", "--decrypt", "--ct", K16 "1", NULL);
	/* Not hex at all. */
	refused(0, "--key", "aes128-ecb", "--key",
		"zz0102030405060708090a0b0c0d0e0f", "--pt", "", NULL);
}

static void test_wrong_key_length_is_refused_naming_the_option(void **state)
{
	(void)state;
	refused(0, "--key", "aes128-ecb", "--key", K16 "00", "--pt", "", NULL);
	refused(0, "--key", "speck64-128-ecb", "--key", N12, "--pt", "", NULL);
	refused(0, "--key", "chacha20-poly1305", "--key", K16, "--nonce", N12,
		"--ad", "", "--pt", "", NULL);
	refused(0, "--key", "ascon-aead128/bi32", "--key", "", "--nonce", K16,
		"--pt", "", NULL);
	refused(0, "--nonce", "aes128-gcm", "--key", K16, "--nonce", K16,
		"--ad", "", "--pt", "", NULL);
}

static void test_partial_block_is_refused_naming_the_option(void **state)
{
	(void)state;
	refused(0, "--pt", "aes128-ecb", "--key", K16, "--pt", K16 "00", NULL);
	refused(0, "--pt", "aes128-ecb", "--key", K16, "--pt", "00", NULL);
	refused(0, "--pt", "speck64-128-ecb", "--key", K16, "--pt", N12, NULL);
}

/* Refused before any firmware is built or QEMU started. */
static void test_partial_block_on_qemu_is_refused_before_booting(void **state)
{
	(void)state;
	refused(1, "--pt", "speck64-128-ecb", "--key", K16, "--pt", N12, NULL);
	refused(1, "--pt", "aes128-ecb", "--key", K16, "--pt", K16 "00", NULL);
	/* --on names the host or an emulator (the flasher of an emulated
	 * board), nothing else. */
	refused(0, "--on openocd: expected host or qemu", "aes128-ecb", "--key",
		K16, "--pt", K16, "--on", "openocd", "--config", QEMU_CONFIG,
		NULL);
}

static void test_outlen_on_a_non_xof_is_refused(void **state)
{
	(void)state;
	refused(0, "--outlen", "ascon-hash256", "--pt", "", "--outlen", "32",
		NULL);
	refused(0, "--outlen", "aes128-gcm", "--key", K16, "--nonce", N12,
		"--ad", "", "--pt", "", "--outlen", "16", NULL);
	refused(0, "--outlen", "speck64-128-ecb", "--key", K16, "--pt",
		"0001020304050607", "--outlen", "8", NULL);
}

/* ---------------------------------------------------------- main */

/* Nothing hilrun started is left running after a test. */
static int no_orphans(void **state)
{
	char names[1024];

	(void)state;
	kat_close(&kat);
	if (reap_orphans(names, sizeof(names)) != 0) {
		fprintf(stderr, "e2e_crypt: left behind: %s\n", names);
		return -1;
	}
	return 0;
}

static int setup_paths(void)
{
	const char *src = getenv("HIL_SRC_DIR");
	const char *b = getenv("HILRUN_BIN");
	const char *s = getenv("HIL_CRYPT_SEED");

	if (src == NULL || src[0] == '\0') {
		src = ".";
	}
	if (realpath(src, src_dir) == NULL) {
		fprintf(stderr, "e2e_crypt: HIL_SRC_DIR=%s: %s\n", src,
			strerror(errno));
		return -1;
	}
	if (b == NULL || b[0] == '\0') {
		b = "build/hilrun";
	}
	if (b[0] == '/') {
		snprintf(bin, sizeof(bin), "%s", b);
	} else {
		snprintf(bin, sizeof(bin), "%s/%s", src_dir, b);
	}
	if (access(bin, X_OK) != 0) {
		fprintf(stderr,
			"e2e_crypt: %s: %s (build it with make build/hilrun, or set HILRUN_BIN)\n",
			bin, strerror(errno));
		return -1;
	}
	if (s != NULL && s[0] != '\0') {
		char *end = NULL;

		seed = strtoull(s, &end, 0);
		if (end == s || *end != '\0') {
			fprintf(stderr,
				"e2e_crypt: HIL_CRYPT_SEED=%s is not a number\n",
				s);
			return -1;
		}
	}
	return 0;
}

static const char *oracle_of(const struct alg *a, int qemu)
{
	if (a->evp != NULL) {
		return "OpenSSL";
	}
	if (a->twin != NULL) {
		return strchr(a->twin, '/') + 1;
	}
	if (a->blockwise) {
		return "block-by-block calls";
	}
	return qemu ? "the host build" : "their own properties";
}

int main(void)
{
	static struct tcase host_rand[N_ALGS], qemu_rand[N_ALGS];
	static struct tcase host_kat[N_ALGS], qemu_kat[N_ALGS];
	struct CMUnitTest host[N_ALGS * 2 + 5], qemu[N_ALGS * 2 + 1];
	const struct CMUnitTest errors[] = {
		cmocka_unit_test(
			test_unknown_name_is_refused_listing_the_known_ones),
		cmocka_unit_test(
			test_odd_length_hex_is_refused_naming_the_option),
		cmocka_unit_test(
			test_wrong_key_length_is_refused_naming_the_option),
		cmocka_unit_test(
			test_partial_block_is_refused_naming_the_option),
		cmocka_unit_test(test_outlen_on_a_non_xof_is_refused),
	};
	size_t i, nh = 0, nq = 0;
	int failed = 0;

	signal(SIGPIPE, SIG_IGN);
	if (setup_paths() != 0) {
		return 1;
	}
	/* Whatever hilrun leaves behind becomes ours, so it can be seen. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) {
		perror("e2e_crypt: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	if (getenv("HIL_CRYPT_ONLY") != NULL) {
		/* e.g. "qemu aes128-gcm*": reproduce one test alone */
		cmocka_set_test_filter(getenv("HIL_CRYPT_ONLY"));
	}
	fprintf(stderr,
		"e2e_crypt: seed 0x%016llx (set HIL_CRYPT_SEED to change), %s from %s\n",
		(unsigned long long)seed, bin, src_dir);

	for (i = 0; i < N_ALGS; i++) {
		struct tcase *t[4] = {&host_kat[i], &host_rand[i], &qemu_kat[i],
				      &qemu_rand[i]};
		int k;

		for (k = 0; k < 4; k++) {
			t[k]->alg = &algs[i];
			t[k]->qemu = k >= 2;
		}
		snprintf(host_kat[i].name, sizeof(host_kat[i].name),
			 "host %s: up to %d vectors of %s", algs[i].name,
			 KAT_PICKS, algs[i].kat);
		snprintf(qemu_kat[i].name, sizeof(qemu_kat[i].name),
			 "qemu %s: %d vector%s of %s", algs[i].name,
			 KAT_PICKS_QEMU, KAT_PICKS_QEMU == 1 ? "" : "s",
			 algs[i].kat);
		snprintf(host_rand[i].name, sizeof(host_rand[i].name),
			 "host %s: %d random inputs agree with %s",
			 algs[i].name, N_HOST, oracle_of(&algs[i], 0));
		snprintf(qemu_rand[i].name, sizeof(qemu_rand[i].name),
			 "qemu %s: %d random inputs agree with %s",
			 algs[i].name, N_QEMU, oracle_of(&algs[i], 1));
	}
	for (i = 0; i < N_ALGS; i++) {
		host[nh++] = (struct CMUnitTest){host_kat[i].name,
						 test_kat_vectors_agree, NULL,
						 no_orphans, &host_kat[i]};
	}
	for (i = 0; i < N_ALGS; i++) {
		host[nh++] = (struct CMUnitTest){host_rand[i].name,
						 test_random_inputs_agree, NULL,
						 no_orphans, &host_rand[i]};
	}
	for (i = 0; i < N_ALGS; i++) {
		qemu[nq++] = (struct CMUnitTest){qemu_kat[i].name,
						 test_kat_vectors_agree, NULL,
						 no_orphans, &qemu_kat[i]};
		qemu[nq++] = (struct CMUnitTest){qemu_rand[i].name,
						 test_random_inputs_agree, NULL,
						 no_orphans, &qemu_rand[i]};
	}
	qemu[nq++] = (struct CMUnitTest)cmocka_unit_test_teardown(
		test_partial_block_on_qemu_is_refused_before_booting,
		no_orphans);

	failed += cmocka_run_group_tests_name("e2e_crypt: bad arguments",
					      errors, NULL, NULL);
	failed += _cmocka_run_group_tests("e2e_crypt: on the host", host, nh,
					  NULL, NULL);
	failed += _cmocka_run_group_tests("e2e_crypt: under QEMU", qemu, nq,
					  NULL, NULL);
	if (no_orphans(NULL) != 0) {
		failed++;
	}
	return failed != 0;
}
