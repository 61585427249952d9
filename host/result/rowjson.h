/* rowjson: a row as a JSON object (report.json's rows[] and journal.jsonl's lines), and the checked cJSON adds the report's writers chain. */
#ifndef HIL_ROWJSON_H
#define HIL_ROWJSON_H

#include <stdint.h>

#include <cjson/cJSON.h>

struct hil_run;
struct hil_row;
struct hil_row_leak;

/* cJSON returns NULL on allocation failure: each add says whether it
 * worked, and callers chain them with &&. */
int hil_json_add_str(cJSON *o, const char *k, const char *v);
int hil_json_add_num(cJSON *o, const char *k, double v);
int hil_json_add_bool(cJSON *o, const char *k, int v);
/* v as 8 lower-case hex digits. */
int hil_json_add_hex32(cJSON *o, const char *k, uint32_t v);

/* One row of report.json ("rows"[] and the journal's lines); NULL when out
 * of memory. */
cJSON *hil_json_row_object(const struct hil_run *run, const struct hil_row *r);

/* One row as a single JSON line (a journal line); the caller frees it;
 * NULL when out of memory. */
char *hil_result_row_line(const struct hil_run *run, const struct hil_row *r);

/* The row's timing-leak test as its "leak" object (absent when not run);
 * 0 when out of memory. */
int hil_json_row_leak(cJSON *row, const struct hil_run *run,
		      const struct hil_row_leak *l);

#endif /* HIL_ROWJSON_H */
