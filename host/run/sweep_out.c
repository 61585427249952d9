/* sweep_out: what a sweep writes: sweep.md's side-by-side tables and sweep.json. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sweep"
#include "sweep_int.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/modelratio.h"
#include "result/run.h"
#include "util/err.h"
#include "util/util.h"

void hil_sweep_write_tables(const struct hil_sweep *sw,
			    const struct hil_run *runs,
			    char (*why)[HIL_SWEEP_WHY_MAX], FILE *out)
{
	size_t r, k;

	/* The figures themselves come from the reports (report/md_sweep.c,
	 * the same as sweep.html's); what only the sweep knows is here. */
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
