/* rfield_fill: a codec table's field given a value of its type, for the tests of the row and head codecs. */
#include "rfield_fill.h"

#include <stdint.h>
#include <stdio.h>

#include "result/rowcodec.h"

void ut_rfield_fill(const struct hil_rfield *f, void *base, unsigned k)
{
	char *p = (char *)base + f->off;

	switch (f->type) {
	case HIL_RF_STR:
		snprintf(p, f->size, "v%u", k);
		break;
	case HIL_RF_OP:
		*(const char **)p = hil_result_op("decrypt");
		break;
	case HIL_RF_U32:
		*(uint32_t *)p = 10 + k;
		break;
	case HIL_RF_UINT:
	case HIL_RF_HEX_0X:
		*(unsigned *)p = 10 + k;
		break;
	case HIL_RF_INT:
		*(int *)p = 20 + (int)k;
		break;
	case HIL_RF_U64:
		*(uint64_t *)p = 5000000000ull + k;
		break;
	case HIL_RF_NUM:
		*(double *)p = k + 0.5;
		break;
	case HIL_RF_BOOL:
	case HIL_RF_FLAG_STR:
		*(int *)p = 1;
		break;
	case HIL_RF_HEX32:
		*(uint32_t *)p = 0xa5000000u + k;
		break;
	case HIL_RF_NUM_PAIR:
		*(double *)p = k + 0.25;
		*(double *)((char *)base + f->known) = k + 0.75;
		break;
	case HIL_RF_CONST:
		break;
	}
	if (f->flags & HIL_RF_KNOWN) {
		*(int *)((char *)base + f->known) = 1;
	}
}
