/* Unit tests of how a sweep shares boards: the configurations of one board never run at once whatever the jobs, the bare emulator's run side by side, and each configuration's board lock is the one a single run of it takes. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/sweep.h"
#include "unit_util.h"
#include "util/err.h"

/* A sweep of n configurations with these board locks ("": none); only the
 * locks matter to the schedule. */
static void sweep_of(struct hil_sweep *sw, const char *const *locks, size_t n)
{
	size_t i;

	memset(sw, 0, sizeof(*sw));
	sw->n = n;
	for (i = 0; i < n; i++) {
		snprintf(sw->lock[i], sizeof(sw->lock[i]), "%s", locks[i]);
	}
}

static size_t pick(struct hil_sweep_sched *s)
{
	size_t idx = 99;

	assert_int_equal(hil_sweep_sched_next(s, &idx), HIL_SWEEP_PICK_RUN);
	return idx;
}

/* --jobs 2, both configurations on nucleo-1: the second worker waits for
 * the first configuration to end, and the board's lock is kept between
 * them (its first one still has one to go). */
static void test_same_board_waits_for_its_other_configuration(void **state)
{
	static const char *const locks[] = {"nucleo-1", "nucleo-1"};
	struct hil_sweep sw;
	struct hil_sweep_sched s;
	size_t idx = 99;

	(void)state;
	sweep_of(&sw, locks, 2);
	hil_sweep_sched_init(&s, &sw);
	assert_int_equal(pick(&s), 0);
	/* The second worker: nothing it may start. */
	assert_int_equal(hil_sweep_sched_next(&s, &idx), HIL_SWEEP_PICK_WAIT);
	assert_int_equal(idx, 99);
	assert_int_equal(hil_sweep_sched_board_left(&s, 0), 1);
	hil_sweep_sched_done(&s, 0);
	assert_int_equal(pick(&s), 1);
	/* The board's last configuration: the lock goes when it ends. */
	assert_int_equal(hil_sweep_sched_board_left(&s, 1), 0);
	hil_sweep_sched_done(&s, 1);
	assert_int_equal(hil_sweep_sched_next(&s, &idx), HIL_SWEEP_PICK_DONE);
}

/* The bare emulator: each run a QEMU of its own, so two start at once. */
static void test_emulated_configurations_run_side_by_side(void **state)
{
	static const char *const locks[] = {"", ""};
	struct hil_sweep sw;
	struct hil_sweep_sched s;
	size_t idx;

	(void)state;
	sweep_of(&sw, locks, 2);
	hil_sweep_sched_init(&s, &sw);
	assert_int_equal(pick(&s), 0);
	assert_int_equal(pick(&s), 1); /* while 0 still runs */
	assert_int_equal(hil_sweep_sched_board_left(&s, 0), 0);
	hil_sweep_sched_done(&s, 1);
	hil_sweep_sched_done(&s, 0);
	assert_int_equal(hil_sweep_sched_next(&s, &idx), HIL_SWEEP_PICK_DONE);
}

/* A board's second configuration waiting does not hold up what follows:
 * the emulated ones and another board go beside the busy board. */
static void test_others_pass_a_board_in_use(void **state)
{
	static const char *const locks[] = {"nucleo-1", "nucleo-1", "",
					    "nucleo-2"};
	struct hil_sweep sw;
	struct hil_sweep_sched s;
	size_t idx;

	(void)state;
	sweep_of(&sw, locks, 4);
	hil_sweep_sched_init(&s, &sw);
	assert_int_equal(pick(&s), 0);
	assert_int_equal(pick(&s), 2); /* 1 waits for 0 */
	assert_int_equal(pick(&s), 3); /* another board */
	assert_int_equal(hil_sweep_sched_next(&s, &idx), HIL_SWEEP_PICK_WAIT);
	hil_sweep_sched_done(&s, 2);
	assert_int_equal(hil_sweep_sched_next(&s, &idx), HIL_SWEEP_PICK_WAIT);
	hil_sweep_sched_done(&s, 0);
	assert_int_equal(pick(&s), 1);
}

/*
 * Every way two workers (--jobs 2) can finish their configurations, over a
 * sweep mixing two boards and the emulator: never two configurations of
 * one board at once, every configuration run exactly once, and in some
 * order two emulated ones do run at once.
 */
static void test_two_workers_never_share_a_board_in_any_order(void **state)
{
	static const char *const locks[] = {"nucleo-1", "", "nucleo-1", "",
					    "nrf-1",	"", "nrf-1"};
	const size_t n = sizeof(locks) / sizeof(locks[0]);
	struct hil_sweep sw;
	unsigned order;
	int emulated_together = 0;

	(void)state;
	sweep_of(&sw, locks, n);
	/* Each bit of order: which of the two running ends first. */
	for (order = 0; order < 1u << 12; order++) {
		struct hil_sweep_sched s;
		size_t running[2], n_running = 0, ran[HIL_SWEEP_MAX] = {0};
		unsigned step = 0;
		size_t i;

		hil_sweep_sched_init(&s, &sw);
		for (;;) {
			size_t idx, end;

			while (n_running < 2 &&
			       hil_sweep_sched_next(&s, &idx) ==
				       HIL_SWEEP_PICK_RUN) {
				running[n_running++] = idx;
				ran[idx]++;
			}
			if (n_running == 2) {
				assert_false(locks[running[0]][0] != '\0' &&
					     strcmp(locks[running[0]],
						    locks[running[1]]) == 0);
				emulated_together |=
					locks[running[0]][0] == '\0' &&
					locks[running[1]][0] == '\0';
			}
			if (n_running == 0) {
				break;
			}
			end = n_running == 2 ? (order >> (step++ % 12)) & 1 : 0;
			hil_sweep_sched_done(&s, running[end]);
			running[end] = running[n_running - 1];
			n_running--;
		}
		for (i = 0; i < n; i++) {
			assert_int_equal(ran[i], 1);
		}
	}
	assert_true(emulated_together);
}

/* The sweep file's configurations: what each one's run locks. */
static void put(const char *path, const char *text)
{
	ut_write_file(path, text, strlen(text), 0644);
}

static void test_sweep_configs_take_the_lock_a_single_run_takes(void **state)
{
	char dir[64], map[128], paths[4][128], text[1024];
	char *argv[4];
	char err[512] = "";
	const char *old = getenv("HILRUN_BOARDS");
	char keep[512] = "";
	struct hil_sweep sw;
	static const char *const bodies[] = {
		/* the bare emulator: no lock (issue #14) */
		"\"board\": {\"name\": \"qemu-netduino\"}",
		/* an emulated board of the map: locked like any */
		"\"board\": {\"name\": \"qemu-netduino\", \"id\": \"qemu-lock\"}",
		/* a board of the map, by id: its lock and its port */
		"\"board\": {\"name\": \"nucleo-f401re\", \"id\": \"nucleo-7\"},"
		" \"flasher\": {\"type\": \"openocd\"},"
		" \"link\": {\"type\": \"serial\", \"baud\": 115200}",
		/* a board the map does not have: locked by its kind */
		"\"board\": {\"name\": \"nucleo-f401re\"},"
		" \"flasher\": {\"type\": \"openocd\"},"
		" \"link\": {\"type\": \"serial\", \"port\": \"/dev/ttyACM5\","
		" \"baud\": 115200}",
	};
	size_t i;

	(void)state;
	if (old != NULL) {
		snprintf(keep, sizeof(keep), "%s", old);
	}
	snprintf(dir, sizeof(dir), "/tmp/hilrun-sweepsched-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(map, sizeof(map), "%s/boards.json", dir);
	put(map, "[{\"id\": \"qemu-lock\", \"platform\": \"qemu-netduino\","
		 " \"runner\": \"qemu\"},"
		 " {\"id\": \"nucleo-7\", \"platform\": \"nucleo-f401re\","
		 " \"runner\": \"openocd\", \"serial\": \"/dev/ttyACM7\","
		 " \"probe_id\": \"066BFF495057717867164399\"}]");
	setenv("HILRUN_BOARDS", map, 1);
	for (i = 0; i < 4; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/c%zu.json", dir, i);
		snprintf(text, sizeof(text),
			 "{\"name\": \"c%zu\", %s,"
			 " \"algorithms\": [\"ascon-aead128\"]}",
			 i, bodies[i]);
		put(paths[i], text);
		argv[i] = paths[i];
	}
	i = (size_t)hil_sweep_from_files(argv, 4, &sw, err, sizeof(err));
	if (keep[0] != '\0') {
		setenv("HILRUN_BOARDS", keep, 1);
	} else {
		unsetenv("HILRUN_BOARDS");
	}
	if ((int)i != HIL_OK) {
		fail_msg("sweep did not load: %s", err);
	}
	assert_string_equal(sw.lock[0], "");
	assert_string_equal(sw.lock[1], "qemu-lock");
	assert_string_equal(sw.lock[2], "nucleo-7");
	assert_string_equal(sw.cfgs[2].link.port, "/dev/ttyACM7");
	assert_string_equal(sw.cfgs[2].flasher.probe_serial,
			    "066BFF495057717867164399");
	assert_string_equal(sw.lock[3], "nucleo-f401re");
	hil_sweep_free(&sw);

	/* A board id the map does not have: the sweep does not load, and
	 * the message names the config. */
	setenv("HILRUN_BOARDS", map, 1);
	put(paths[2], "{\"name\": \"c2\", \"board\": {\"name\":"
		      " \"nucleo-f401re\", \"id\": \"nucleo-9\"},"
		      " \"flasher\": {\"type\": \"openocd\"},"
		      " \"link\": {\"type\": \"serial\", \"baud\": 115200},"
		      " \"algorithms\": [\"ascon-aead128\"]}");
	assert_int_equal(hil_sweep_from_files(argv, 4, &sw, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	if (keep[0] != '\0') {
		setenv("HILRUN_BOARDS", keep, 1);
	} else {
		unsetenv("HILRUN_BOARDS");
	}
	assert_non_null(strstr(err, paths[2]));
	assert_non_null(strstr(err, "nucleo-9"));
	assert_int_equal(ut_rm_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_same_board_waits_for_its_other_configuration),
		cmocka_unit_test(test_emulated_configurations_run_side_by_side),
		cmocka_unit_test(test_others_pass_a_board_in_use),
		cmocka_unit_test(
			test_two_workers_never_share_a_board_in_any_order),
		cmocka_unit_test(
			test_sweep_configs_take_the_lock_a_single_run_takes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
