/* cmd_crypt: hilrun crypt, one operation of an algorithm on the host build or the emulated target, from the command line. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config/config.h"
#include "crypt.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_crypt_usage[] =
	"usage: hilrun crypt ALG[/IMPL] [--key HEX] [--nonce HEX] [--ad HEX]\n"
	"                    [--pt HEX | --decrypt --ct HEX] [--outlen N]\n"
	"                    [--op encrypt|decrypt|hash|keysetup] [--on host|qemu]\n"
	"                    [--config FILE]\n"
	"One operation on the host build (default) or on the emulated target;\n"
	"prints the output (ciphertext||tag, plaintext or digest) in hex.\n"
	"  --key, --nonce, --ad HEX   inputs (\"\" for empty)\n"
	"  --pt HEX, --msg HEX        plaintext or message; --ct HEX ciphertext||tag\n"
	"  --decrypt                  the same as --op decrypt\n"
	"  --outlen N                 output bytes of an XOF\n"
	"  --on host|qemu             where it runs (qemu: the config's image)\n"
	"  --config FILE              the config for --on qemu (configs/qemu.json)\n"
	"exit: 0 done, 1 authentication failed (decryption refused the tag),\n"
	"      2 bad arguments or the target could not be started\n";

static int cmd_crypt(int argc, char **argv, const volatile sig_atomic_t *stop)
{
	static const struct opt opts[] = {
		{"--decrypt", 0}, {"--outlen", 1}, {"--key", 1},
		{"--nonce", 1},	  {"--ad", 1},	   {"--pt", 1},
		{"--ct", 1},	  {"--msg", 1},	   {"--op", 1},
		{"--on", 1},	  {"--config", 1},
	};
	struct hil_crypt_args a;
	struct hil_config *cfg = NULL;
	const char *config_path = NULL;
	const char *v;
	int i;
	int ret;

	memset(&a, 0, sizeof(a));
	for (i = 1; i < argc; i++) {
		unsigned long n;
		int k = cli_next_opt("crypt", argc, argv, &i, opts,
				     sizeof(opts) / sizeof(opts[0]), &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_ERROR) {
			return HIL_ERR_ARG;
		}
		if (k == OPT_POSITIONAL) {
			if (a.alg != NULL) {
				hil_err("crypt: one algorithm only (got %s and %s)",
					a.alg, v);
				return HIL_ERR_ARG;
			}
			a.alg = v;
			continue;
		}
		switch (k) {
		case 0:
			a.op = "decrypt";
			break;
		case 1:
			if (cli_parse_uint("crypt: --outlen", v, 1, 1u << 20,
					   &n) != HIL_OK) {
				return HIL_ERR_ARG;
			}
			a.xof_len = n;
			break;
		case 2:
			a.key_hex = v;
			break;
		case 3:
			a.nonce_hex = v;
			break;
		case 4:
			a.ad_hex = v;
			break;
		case 5:
		case 6:
		case 7:
			a.in_hex = v;
			break;
		case 8:
			a.op = v;
			break;
		case 9:
			a.on = v;
			break;
		default:
			config_path = v;
			break;
		}
	}
	if (a.alg == NULL) {
		hil_err("crypt: name the algorithm, e.g. hilrun crypt ascon-aead128 ... (hilrun crypt --help)");
		return HIL_ERR_ARG;
	}
	if (a.on != NULL && strcmp(a.on, "host") != 0) {
		cfg = calloc(1, sizeof(*cfg));
		if (cfg == NULL) {
			return HIL_ERR_NOMEM;
		}
		ret = cli_load_config(
			config_path ? config_path : "configs/qemu.json", cfg);
		if (ret != HIL_OK) {
			hil_config_free(cfg);
			free(cfg);
			return ret;
		}
		a.cfg = cfg;
	}
	a.stop = stop;
	ret = hil_crypt(&a, stdout);
	hil_config_free(cfg);
	free(cfg);
	return ret;
}

int cli_crypt(int argc, char **argv, const struct cli_env *env)
{
	int ret = cmd_crypt(argc, argv, env->stop);

	/* A refused tag is an answer, not a failure to start (cli_crypt_usage). */
	if (ret == HIL_ERR_VERIFY) {
		return 1;
	}
	return ret == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}
