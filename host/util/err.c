/* err: messages for the host's error codes. */
#include "err.h"

const char *hil_strerror(int err)
{
	switch (err) {
	case HIL_OK:
		return "success";
	case HIL_ERR_ARG:
		return "invalid argument";
	case HIL_ERR_NOMEM:
		return "out of memory";
	case HIL_ERR_IO:
		return "input/output error";
	case HIL_ERR_TIMEOUT:
		return "timed out";
	case HIL_ERR_PROTO:
		return "protocol error";
	case HIL_ERR_NA:
		return "not available";
	case HIL_ERR_CONFIG:
		return "invalid configuration";
	case HIL_ERR_BUILD:
		return "firmware build failed";
	case HIL_ERR_MISMATCH:
		return "target runs a different image";
	case HIL_ERR_TARGET:
		return "target reported an error";
	case HIL_ERR_VERIFY:
		return "verification failed";
	case HIL_ERR_PROCESS:
		return "child process failed";
	case HIL_ERR_INTERRUPTED:
		return "interrupted";
	case HIL_ERR_TARGET_FAULT:
		return "the target took a fault";
	default:
		return "unknown error";
	}
}
