/* log: leveled diagnostics to stderr with a per-file prefix. */
#ifndef HIL_LOG_H
#define HIL_LOG_H

enum hil_log_level {
	HIL_LOG_ERR = 0,
	HIL_LOG_WARN = 1,
	HIL_LOG_INFO = 2,
	HIL_LOG_DBG = 3,
	HIL_LOG_SPEW = 4,
};

/*
 * The level is read from the environment variable HILRUN_LOG (0..4, default
 * 2), which main() sets from -v/-q. Keeping it in the environment rather than
 * in a global keeps the host free of mutable globals outside main.
 */
void hil_log(int level, const char *prefix, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** Set the level for this process (and children): used by main only. */
void hil_log_set_level(int level);

#ifndef HIL_LOG_PREFIX
#define HIL_LOG_PREFIX "hilrun"
#endif

#define hil_err(...)  hil_log(HIL_LOG_ERR, HIL_LOG_PREFIX, __VA_ARGS__)
#define hil_warn(...) hil_log(HIL_LOG_WARN, HIL_LOG_PREFIX, __VA_ARGS__)
#define hil_info(...) hil_log(HIL_LOG_INFO, HIL_LOG_PREFIX, __VA_ARGS__)
#define hil_dbg(...)  hil_log(HIL_LOG_DBG, HIL_LOG_PREFIX, __VA_ARGS__)
#define hil_spew(...) hil_log(HIL_LOG_SPEW, HIL_LOG_PREFIX, __VA_ARGS__)

#endif /* HIL_LOG_H */
