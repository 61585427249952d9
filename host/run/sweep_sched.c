/* sweep_sched: which configuration of a sweep runs next: in order, never two on one board at once. */
#include "sweep.h"

#include <string.h>

void hil_sweep_sched_init(struct hil_sweep_sched *s, const struct hil_sweep *sw)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = sw->n < HIL_SWEEP_MAX ? sw->n : HIL_SWEEP_MAX;
	for (i = 0; i < s->n; i++) {
		s->lock[i] = sw->lock[i];
	}
}

static int same_board(const struct hil_sweep_sched *s, size_t a, size_t b)
{
	return s->lock[a] != NULL && s->lock[a][0] != '\0' &&
	       s->lock[b] != NULL && strcmp(s->lock[a], s->lock[b]) == 0;
}

enum hil_sweep_pick hil_sweep_sched_next(struct hil_sweep_sched *s, size_t *idx)
{
	size_t i, j;
	int left = 0;

	for (i = 0; i < s->n; i++) {
		int busy = 0;

		if (s->state[i] != 0) {
			continue;
		}
		left = 1;
		for (j = 0; j < s->n && !busy; j++) {
			busy = s->state[j] == 1 && same_board(s, i, j);
		}
		if (!busy) {
			s->state[i] = 1;
			*idx = i;
			return HIL_SWEEP_PICK_RUN;
		}
	}
	return left ? HIL_SWEEP_PICK_WAIT : HIL_SWEEP_PICK_DONE;
}

void hil_sweep_sched_done(struct hil_sweep_sched *s, size_t idx)
{
	if (idx < s->n) {
		s->state[idx] = 2;
	}
}

size_t hil_sweep_sched_board_left(const struct hil_sweep_sched *s, size_t idx)
{
	size_t j, n = 0;

	for (j = 0; j < s->n; j++) {
		if (j != idx && s->state[j] != 2 && same_board(s, idx, j)) {
			n++;
		}
	}
	return n;
}
