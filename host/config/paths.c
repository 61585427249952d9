/* paths: output paths a configuration names stay inside the working directory; the command line may send output anywhere. */
#include "paths.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

int hil_path_confined(const char *path)
{
	const char *p = path;
	long depth = 0;

	if (path == NULL || path[0] == '\0' || path[0] == '/') {
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--depth < 0) {
				return 0; /* above where it started */
			}
		} else if (n > 0 && !(n == 1 && p[0] == '.')) {
			depth++;
		}
		p += n;
		while (*p == '/') {
			p++;
		}
	}
	return 1;
}

int hil_path_check_config(const struct hil_config *cfg, char *err, size_t len)
{
	if (cfg == NULL) {
		return HIL_ERR_ARG;
	}
	if (!hil_path_confined(cfg->results_dir)) {
		if (err != NULL && len > 0) {
			snprintf(
				err, len,
				"%s: results_dir \"%s\": a configuration may only name an output folder inside the working directory (a relative path, no \"..\" above it)",
				cfg->path[0] != '\0' ? cfg->path
						     : "inline configuration",
				cfg->results_dir);
		}
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}
