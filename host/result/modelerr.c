/* modelerr: the error bar of a row's cycle-model estimate, from its profile's cross-validation (docs/cycle-model.md, "Error bars"). */
#include "result/modelerr.h"

#include <stdio.h>
#include <string.h>

#include "drivers/board/memsys.h"
#include "image/build.h"

/* Is r's implementation a folder of assembly? (bundled ones are C) */
static int row_is_assembly(const struct hil_run *run, const struct hil_row *r)
{
	size_t i;

	if (run->cfg == NULL) {
		return 0;
	}
	for (i = 0; i < run->cfg->n_algs; i++) {
		const struct hil_config_alg *a = &run->cfg->algs[i];

		if (strcmp(a->name, r->algorithm) == 0 &&
		    strcmp(a->impl, r->implementation) == 0) {
			return a->path[0] != '\0' &&
			       hil_build_has_assembly(a->path);
		}
	}
	return 0;
}

double hil_model_error_pct(const struct hil_run *run, const struct hil_row *r,
			   const char **kind)
{
	const struct cm4_memsys *p = cm4_memsys_find(run->model.profile);
	int as;

	if (kind != NULL) {
		*kind = "C";
	}
	if (p == NULL || !r->model.ok || p->err_c_pct <= 0) {
		return -1.0;
	}
	as = row_is_assembly(run, r);
	if (kind != NULL) {
		*kind = as ? "assembly" : "C";
	}
	return as ? p->err_asm_pct : p->err_c_pct;
}

void hil_model_error_label(const struct hil_run *run, const struct hil_row *r,
			   char *buf, size_t len)
{
	double e = hil_model_error_pct(run, r, NULL);

	if (e < 0) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, " \xc2\xb1 %.0f %%", e);
}
