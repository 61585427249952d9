/* pqlink: a post-quantum run on a board with a link: the images scripts/pq-bench.sh built for it flashed through the board's flasher, the pq stub's PQRUN records read through the session, and written as the calls.tsv and rows.tsv lines pqrun.c makes rows of. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "pq"
#include "pqlink.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"
#include "hilp.h"
#include "image/elfinfo.h"
#include "pqjournal.h"
#include "runner_int.h"
#include "session/session.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define HANDSHAKE_MS 10000u
/* The most calls one image reports (3 operations x the most runs). */
#define MAX_CALLS    (3u * HILP_PQ_MAX_RUNS)
#define LINE	     (4 * HIL_PATH)

int hil_pq_board_config(const char *path, const char *board,
			struct hil_config *cfg, char *err, size_t len)
{
	static const char *const keep[] = {"board", "flasher", "link"};
	char *text = NULL, *json = NULL, dir[HIL_PATH], *slash;
	cJSON *in = NULL, *out = NULL, *algs, *alg, *b;
	size_t n = 0, i;
	int ret;

	ret = hil_read_file(path, &text, &n);
	if (ret != HIL_OK) {
		snprintf(err, len, "%s: cannot read it (%s)", path,
			 hil_strerror(ret));
		return HIL_ERR_IO;
	}
	in = cJSON_Parse(text);
	out = cJSON_CreateObject();
	ret = HIL_ERR_NOMEM;
	if (in == NULL) {
		snprintf(err, len, "%s: not JSON", path);
		ret = HIL_ERR_CONFIG;
		goto done;
	}
	if (out == NULL) {
		goto done;
	}
	if (board == NULL &&
	    cJSON_GetObjectItemCaseSensitive(in, "board") == NULL) {
		ret = HIL_ERR_NA; /* the emulated mps2, as ever */
		goto done;
	}
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++) {
		cJSON *sec = cJSON_GetObjectItemCaseSensitive(in, keep[i]);

		if (sec != NULL &&
		    !cJSON_AddItemToObject(out, keep[i],
					   cJSON_Duplicate(sec, 1))) {
			goto done;
		}
	}
	if (board != NULL) {
		b = cJSON_GetObjectItemCaseSensitive(out, "board");
		if (!cJSON_IsObject(b)) {
			cJSON_DeleteItemFromObjectCaseSensitive(out, "board");
			b = cJSON_AddObjectToObject(out, "board");
		}
		if (b == NULL) {
			goto done;
		}
		cJSON_DeleteItemFromObjectCaseSensitive(b, "name");
		if (cJSON_AddStringToObject(b, "name", board) == NULL) {
			goto done;
		}
	}
	/* The loader wants an algorithm; a pq run's are its folders
	 * (hil_pq_plan_load()), so this built-in one is dropped below. */
	algs = cJSON_AddArrayToObject(out, "algorithms");
	alg = cJSON_CreateObject();
	if (algs == NULL || alg == NULL ||
	    cJSON_AddStringToObject(alg, "name", "ascon-aead128") == NULL ||
	    cJSON_AddStringToObject(alg, "impl", "ref") == NULL) {
		cJSON_Delete(alg);
		goto done;
	}
	cJSON_AddItemToArray(algs, alg);
	json = cJSON_PrintUnformatted(out);
	if (json == NULL) {
		goto done;
	}
	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash != NULL) {
		*slash = '\0';
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	ret = hil_config_parse(json, dir, cfg, err, len);
	if (ret == HIL_OK) {
		cfg->n_algs = 0;
	} else {
		/* The loader's message, said of the file it came from. */
		char msg[512];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, len, "%s: %s", path, msg);
	}
done:
	if (ret == HIL_ERR_NOMEM) {
		snprintf(err, len, "%s: out of memory", path);
	}
	cJSON_free(json);
	cJSON_Delete(in);
	cJSON_Delete(out);
	free(text);
	return ret;
}

/* One image of images.tsv (scripts/pq-bench.sh's columns). */
enum {
	I_SCHEME,
	I_IMPL,
	I_KIND,
	I_ELF,
	I_REF,
	I_VERIFIED,
	I_TEXT,
	I_DATA,
	I_BSS,
	I_N
};

int hil_pq_stream_add(void *arg, const uint8_t *data, size_t len)
{
	struct hil_pq_stream *st = arg;
	struct hilp_pq_rec r;
	unsigned want_kind;

	if (len > 3 && data[1] == HILP_ST_OK && data[2] == HILP_PQ_HEAD &&
	    data[3] != HILP_PQ_VERSION) {
		snprintf(st->why, sizeof(st->why),
			 "the image speaks PQRUN version %u%s, this hilrun "
			 "version %u (the runs sent with each request): "
			 "rebuild the image from this tree",
			 data[3], data[3] == 1 ? " (its runs compiled in)" : "",
			 HILP_PQ_VERSION);
		goto bad;
	}
	if (hilp_pq_rec_decode(data, len, &r) != 0) {
		snprintf(st->why, sizeof(st->why),
			 "record %zu is malformed (%zu bytes, type %u)",
			 st->n + (size_t)st->have_head + 1,
			 len > 0 ? len - 1 : 0, len > 2 ? data[2] : 0);
		goto bad;
	}
	if (r.type != HILP_PQ_HEAD && !st->have_head) {
		snprintf(st->why, sizeof(st->why),
			 "a record of type %u before the HEAD", r.type);
		goto bad;
	}
	if (st->have_end) {
		snprintf(st->why, sizeof(st->why), "a record after the END");
		goto bad;
	}
	switch (r.type) {
	case HILP_PQ_HEAD:
		want_kind = strcmp(st->kind, "KEM") == 0 ? HILP_PQ_KEM
							 : HILP_PQ_SIGN;
		if (st->have_head || r.kind != want_kind || r.runs == 0 ||
		    3u * r.runs > MAX_CALLS ||
		    (st->runs != 0 && r.runs != st->runs)) {
			char asked[32] = "";

			if (st->runs != 0) {
				snprintf(asked, sizeof(asked),
					 " of the %u asked", st->runs);
			}
			snprintf(st->why, sizeof(st->why),
				 "a HEAD that is not this image's (%s, kind "
				 "%u, %u runs%s)",
				 st->have_head ? "a second one" : "the first",
				 r.kind, r.runs, asked);
			goto bad;
		}
		st->head = r;
		st->have_head = 1;
		st->calls = calloc(3u * r.runs, sizeof(*st->calls));
		if (st->calls == NULL) {
			return HIL_ERR_NOMEM;
		}
		return HIL_OK;
	case HILP_PQ_CALL:
		/* keypair, then the second and third operation, run by run */
		if (st->n == 3u * st->head.runs || r.op != st->n % 3u ||
		    r.run != st->n / 3u) {
			snprintf(st->why, sizeof(st->why),
				 "call %zu out of order (operation %u of run "
				 "%u)",
				 st->n + 1, r.op, r.run);
			goto bad;
		}
		st->calls[st->n++] = r;
		return HIL_OK;
	case HILP_PQ_END:
		if (r.calls != st->n || st->n != 3u * st->head.runs) {
			snprintf(st->why, sizeof(st->why),
				 "the END says %u calls, %zu came of %u",
				 r.calls, st->n, 3u * st->head.runs);
			goto bad;
		}
		st->have_end = 1;
		return HIL_OK;
	default: /* HILP_PQ_FAULT */
		st->fault = r;
		st->have_fault = 1;
		return HIL_OK;
	}
bad:
	hil_err("PQRUN: %s", st->why);
	return HIL_ERR_PROTO;
}

void hil_pq_stream_free(struct hil_pq_stream *st)
{
	free(st->calls);
	st->calls = NULL;
	st->n = 0;
}

/* The host build's answer to op's run (its "R op run ticks stack digest
 * ret" lines); 0 when it has none. */
static int ref_of(const char *ref, const char *op, unsigned run,
		  uint32_t *digest, uint32_t *ret)
{
	const char *p = ref;
	char name[32];
	unsigned r;
	unsigned long ticks, stack, d, rv;

	while (p != NULL && *p != '\0') {
		if (sscanf(p, "R %31s %u %lu %lu %lx %lu", name, &r, &ticks,
			   &stack, &d, &rv) == 6 &&
		    strcmp(name, op) == 0 && r == run) {
			*digest = (uint32_t)d;
			*ret = (uint32_t)rv;
			return 1;
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
	return 0;
}

static const char *op_name(const char *kind, unsigned op)
{
	static const char *const kem[] = {"keypair", "encaps", "decaps"};
	static const char *const sig[] = {"keypair", "sign", "verify"};

	return strcmp(kind, "KEM") == 0 ? kem[op % 3u] : sig[op % 3u];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * calls.tsv and rows.tsv lines of what came, in pq-bench.sh's columns
 * (the cycle model's as "-": no model ran); stopped: why the image did
 * not run to its end ("" when it did).
 */
static int write_rows(FILE *calls, FILE *rows, char *const *f,
		      const struct hil_pq_stream *st, const char *ref,
		      const char *stopped)
{
	unsigned op;
	size_t i;

	for (i = 0; i < st->n; i++) {
		const struct hilp_pq_rec *c = &st->calls[i];
		uint32_t rd = 0, rr = 0;
		int have = ref != NULL && ref_of(ref, op_name(f[I_KIND], c->op),
						 c->run, &rd, &rr);
		char rds[16] = "-", rrs[16] = "-";

		if (have) {
			snprintf(rds, sizeof(rds), "%08x", (unsigned)rd);
			snprintf(rrs, sizeof(rrs), "%u", (unsigned)rr);
		}
		fprintf(calls,
			"%s\t%s\t%s\t%s\t%u\t%lu\t%lu\t-\t-\t-\t-\t%ld\t-\t-\t-"
			"\t-\t%08x\t%u\t%s\t%s\t%lu\t-\t-\t-\t-\n",
			f[I_SCHEME], f[I_IMPL], f[I_KIND],
			op_name(f[I_KIND], c->op), c->run,
			(unsigned long)c->ticks,
			(unsigned long)st->head.overhead,
			(long)c->stack - (long)st->head.base_stack,
			(unsigned)c->digest, (unsigned)c->ret, rds, rrs,
			(unsigned long)st->head.stack_size);
	}
	for (op = 0; op < 3; op++) {
		double v[MAX_CALLS / 3], sum = 0, med;
		long smax = 0;
		size_t k = 0;
		int bad = 0, have_ref = ref != NULL;
		char verdict[768];

		for (i = op; i < st->n; i += 3) {
			const struct hilp_pq_rec *c = &st->calls[i];
			uint32_t rd, rr;
			long s = (long)c->stack - (long)st->head.base_stack;

			v[k] = (double)c->ticks - (double)st->head.overhead;
			sum += v[k++];
			smax = s > smax ? s : smax;
			if (have_ref &&
			    (!ref_of(ref, op_name(f[I_KIND], op), c->run, &rd,
				     &rr) ||
			     rd != c->digest || rr != c->ret || c->ret != 0)) {
				bad = 1;
			}
		}
		if (k == 0) {
			continue;
		}
		qsort(v, k, sizeof(v[0]), cmp_double);
		med = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
		if (st->head.stack_size > 0 &&
		    (unsigned long)smax + st->head.base_stack + 64 >=
			    st->head.stack_size) {
			snprintf(verdict, sizeof(verdict),
				 "FAILED: the stack (%lu bytes) overflowed: "
				 "needs more",
				 (unsigned long)st->head.stack_size);
		} else if (k < st->head.runs) {
			snprintf(verdict, sizeof(verdict),
				 "FAILED: %zu of %u runs before the board "
				 "stopped (%s)",
				 k, st->head.runs, stopped);
		} else if (!have_ref) {
			snprintf(verdict, sizeof(verdict), "%s", f[I_VERIFIED]);
		} else {
			snprintf(verdict, sizeof(verdict), "%s %s%s",
				 bad ? "FAILED" : "ok", f[I_VERIFIED],
				 bad ? " (digests differ from the host "
				       "build's)"
				     : "");
		}
		fprintf(rows,
			"%s\t%s\t%s\t%s\t%zu\t%.0f\t%.0f\t%.0f\t%.0f\t%ld\t-\t%s"
			"\t%s\t%s\t%s\t-\t-\t-\n",
			f[I_SCHEME], f[I_IMPL], f[I_KIND],
			op_name(f[I_KIND], op), k, sum / (double)k, v[0],
			v[k - 1], med, smax, f[I_TEXT], f[I_DATA], f[I_BSS],
			verdict);
	}
	return ferror(calls) || ferror(rows) ? HIL_ERR_IO : HIL_OK;
}

/* What the stub's INFO says, appended to run.tsv once (pqrun.c's
 * describe() reads it). */
static int write_info(const char *out, const struct hil_config *cfg,
		      const struct hilp_info *info)
{
	char path[HIL_PATH + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.tsv", out);
	f = fopen(path, "a");
	if (f == NULL) {
		return HIL_ERR_IO;
	}
	fprintf(f,
		"unit\t%u\nflags\t%u\nclock_hz\t%lu\ncounter_hz\t%lu\n"
		"flash_acr\t%lu\nstub_board\t%s\nflasher\t%s\nlink\t%s\n",
		info->counter_unit, info->flags,
		(unsigned long)(info->clock_hz != 0 ? info->clock_hz
						    : cfg->board.clock_hz),
		(unsigned long)info->counter_hz, (unsigned long)info->flash_acr,
		info->board, cfg->flasher.type, cfg->link.type);
	return fclose(f) == 0 ? HIL_OK : HIL_ERR_IO;
}

/* The sessions' counters over every image, appended to run.tsv. */
static int write_session(const char *out, const struct hil_session_stats *ss)
{
	char path[HIL_PATH + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.tsv", out);
	f = fopen(path, "a");
	if (f == NULL) {
		return HIL_ERR_IO;
	}
	fprintf(f,
		"requests\t%u\nretries\t%u\nbad_frames\t%u\ntimeouts\t%u\n"
		"bytes_tx\t%llu\nbytes_rx\t%llu\n",
		ss->requests, ss->retries, ss->bad_frames, ss->timeouts,
		(unsigned long long)ss->bytes_tx,
		(unsigned long long)ss->bytes_rx);
	return fclose(f) == 0 ? HIL_OK : HIL_ERR_IO;
}

/* Whether run.tsv already says what the stub's INFO said (an earlier
 * attempt of a resumed run wrote it). */
static int info_known(const char *out)
{
	char path[HIL_PATH + 16];
	char *text = NULL;
	int known;

	snprintf(path, sizeof(path), "%s/run.tsv", out);
	if (hil_read_file(path, &text, NULL) != HIL_OK) {
		return 0;
	}
	known = strncmp(text, "unit\t", 5) == 0 ||
		strstr(text, "\nunit\t") != NULL;
	free(text);
	return known;
}

/*
 * The image's lines made durable and, when it ran to its END, the folder
 * marked finished in done.tsv with the image's build-id: hilrun pq
 * --resume keeps it and runs the others again.
 */
static int journal_image(const char *out, FILE *calls, FILE *rows,
			 FILE *skipped, char *const *f, int finished)
{
	char path[HIL_PATH + 16];
	struct hil_elf_info ei;

	snprintf(path, sizeof(path), "%s/calls.tsv", out);
	if (hil_pq_journal_sync(calls, path) != HIL_OK) {
		return HIL_ERR_IO;
	}
	snprintf(path, sizeof(path), "%s/rows.tsv", out);
	if (hil_pq_journal_sync(rows, path) != HIL_OK) {
		return HIL_ERR_IO;
	}
	snprintf(path, sizeof(path), "%s/skipped.tsv", out);
	if (hil_pq_journal_sync(skipped, path) != HIL_OK) {
		return HIL_ERR_IO;
	}
	if (!finished || hil_elf_info(f[I_ELF], &ei) != HIL_OK) {
		return HIL_OK;
	}
	return hil_pq_journal_mark(out, f[I_SCHEME], f[I_IMPL],
				   ei.build_id_hex);
}

/* The session's probe: can the board behind the link answer at all? */
static int board_alive(void *arg)
{
	return hil_flasher_check(arg);
}

/*
 * One image: flashed, handshaken, identified, run. why receives the
 * reason when it did not run to its END ("" when it did); st what came;
 * sum adds the session's counters.
 * @return HIL_OK (see why), HIL_ERR_INTERRUPTED or HIL_ERR_NOMEM.
 */
static int run_image(const struct hil_config *cfg, const char *out, int jail,
		     const volatile sig_atomic_t *stop, unsigned call_ms,
		     char *const *f, struct hil_pq_stream *st,
		     int *info_written, struct hil_session_stats *sum,
		     char *why, size_t len)
{
	struct hil_flasher_params fp;
	struct hil_flasher *fl = NULL;
	struct hil_link *link = NULL;
	struct hil_session *s = NULL;
	struct hil_elf_info ei;
	struct hilp_info info;
	char got[2 * HILP_BUILD_ID_MAX + 1];
	uint8_t msg[HILP_PQ_REQ_LEN];
	uint8_t status = 0;
	int ret;

	why[0] = '\0';
	ret = hil_elf_info(f[I_ELF], &ei);
	if (ret != HIL_OK) {
		snprintf(why, len, "its image %s cannot be read", f[I_ELF]);
		return HIL_OK;
	}
	ret = hil_flasher_params_from_config(cfg, out, &fp);
	if (ret == HIL_OK) {
		fp.link = cfg->link.type;
		fp.jail = jail;
		ret = hil_flasher_open(&fl, cfg->flasher.type, &fp);
	}
	if (ret == HIL_OK) {
		ret = hil_flasher_start(fl, f[I_ELF]);
	}
	if (ret != HIL_OK) {
		snprintf(why, len,
			 "the flasher %s could not program and start it (%s)",
			 cfg->flasher.type, hil_strerror(ret));
		goto out;
	}
	ret = hil_rn_open_link(cfg, fl, &link);
	if (ret == HIL_OK) {
		ret = hil_session_open(&s, link, cfg->link.timeout_ms,
				       cfg->link.retries);
	}
	if (ret != HIL_OK) {
		snprintf(why, len, "its link (%s) could not be opened (%s)",
			 cfg->link.type, hil_strerror(ret));
		goto out;
	}
	hil_session_set_stop(s, stop);
	hil_session_set_probe(s, board_alive, fl);
	ret = hil_session_handshake(s, HANDSHAKE_MS, &info);
	if (ret != HIL_OK) {
		snprintf(why, len,
			 "the board did not answer the handshake on %s (%s)",
			 hil_link_where(link), hil_strerror(ret));
		goto out;
	}
	hil_hex_encode(info.build_id, info.build_id_len, got);
	if (info.protocol != HILP_PROTOCOL_VERSION ||
	    strcmp(got, ei.build_id_hex) != 0) {
		snprintf(
			why, len,
			"the board runs another image (build-id %.12s, protocol %u; "
			"built %.12s, protocol %u)",
			got[0] != '\0' ? got : "none", info.protocol,
			ei.build_id_hex, HILP_PROTOCOL_VERSION);
		goto out;
	}
	if (!*info_written) {
		*info_written = write_info(out, cfg, &info) == HIL_OK;
	}
	hil_info("%s/%s on %s (build-id %.12s): running", f[I_SCHEME],
		 f[I_IMPL], info.board, got);
	/* The runs asked for: the image has none compiled in. */
	(void)hilp_pq_req_encode(0, (uint16_t)st->runs, msg);
	ret = hil_session_stream(
		s, HILP_CMD_PQRUN, 0, msg, sizeof(msg), hil_pq_stream_add, st,
		&status, call_ms != 0 ? call_ms : HIL_PQ_CALL_TIMEOUT_MS);
	if (ret == HIL_ERR_INTERRUPTED || ret == HIL_ERR_NOMEM) {
		snprintf(why, len, "%s", hil_strerror(ret));
		goto out;
	}
	if (ret != HIL_OK && st->why[0] != '\0') {
		snprintf(why, len, "after %zu calls, %s", st->n, st->why);
	} else if (ret != HIL_OK) {
		snprintf(why, len, "after %zu calls, %s", st->n,
			 ret == HIL_ERR_PROTO
				 ? "a damaged frame came"
				 : "it stopped answering (hung, reset or its "
				   "link lost)");
	} else if (status == HILP_ST_FAULT) {
		const struct hil_session_fault *ft = hil_session_get_fault(s);

		snprintf(why, len,
			 "the target faulted (pc 0x%08x, CFSR 0x%08x, BFAR "
			 "0x%08x) after %zu completed calls",
			 (unsigned)ft->pc, (unsigned)ft->cfsr,
			 (unsigned)ft->bfar, st->n);
		if (st->have_fault && st->fault.stack_out) {
			size_t o = strlen(why);

			snprintf(why + o, len - o,
				 "; it used its whole stack (%lu bytes): the "
				 "scheme needs more stack than this image "
				 "gives",
				 (unsigned long)st->head.stack_size);
		}
	} else if (status != HILP_ST_OK) {
		snprintf(why, len,
			 "the stub answered PQRUN with status 0x%02x (%s)%s",
			 status, hil_session_status_text(status),
			 status == HILP_ST_BAD_CMD ? ": not a pq stub"
			 : status == HILP_ST_BAD_LEN ||
					 status == HILP_ST_BAD_ARG
				 ? ": it refused the request (another version "
				   "of PQRUN, or runs it does not take): "
				   "rebuild the image from this tree"
				 : "");
	} else if (!st->have_end) {
		snprintf(why, len,
			 "after %zu calls, the status came without an END",
			 st->n);
	}
	ret = ret == HIL_ERR_INTERRUPTED ? ret : HIL_OK;
out:
	if (s != NULL) {
		/* The link's counters, for the report's session figures. */
		const struct hil_session_stats *ss = hil_session_get_stats(s);

		sum->requests += ss->requests;
		sum->retries += ss->retries;
		sum->bad_frames += ss->bad_frames;
		sum->timeouts += ss->timeouts;
		sum->bytes_tx += ss->bytes_tx;
		sum->bytes_rx += ss->bytes_rx;
	}
	hil_session_close(s);
	hil_link_close(link);
	hil_flasher_close(fl);
	return ret == HIL_ERR_INTERRUPTED || ret == HIL_ERR_NOMEM ? ret
								  : HIL_OK;
}

int hil_pq_board_run(const struct hil_config *cfg, const char *out, int jail,
		     const volatile sig_atomic_t *stop, unsigned call_ms,
		     unsigned runs)
{
	char path[HIL_PATH + 16], line[LINE];
	FILE *images = NULL, *calls = NULL, *rows = NULL, *skipped = NULL;
	struct hil_session_stats sum;
	int info_written = 0, ret = HIL_OK;

	memset(&sum, 0, sizeof(sum));
	info_written = info_known(out);
	snprintf(path, sizeof(path), "%s/images.tsv", out);
	images = fopen(path, "r");
	snprintf(path, sizeof(path), "%s/calls.tsv", out);
	calls = fopen(path, "a");
	snprintf(path, sizeof(path), "%s/rows.tsv", out);
	rows = fopen(path, "a");
	snprintf(path, sizeof(path), "%s/skipped.tsv", out);
	skipped = fopen(path, "a");
	if (images == NULL || calls == NULL || rows == NULL ||
	    skipped == NULL) {
		hil_err("%s: images.tsv, calls.tsv, rows.tsv or skipped.tsv "
			"cannot be opened",
			out);
		ret = HIL_ERR_IO;
		goto done;
	}
	while (ret == HIL_OK && fgets(line, sizeof(line), images) != NULL) {
		char *f[I_N], *p = line, why[512];
		struct hil_pq_stream st;
		char *ref = NULL;
		size_t k = 0, rlen;

		line[strcspn(line, "\n")] = '\0';
		while (k < I_N && p != NULL) {
			f[k++] = p;
			p = strchr(p, '\t');
			if (p != NULL) {
				*p++ = '\0';
			}
		}
		if (k != I_N || p != NULL) {
			hil_err("%s/images.tsv: a line of %zu columns, not %d",
				out, k, I_N);
			ret = HIL_ERR_IO;
			break;
		}
		if (hil_pq_journal_is_done(out, f[I_SCHEME], f[I_IMPL])) {
			/* A resumed run: its lines are kept as they are. */
			hil_info("%s/%s: finished in an earlier attempt: kept",
				 f[I_SCHEME], f[I_IMPL]);
			continue;
		}
		if (strcmp(f[I_REF], "-") != 0 &&
		    hil_read_file(f[I_REF], &ref, &rlen) != HIL_OK) {
			hil_warn("%s: the host build's output cannot be read: "
				 "%s/%s is not verified",
				 f[I_REF], f[I_SCHEME], f[I_IMPL]);
			ref = NULL;
		}
		memset(&st, 0, sizeof(st));
		st.kind = f[I_KIND];
		st.runs = runs;
		ret = run_image(cfg, out, jail, stop, call_ms, f, &st,
				&info_written, &sum, why, sizeof(why));
		if (why[0] != '\0') {
			hil_err("%s/%s: stopped on %s: %s", f[I_SCHEME],
				f[I_IMPL], cfg->board.name, why);
			fprintf(skipped, "%s\t%s\tstopped on %s: %s\n",
				f[I_SCHEME], f[I_IMPL], cfg->board.name, why);
		}
		/* What came is kept, whatever stopped the rest; the folder
		 * counts as finished only when it ran to its END. */
		if (st.have_head &&
		    write_rows(calls, rows, f, &st, ref, why) != HIL_OK) {
			ret = HIL_ERR_IO;
		}
		if (ret != HIL_ERR_IO &&
		    journal_image(out, calls, rows, skipped, f,
				  why[0] == '\0' && st.have_end) != HIL_OK) {
			ret = HIL_ERR_IO;
		}
		hil_pq_stream_free(&st);
		free(ref);
	}
	if (info_written && write_session(out, &sum) != HIL_OK) {
		ret = ret == HIL_OK ? HIL_ERR_IO : ret;
	}
done:
	if (images != NULL) {
		fclose(images);
	}
	if ((calls != NULL && fclose(calls) != 0) ||
	    (rows != NULL && fclose(rows) != 0) ||
	    (skipped != NULL && fclose(skipped) != 0)) {
		ret = ret == HIL_OK ? HIL_ERR_IO : ret;
	}
	return ret;
}
