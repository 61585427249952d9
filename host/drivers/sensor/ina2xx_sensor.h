/* ina2xx_sensor: the glue the INA219's and the INA226's sensor drivers share (ina219_sensor.c, ina226_sensor.c): a setup as the report describes it and as the sampler reads it. */
#ifndef HIL_INA2XX_SENSOR_H
#define HIL_INA2XX_SENSOR_H

#include "config/config.h"
#include "ina2xx.h"
#include "sensor.h"

/**
 * The report's fields that st gives on either chip: the registers as
 * written, the LSBs, the shunt range, the cycle, and cfg's averaging. The
 * driver adds the bus range, the ADC resolution and the conversion time.
 */
void ina2xx_sensor_describe(const struct ina2xx_setup *st,
			    const struct hil_config *cfg,
			    struct hil_sensor_info *i);

/**
 * What the sampler needs of the open chip dev set up as st, read with
 * sample: its shunt, its cycle, and whether it converts shunt and bus
 * continuously (MODE 111 on both chips).
 */
void ina2xx_sensor_source(const struct ina2xx_setup *st, void *dev,
			  int (*sample)(void *dev,
					struct hil_sensor_sample *out),
			  struct hil_sensor_source *src);

#endif /* HIL_INA2XX_SENSOR_H */
