/* json_int: what the files that write report.json share (json.c and result/rowjson.h's row writer); not a public API. */
#ifndef HIL_JSON_INT_H
#define HIL_JSON_INT_H

#include "result/rowjson.h"

#endif /* HIL_JSON_INT_H */
