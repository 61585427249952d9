/* modelratio: a sweep's real-board cycles next to the Cortex-M4 model's estimate for the same rows, with their ratio. */
#include "report/modelratio.h"
#include "drivers/board/board.h"
#include "result/modelerr.h"

#include <string.h>

static int on_real_board(const struct hil_config *cfg)
{
	return !hil_board_emulated(cfg->board.name);
}

/* Does the model run estimate the memory system the board config runs? */
static int same_profile(const struct hil_config *board,
			const struct hil_run *model)
{
	if (!model->model.enabled ||
	    strcmp(board->cycle_model.profile, model->model.profile) != 0 ||
	    board->cycle_model.wait_states != model->model.ws) {
		return 0;
	}
	/* At 0 wait states the ART saves nothing: the model ignores it. */
	return model->model.ws == 0 ||
	       (board->cycle_model.art != 0) == (model->model.art != 0);
}

/* One cell: the median, "failed", or "-" when the row is not there; an
 * estimate with its error bar beside it (run: the model's run, or NULL). */
static int cell(FILE *out, const struct hil_run *run, const struct hil_row *r,
		int model, double *v)
{
	char err[32] = "";

	if (r == NULL) {
		fprintf(out, " - |");
		return 0;
	}
	if (!r->ok || (model && !r->model.ok)) {
		fprintf(out, " failed |");
		return 0;
	}
	*v = model ? r->model.stats.median : r->stats.median;
	if (model) {
		hil_model_error_label(run, r, err, sizeof(err));
	}
	fprintf(out, " %.0f%s |", *v, err);
	return 1;
}

static void line(FILE *out, const struct hil_row *key,
		 const struct hil_run *board, const struct hil_run *model)
{
	double b = 0, m = 0;
	int hb, hm;

	fprintf(out, "| %s | %s | %s | %u | %u |", key->algorithm,
		key->implementation, key->operation, (unsigned)key->msg_len,
		(unsigned)key->ad_len);
	hb = cell(out, board, hil_run_find_row(board, key), 0, &b);
	hm = cell(out, model, hil_run_find_row(model, key), 1, &m);
	if (hb && hm && m > 0) {
		fprintf(out, " %.3f |\n", b / m);
	} else {
		fprintf(out, " - |\n");
	}
}

static void table(FILE *out, const struct hil_config *bc,
		  const struct hil_run *board, const struct hil_config *mc,
		  const struct hil_run *model)
{
	size_t i;

	fprintf(out,
		"## %s on the board next to %s in the model: cycles (measured, DWT) and %s\n\n",
		bc->name, mc->name, model->model.unit);
	fprintf(out,
		"| algorithm | impl | op | msg | ad | %s: cycles (measured) | %s: cycles (estimated) | measured / estimated |\n",
		bc->name, mc->name);
	fprintf(out, "|---|---|---|---:|---:|---:|---:|---:|\n");
	/* The model's rows first (it runs even without a board), then any
	 * the board has and the model does not. */
	for (i = 0; i < model->n_rows; i++) {
		line(out, &model->rows[i], board, model);
	}
	for (i = 0; i < board->n_rows; i++) {
		if (hil_run_find_row(model, &board->rows[i]) == NULL) {
			line(out, &board->rows[i], board, model);
		}
	}
	if (board->n_rows == 0) {
		fprintf(out,
			"\n%s measured no row (see its run folder): the board column is empty.\n",
			bc->name);
	}
	fprintf(out, "\n");
}

size_t hil_model_ratio_write(const struct hil_config *cfgs,
			     const struct hil_run *runs, size_t n, FILE *out)
{
	size_t b, m, tables = 0;

	for (b = 0; b < n; b++) {
		if (!on_real_board(&cfgs[b])) {
			continue;
		}
		for (m = 0; m < n; m++) {
			if (m != b && same_profile(&cfgs[b], &runs[m])) {
				table(out, &cfgs[b], &runs[b], &cfgs[m],
				      &runs[m]);
				tables++;
			}
		}
	}
	return tables;
}
