/* opts: the option parsing every hilrun command shares: "--name value" and "--name=value", and whole numbers checked against their range. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "util/err.h"
#include "util/log.h"

/* Does s look like an option rather than a value? "-1" is a value (that
 * the number check refuses with a better message), "-q" is not. */
static int looks_like_option(const char *s)
{
	return s[0] == '-' && (s[1] == '-' || (s[1] >= 'a' && s[1] <= 'z') ||
			       (s[1] >= 'A' && s[1] <= 'Z'));
}

int cli_next_opt(const char *cmd, int argc, char **argv, int *i,
		 const struct opt *opts, size_t n, const char **val)
{
	const char *a = argv[*i];
	const char *eq;
	size_t k, len;

	*val = NULL;
	if (strcmp(a, "-v") == 0 || strcmp(a, "-q") == 0) {
		return OPT_SKIP;
	}
	if (a[0] != '-' || a[1] == '\0') {
		*val = a;
		return OPT_POSITIONAL;
	}
	eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
	len = eq != NULL ? (size_t)(eq - a) : strlen(a);
	for (k = 0; k < n; k++) {
		if (strlen(opts[k].name) != len ||
		    strncmp(opts[k].name, a, len) != 0) {
			continue;
		}
		if (!opts[k].value) {
			if (eq != NULL) {
				hil_err("%s%s%s takes no value", cmd,
					cmd[0] ? ": " : "", opts[k].name);
				return OPT_ERROR;
			}
			return (int)k;
		}
		if (eq != NULL) {
			*val = eq + 1;
			return (int)k;
		}
		if (*i + 1 >= argc ||
		    (opts[k].value == 1 && looks_like_option(argv[*i + 1]))) {
			if (*i + 1 < argc) {
				hil_err("%s%s%s needs a value, got the option %s (write %s=VALUE for a value that starts with -)",
					cmd, cmd[0] ? ": " : "", opts[k].name,
					argv[*i + 1], opts[k].name);
			} else {
				hil_err("%s%s%s needs a value", cmd,
					cmd[0] ? ": " : "", opts[k].name);
			}
			return OPT_ERROR;
		}
		*val = argv[++*i];
		return (int)k;
	}
	hil_err("%s%sunknown option %.*s (try hilrun %s%s--help)", cmd,
		cmd[0] ? ": " : "", (int)len, a, cmd, cmd[0] ? " " : "");
	return OPT_ERROR;
}

int cli_parse_uint(const char *opt, const char *s, unsigned long min,
		   unsigned long max, unsigned long *out)
{
	char *end = NULL;
	unsigned long v;

	errno = 0;
	v = s[0] >= '0' && s[0] <= '9' ? strtoul(s, &end, 10) : 0;
	if (end == NULL || end == s || *end != '\0' || errno != 0 || v < min ||
	    v > max) {
		hil_err("%s \"%s\": expected a whole number from %lu to %lu",
			opt, s, min, max);
		return HIL_ERR_ARG;
	}
	*out = v;
	return HIL_OK;
}
