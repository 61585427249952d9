/* test_board_drivers: the board and flasher tables hold together: every board names registered flashers, links and clocks, has its target folder, and every target folder has a driver; the flash-register decoders. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <unistd.h>

#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "unit_util.h"

static const char *src_dir(void)
{
	const char *d = getenv("HIL_SRC_DIR");

	return d != NULL ? d : ".";
}

static void test_every_board_is_complete(void **state)
{
	const struct hil_board_driver *const *all = hil_board_all();
	char mk[512];
	size_t i, j;

	(void)state;
	assert_non_null(all[0]);
	/* The default board is the first: one every machine can run. */
	assert_true(all[0]->emulated);
	for (i = 0; all[i] != NULL; i++) {
		const struct hil_board_driver *b = all[i];

		assert_non_null(b->name);
		assert_non_null(b->summary);
		assert_ptr_equal(hil_board_find(b->name), b);
		assert_non_null(b->flashers);
		assert_non_null(b->flashers[0]);
		for (j = 0; b->flashers[j] != NULL; j++) {
			if (hil_flasher_find(b->flashers[j]) == NULL) {
				fail_msg("board %s names flasher %s, which is "
					 "not registered",
					 b->name, b->flashers[j]);
			}
		}
		assert_non_null(b->links);
		assert_non_null(b->links[0]);
		assert_non_null(b->clocks);
		assert_true(b->clocks[0].hz > 0);
		for (j = 0; b->clocks[j].hz != 0; j++) {
			const struct hil_clock_profile *c = &b->clocks[j];

			assert_non_null(c->source);
			/* A clock listed twice differs in prefetch; the
			 * first listed is the default. */
			assert_ptr_equal(
				hil_board_clock_flash(b, c->hz, c->prefetch),
				c);
			assert_int_equal(hil_board_clock(b, c->hz)->hz, c->hz);
			assert_true(hil_board_clock(b, c->hz) <= c);
		}
		assert_null(hil_board_clock(b, 1));
		/* Its stub's build. */
		snprintf(mk, sizeof(mk), "%s/target/boards/%s/board.mk",
			 src_dir(), b->name);
		if (access(mk, R_OK) != 0) {
			fail_msg("board %s has no %s", b->name, mk);
		}
		if (b->default_config != NULL) {
			snprintf(mk, sizeof(mk), "%s/%s", src_dir(),
				 b->default_config);
			if (access(mk, R_OK) != 0) {
				fail_msg("board %s: no %s", b->name, mk);
			}
		}
		assert_int_equal(hil_board_emulated(b->name), b->emulated);
	}
	assert_null(hil_board_find("no-such-board"));
	assert_false(hil_board_emulated("no-such-board"));
}

/* A target folder without a host driver could be built but never run. */
static void test_every_target_folder_has_a_driver(void **state)
{
	char dir[512], mk[1024];
	struct dirent *e;
	DIR *d;
	int n = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/target/boards", src_dir());
	d = opendir(dir);
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		snprintf(mk, sizeof(mk), "%s/%s/board.mk", dir, e->d_name);
		if (access(mk, R_OK) != 0) {
			continue;
		}
		n++;
		if (hil_board_find(e->d_name) == NULL) {
			closedir(d);
			fail_msg("target/boards/%s has no board driver in "
				 "host/drivers/drivers.def",
				 e->d_name);
		}
	}
	closedir(d);
	assert_true(n >= 2);
}

static void test_every_flasher_names_its_program(void **state)
{
	const struct hil_flasher_ops *const *all = hil_flasher_all();
	size_t i;

	(void)state;
	for (i = 0; all[i] != NULL; i++) {
		assert_non_null(all[i]->name);
		assert_non_null(all[i]->program);
		assert_non_null(all[i]->package);
		assert_ptr_equal(hil_flasher_find(all[i]->name), all[i]);
	}
	assert_null(hil_flasher_find("jlink"));
}

static void test_stm32_flash_acr_decodes(void **state)
{
	struct hil_flash_state fs;
	const struct hil_board_driver *b = hil_board_find("nucleo-f401re");

	(void)state;
	assert_non_null(b);
	assert_non_null(b->flash_state);
	/* 84 MHz profile: LATENCY 2, PRFTEN, ICEN, DCEN (RM0368 3.8.1). */
	b->flash_state(0x702u, &fs);
	assert_int_equal(fs.wait_states, 2);
	assert_int_equal(fs.prefetch, 1);
	assert_int_equal(fs.icache, 1);
	assert_int_equal(fs.dcache, 1);
	b->flash_state(0x0u, &fs);
	assert_int_equal(fs.wait_states, 0);
	assert_int_equal(fs.prefetch, 0);
	assert_int_equal(fs.icache, 0);
	assert_int_equal(fs.dcache, 0);
}

static void test_nrf_reports_its_icache_only(void **state)
{
	struct hil_flash_state fs;
	const struct hil_board_driver *b = hil_board_find("nrf52840-dk");

	(void)state;
	assert_non_null(b);
	b->flash_state(1u, &fs);
	assert_int_equal(fs.icache, 1);
	assert_int_equal(fs.wait_states, -1);
	assert_int_equal(fs.prefetch, -1);
	assert_int_equal(fs.dcache, -1);
	b->flash_state(0u, &fs);
	assert_int_equal(fs.icache, 0);
}

static void test_emulated_board_has_no_flash_decoder(void **state)
{
	const struct hil_board_driver *b = hil_board_find("qemu-netduino");

	(void)state;
	assert_non_null(b);
	assert_null(b->flash_state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_board_is_complete),
		cmocka_unit_test(test_every_target_folder_has_a_driver),
		cmocka_unit_test(test_every_flasher_names_its_program),
		cmocka_unit_test(test_stm32_flash_acr_decodes),
		cmocka_unit_test(test_nrf_reports_its_icache_only),
		cmocka_unit_test(test_emulated_board_has_no_flash_decoder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
