/* run: what one run measured and where it came from: the model the report is written from. */
#ifndef HIL_RUN_H
#define HIL_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "build.h"
#include "config.h"
#include "hilp.h"
#include "mapsizes.h"
#include "stats.h"

#define HIL_ROW_ERR 512

/* One (algorithm, implementation, operation, msg_len, ad_len) measurement. */
struct hil_row {
	char algorithm[HILP_NAME_MAX];
	char implementation[HILP_NAME_MAX];
	const char *operation; /* "encrypt", "decrypt", "hash" */
	const char *mode;      /* what is measured, e.g. "AEAD", "ECB" */
	int constant_time; /* the implementation's claim: 1, 0, -1 unstated */
	uint32_t msg_len;
	uint32_t ad_len;
	uint32_t runs;
	uint32_t warmup;
	uint32_t seed;
	double *samples; /* runs values, overhead subtracted; owned */
	struct hil_stats stats;
	uint32_t overhead; /* subtracted from every sample */
	uint32_t stack_bytes;
	int stack_known;
	int verified; /* known-answer and host comparison passed */
	uint32_t digest_expected;
	uint32_t digest_got;
	int ok;			 /* measured, digest matched */
	char error[HIL_ROW_ERR]; /* why not ok */
};

/* count = fixed + per_byte * msg_len over one row series (least squares). */
struct hil_fit {
	char algorithm[HILP_NAME_MAX];
	char implementation[HILP_NAME_MAX];
	const char *operation;
	uint32_t ad_len;
	double fixed;
	double per_byte;
	double r2;
	size_t points;
};

/* The image's sizes, from the ELF. */
struct hil_image_sizes {
	unsigned long flash;	  /* text + rodata + data load image */
	unsigned long ram_static; /* data + bss, stack excluded */
	unsigned long stack_reserved;
};

struct hil_run {
	char id[128];
	char dir[HIL_PATH];
	char started[32];
	char finished[32];
	const char *status; /* "complete", "partial", "failed" */
	const struct hil_config *cfg;
	struct hil_firmware fw;
	char build_id[2 * HILP_BUILD_ID_MAX + 1];
	char elf_sha256[65];
	char elf_compiler[256]; /* the ELF's .comment */
	struct hil_image_sizes sizes;
	struct hil_impl_size impl_sizes[HIL_MAX_IMPL_SIZES];
	size_t n_impl_sizes;
	struct hilp_info info; /* what the stub reported */
	char flasher_version[256];
	char tool_commit[64];
	int tool_dirty;
	char host[256];
	char host_os[256]; /* uname: system, release, machine */
	struct hil_row *rows;
	size_t n_rows;
	size_t cap_rows;
	struct hil_fit *fits;
	size_t n_fits;
	unsigned retries;   /* session recoveries over the run */
	unsigned resets;    /* recovery ladder: target resets */
	unsigned reflashes; /* recovery ladder: image programmed again */
	unsigned bad_frames;
	unsigned timeouts;
};

/** Text of a counter unit as reports state it, e.g. "instructions (emulated)". */
const char *hil_unit_name(uint8_t unit);

/** Append a zeroed row; @return it, or NULL when out of memory. */
struct hil_row *hil_run_add_row(struct hil_run *run);

/**
 * Fit count = fixed + per_byte * msg_len to the medians of every series of
 * measured rows that share algorithm, implementation, operation and ad_len
 * and have at least two message lengths. @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_run_compute_fits(struct hil_run *run);

/** Free the rows and their samples. */
void hil_run_free(struct hil_run *run);

#endif /* HIL_RUN_H */
