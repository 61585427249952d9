/* jsonput: the checked cJSON adds every writer of report.json and journal lines chains with &&. */
#include "rowjson.h"

#include <stdio.h>

/* cJSON returns NULL on allocation failure; every add checks through here. */
int hil_json_add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v != NULL ? v : "") != NULL;
}

int hil_json_add_num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

int hil_json_add_bool(cJSON *o, const char *k, int v)
{
	return cJSON_AddBoolToObject(o, k, v) != NULL;
}

int hil_json_add_hex32(cJSON *o, const char *k, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%08x", (unsigned)v);
	return hil_json_add_str(o, k, buf);
}
