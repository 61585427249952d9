/* test_e2e_snapshot: a user's folder is built from a copy taken when the build starts and checked against the configuration's load: a file swapped for a link to a host secret after the load never reaches the build; an unchanged folder builds from its copy, links inside it kept inside, and a second build recompiles nothing. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "e2e_util.h"
#include "image/build.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define SECRET "TOPSECRET_4242_NEVER_BUILT"

static char tmp_root[64];
static char src_root[HIL_PATH];

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The bundled Ascon-AEAD128 ref folder's files copied into dir, plus a
 * leak.c that includes leak.h (harmless when the config is loaded). */
static void make_folder(const char *dir)
{
	char from[HIL_PATH + 64], to[HIL_PATH + 64];
	const char *files[] = {"api.h", "encrypt.c"};
	size_t i;

	e2e_make_dir(dir);
	for (i = 0; i < 2; i++) {
		char *text = NULL;

		snprintf(from, sizeof(from),
			 "%s/target/crypto/ascon-aead128/ref/%s", src_root,
			 files[i]);
		assert_int_equal(hil_read_file(from, &text, NULL), HIL_OK);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		write_text(to, text);
		free(text);
	}
	snprintf(to, sizeof(to), "%s/leak.c", dir);
	write_text(to, "#include \"leak.h\"\nint snap_leak_marker;\n");
	snprintf(to, sizeof(to), "%s/leak.h", dir);
	write_text(to, "/* nothing */\n");
}

static void load(struct hil_config *cfg, const char *name, const char *dir)
{
	char json[2048], err[512];

	snprintf(
		json, sizeof(json),
		"{ \"name\": \"%s\", \"board\": { \"name\": \"qemu-netduino\" },"
		" \"flasher\": { \"type\": \"qemu\" },"
		" \"algorithms\": [ { \"name\": \"ascon-aead128\","
		" \"impl\": \"snap\", \"path\": \"%s\" } ] }",
		name, dir);
	if (hil_config_parse(json, src_root, cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s", err);
	}
}

/* Does any file under dir (links not followed) hold needle? */
static int tree_holds(const char *dir, const char *needle)
{
	char *const argv[] = {"grep",	      "-r",	   "-l", "-F",
			      (char *)needle, (char *)dir, NULL};
	char out[1024];
	int status = -1;

	assert_int_equal(
		hil_proc_capture(argv, out, sizeof(out), 60000, &status),
		HIL_OK);
	return status == 0;
}

/*
 * The configuration is loaded (its folder checked: regular files only),
 * then leak.h is swapped for a link to a secret of the host. The build,
 * unjailed (where nothing else would stop the compiler reading it), is
 * refused naming the folder, and the secret is neither in the build log
 * nor anywhere in the image's build folder.
 */
static void
test_a_file_swapped_after_the_check_never_reaches_the_build(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_firmware *fw = calloc(1, sizeof(*fw));
	char dir[128], secret[128], leak[160], log[128];
	struct e2e_capture c;
	char said[8192];
	char *text = NULL;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(fw);
	snprintf(dir, sizeof(dir), "%s/swap", tmp_root);
	make_folder(dir);
	snprintf(secret, sizeof(secret), "%s/host-secret.txt", tmp_root);
	write_text(secret, SECRET "\n");
	load(cfg, "e2e-snapshot-swap", dir);

	snprintf(leak, sizeof(leak), "%s/leak.h", dir);
	assert_int_equal(unlink(leak), 0);
	assert_int_equal(symlink(secret, leak), 0);

	snprintf(log, sizeof(log), "%s/swap-build.log", tmp_root);
	e2e_capture_begin(&c, tmp_root);
	assert_int_not_equal(hil_build_firmware_ex(cfg, src_root, log, NULL,
						   HIL_BUILD_NO_JAIL, NULL, fw),
			     HIL_OK);
	e2e_capture_end(&c, said, sizeof(said));
	e2e_assert_contains(said, "ascon-aead128/snap");
	e2e_assert_contains(said, "not those the configuration's check found");
	if (hil_read_file(log, &text, NULL) == HIL_OK) {
		assert_null(strstr(text, SECRET));
		free(text);
	}
	assert_false(tree_holds(fw->dir, SECRET));
	e2e_remove_tree(fw->dir);
	hil_firmware_free(fw);
	free(fw);
	hil_config_free(cfg);
	free(cfg);
}

/*
 * An unchanged folder with a link inside it (alias.h -> api.h) and a
 * header in a sub-folder builds from its copy: the copy is a folder of
 * ours, the link in it leads to the copy's api.h, the files keep their
 * times, and a second build of the same image compiles nothing again.
 */
static void test_an_unchanged_folder_builds_from_its_copy(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_firmware *fw = calloc(1, sizeof(*fw));
	char dir[128], path[HIL_PATH + 64], copy[HIL_PATH + 64], log[128];
	char obj[HIL_PATH + 64], target[64];
	struct stat st, orig, before, after;
	ssize_t n;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(fw);
	snprintf(dir, sizeof(dir), "%s/same", tmp_root);
	make_folder(dir);
	snprintf(path, sizeof(path), "%s/sub", dir);
	e2e_make_dir(path);
	snprintf(path, sizeof(path), "%s/sub/deep.h", dir);
	write_text(path, "#define SNAP_DEEP 1\n");
	snprintf(path, sizeof(path), "%s/leak.c", dir);
	write_text(path,
		   "#include \"alias.h\"\n#include \"sub/deep.h\"\n"
		   "int snap_leak_marker = SNAP_DEEP + CRYPTO_KEYBYTES;\n");
	snprintf(path, sizeof(path), "%s/alias.h", dir);
	assert_int_equal(symlink("api.h", path), 0);
	load(cfg, "e2e-snapshot-same", dir);

	snprintf(log, sizeof(log), "%s/same-build.log", tmp_root);
	assert_int_equal(hil_build_firmware_ex(cfg, src_root, log, NULL,
					       HIL_BUILD_NO_JAIL, NULL, fw),
			 HIL_OK);
	snprintf(copy, sizeof(copy), "%s/src/ascon-aead128_snap", fw->dir);
	assert_int_equal(lstat(copy, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(path, sizeof(path), "%s/alias.h", copy);
	n = readlink(path, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "api.h");
	snprintf(path, sizeof(path), "%s/encrypt.c", dir);
	assert_int_equal(stat(path, &orig), 0);
	snprintf(path, sizeof(path), "%s/encrypt.c", copy);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mtime, orig.st_mtime);
	snprintf(path, sizeof(path), "%s/sub/deep.h", copy);
	assert_int_equal(stat(path, &st), 0);

	snprintf(obj, sizeof(obj), "%s/obj/ascon-aead128/snap/encrypt.o",
		 fw->dir);
	assert_int_equal(stat(obj, &before), 0);
	assert_int_equal(hil_build_firmware_ex(cfg, src_root, log, NULL,
					       HIL_BUILD_NO_JAIL, NULL, fw),
			 HIL_OK);
	assert_int_equal(stat(obj, &after), 0);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);
	e2e_remove_tree(fw->dir);
	hil_firmware_free(fw);
	free(fw);
	hil_config_free(cfg);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_file_swapped_after_the_check_never_reaches_the_build),
		cmocka_unit_test(test_an_unchanged_folder_builds_from_its_copy),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-snapshot-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
