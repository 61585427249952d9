/* ina2xx_sensor: what the INA219's and the INA226's glue share: a chip's setup as the report's fields and as the sampler's source. */
#include "ina2xx_sensor.h"

/* MODE 111 on both chips: shunt and bus, continuous. */
#define MODE_BOTH_CONTINUOUS 7u

void ina2xx_sensor_describe(const struct ina2xx_setup *st,
			    const struct hil_config *cfg,
			    struct hil_sensor_info *i)
{
	i->config_reg = st->config;
	i->cal_reg = st->cal;
	i->current_lsb_a = st->eff_lsb_a;
	i->power_lsb_w = st->power_lsb_w;
	i->shunt_range_v = st->shunt_range_v;
	i->averages = cfg->sensor.averages;
	i->cycle_us = st->cycle_us;
}

void ina2xx_sensor_source(const struct ina2xx_setup *st, void *dev,
			  int (*sample)(void *dev,
					struct hil_sensor_sample *out),
			  struct hil_sensor_source *src)
{
	src->dev = dev;
	src->sample = sample;
	src->shunt_ohm = st->shunt_ohm;
	src->cycle_us = st->cycle_us;
	src->continuous = (st->config & 7u) == MODE_BOTH_CONTINUOUS;
}
