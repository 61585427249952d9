/* err: the host's error codes and their messages. */
#ifndef HIL_ERR_H
#define HIL_ERR_H

enum hil_err {
	HIL_OK = 0,
	HIL_ERR_ARG = -1,     /* bad argument or input */
	HIL_ERR_NOMEM = -2,   /* out of memory */
	HIL_ERR_IO = -3,      /* an OS or device call failed */
	HIL_ERR_TIMEOUT = -4, /* the peer did not answer in time */
	HIL_ERR_PROTO = -5,   /* malformed or unexpected frame */
	HIL_ERR_NA = -6,      /* not available (backend not built, no device) */
	HIL_ERR_CONFIG = -7,  /* invalid configuration */
	HIL_ERR_BUILD = -8,   /* firmware build failed */
	HIL_ERR_MISMATCH =
		-9,	      /* the target is not running the image we built */
	HIL_ERR_TARGET = -10, /* the target answered with an error status */
	HIL_ERR_VERIFY = -11, /* output differs from the expected one */
	HIL_ERR_PROCESS = -12,	   /* a child process failed */
	HIL_ERR_INTERRUPTED = -13, /* stopped by a signal */
	HIL_ERR_TARGET_FAULT =
		-14, /* the target took a fault (registers logged) */
};

/** A short message for a code; never NULL. */
const char *hil_strerror(int err);

#endif /* HIL_ERR_H */
