/* sweep_out: what a sweep writes: sweep.md's side-by-side tables and sweep.json. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sweep"
#include "sweep_int.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/modelratio.h"
#include "run.h"
#include "util/err.h"
#include "util/util.h"

static const struct hil_impl_size *find_size(const struct hil_run *run,
					     const char *alg, const char *impl)
{
	size_t i;

	for (i = 0; i < run->n_impl_sizes; i++) {
		if (strcmp(run->impl_sizes[i].algorithm, alg) == 0 &&
		    strcmp(run->impl_sizes[i].implementation, impl) == 0) {
			return &run->impl_sizes[i];
		}
	}
	return NULL;
}

/* Rows of the union of the runs, in first-seen order, each once. */
static int seen_before(const struct hil_run *runs, size_t r, size_t i)
{
	size_t k, j;

	for (k = 0; k <= r; k++) {
		size_t end = k == r ? i : runs[k].n_rows;

		for (j = 0; j < end; j++) {
			const struct hil_row *a = &runs[k].rows[j];
			const struct hil_row *b = &runs[r].rows[i];

			if (a->msg_len == b->msg_len &&
			    a->ad_len == b->ad_len &&
			    strcmp(a->algorithm, b->algorithm) == 0 &&
			    strcmp(a->implementation, b->implementation) == 0 &&
			    strcmp(a->operation, b->operation) == 0) {
				return 1;
			}
		}
	}
	return 0;
}

void hil_sweep_write_tables(const struct hil_sweep *sw,
			    const struct hil_run *runs,
			    char (*why)[HIL_SWEEP_WHY_MAX], FILE *out)
{
	const struct hil_run *sized = &runs[0];
	const char *unit = "unknown";
	size_t r, i, k;

	for (r = 0; r < sw->n; r++) {
		if (runs[r].n_rows > 0) {
			unit = hil_unit_name(runs[r].info.counter_unit);
			break;
		}
	}
	fprintf(out,
		"## %s: median (%s) per row, one column per configuration\n\n",
		sw->name, unit);
	fprintf(out, "| algorithm | impl | op | msg | ad |");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, " %s |", sw->cfgs[r].name);
	}
	fprintf(out, "\n|---|---|---|---:|---:|");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, "---:|");
	}
	fprintf(out, "\n");
	for (r = 0; r < sw->n; r++) {
		for (i = 0; i < runs[r].n_rows; i++) {
			const struct hil_row *key = &runs[r].rows[i];

			if (seen_before(runs, r, i)) {
				continue;
			}
			fprintf(out, "| %s | %s | %s | %u | %u |",
				key->algorithm, key->implementation,
				key->operation, (unsigned)key->msg_len,
				(unsigned)key->ad_len);
			for (k = 0; k < sw->n; k++) {
				const struct hil_row *v =
					hil_run_find_row(&runs[k], key);

				if (v == NULL || !v->ok) {
					fprintf(out, " %s |",
						v == NULL ? "-" : "failed");
				} else {
					fprintf(out, " %.0f |",
						v->stats.median);
				}
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out,
		"\n## %s: flash bytes per implementation (text + rodata + data)\n\n",
		sw->name);
	fprintf(out, "| algorithm | impl |");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, " %s |", sw->cfgs[r].name);
	}
	fprintf(out, "\n|---|---|");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, "---:|");
	}
	fprintf(out, "\n");
	/* The rows of the first configuration that ran: one not run (its
	 * board busy) has none, and must not hide the others' sizes. */
	for (r = 0; r < sw->n; r++) {
		if (runs[r].n_impl_sizes > 0) {
			sized = &runs[r];
			break;
		}
	}
	for (i = 0; i < sized->n_impl_sizes; i++) {
		const struct hil_impl_size *z0 = &sized->impl_sizes[i];

		fprintf(out, "| %s | %s |", z0->algorithm, z0->implementation);
		for (k = 0; k < sw->n; k++) {
			const struct hil_impl_size *z = find_size(
				&runs[k], z0->algorithm, z0->implementation);

			if (z == NULL) {
				fprintf(out, " - |");
			} else {
				fprintf(out, " %lu |",
					z->text + z->rodata + z->data);
			}
		}
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
	for (r = 0, k = 0; r < sw->n; r++) {
		if (why[r][0] == '\0') {
			continue;
		}
		if (k++ == 0) {
			fprintf(out, "## %s: configurations not run\n\n",
				sw->name);
		}
		fprintf(out, "- %s: %s\n", sw->cfgs[r].name, why[r]);
	}
	if (k > 0) {
		fprintf(out, "\n");
	}
	hil_sweep_write_energy(sw, runs, out);
	/* A board run and a model run of one profile: their ratio per row. */
	(void)hil_model_ratio_write(sw->cfgs, runs, sw->n, out);
}

char *hil_sweep_json(const struct hil_sweep *sw, const struct hil_run *runs,
		     const int *rets, char (*why)[HIL_SWEEP_WHY_MAX])
{
	cJSON *root = cJSON_CreateObject();
	cJSON *a = root ? cJSON_AddArrayToObject(root, "runs") : NULL;
	char *text = NULL;
	size_t r;
	int ok = a != NULL;

	ok = ok && cJSON_AddStringToObject(root, "name", sw->name) != NULL;
	for (r = 0; ok && r < sw->n; r++) {
		cJSON *o = cJSON_CreateObject();

		ok = o != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, o);
		}
		ok = ok &&
		     cJSON_AddStringToObject(o, "config", sw->cfgs[r].name);
		ok = ok && cJSON_AddStringToObject(o, "run_dir", runs[r].dir);
		ok = ok &&
		     cJSON_AddStringToObject(o, "status",
					     runs[r].status ? runs[r].status
					     : why[r][0] != '\0' ? "not run"
								 : "failed");
		ok = ok &&
		     cJSON_AddStringToObject(o, "build_id", runs[r].build_id);
		ok = ok && cJSON_AddStringToObject(
				   o, "error",
				   why[r][0] != '\0'   ? why[r]
				   : rets[r] == HIL_OK ? ""
						       : hil_strerror(rets[r]));
		ok = ok && cJSON_AddStringToObject(o, "board", sw->lock[r]);
	}
	if (ok) {
		text = cJSON_Print(root);
	}
	cJSON_Delete(root);
	return text;
}
