/* term: what hilrun knows of the terminal its results go to. */
#define _DEFAULT_SOURCE
#include "term.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

unsigned hil_term_width(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
		return ws.ws_col;
	}
	if (env != NULL && env[0] >= '1' && env[0] <= '9' && strlen(env) < 6 &&
	    strspn(env, "0123456789") == strlen(env)) {
		return (unsigned)atoi(env);
	}
	return 0;
}
