/* sim_model: a sim bus with a chip's model, and a constant load, for the sensor tests. */
#define _POSIX_C_SOURCE 200809L

#include "sim_model.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "drivers/i2c/i2c.h"
#include "drivers/sensor/regmodel.h"
#include "util/err.h"

struct hil_i2c_bus *ut_sim_bus(const char *spec, int manual,
			       struct hil_regmodel **m)
{
	struct hil_i2c_bus *bus = NULL;
	struct hil_regmodel *model;

	assert_int_equal(hil_i2c_open(&bus, spec), HIL_OK);
	model = hil_i2c_sim_model(bus, NULL);
	assert_non_null(model);
	if (manual) {
		hil_regmodel_set_clock(model, NULL, NULL);
	}
	if (m != NULL) {
		*m = model;
	}
	return bus;
}

void ut_model_constant(struct hil_regmodel *m, double bus_v, double current_a)
{
	struct hil_regmodel_steps st;

	memset(&st, 0, sizeof(st));
	st.bus_v = bus_v;
	st.idle_a = current_a;
	st.active_a = current_a;
	hil_regmodel_set_steps(m, &st);
}
