/* energyrun: the energy phase of a row: the stub's energy loop sized to the sensor, idle baselines around it, energy per operation. */
#ifndef HIL_ENERGYRUN_H
#define HIL_ENERGYRUN_H

#include <stdint.h>

#include "hilp.h"
#include "result/run.h"

struct hil_session;
struct hil_sensor_source;
struct hil_energyrun;

struct hil_energyrun_opts {
	uint32_t conversions; /* conversion cycles an active window spans */
	uint32_t windows;     /* active windows per row */
	double clock_hz;      /* the core clock the counter ticks at */
	uint32_t baud;	      /* link speed: frames' time on the wire */
	unsigned timeout_ms;  /* the link's reply timeout */
};

/**
 * Prepare the energy phase on an open sensor (continuous mode); the sampler
 * starts with the first row's energy.
 * @param src copied (hil_sensor_source()); its dev must outlive e. With a
 *        model (a simulated chip), its load follows the host around each
 *        energy loop (the board's current rises while the stub loops), and
 *        every figure is labelled a model.
 * @return HIL_OK, HIL_ERR_ARG or HIL_ERR_NOMEM.
 */
int hil_energyrun_start(struct hil_energyrun **out,
			const struct hil_sensor_source *src,
			const struct hil_energyrun_opts *opts);

/**
 * Energy of one row: the stub runs op (req's inputs, count chosen here) in
 * windows of at least opts.conversions conversion cycles, with idle windows
 * before and after. A sensor that stopped answering, a window with too few
 * conversions or a digest that differs from expected_digest fill
 * out->error and mark it failed; the row's cycle figures are never touched.
 * @return HIL_OK (out says whether energy was measured), or the session's
 *         error when the target itself failed (timeout, link, fault), for
 *         the runner's recovery ladder.
 */
int hil_energyrun_row(struct hil_energyrun *e, struct hil_session *s,
		      uint8_t op, const struct hilp_energy_req *req,
		      uint32_t expected_digest, struct hil_row_energy *out);

/** Stop the sampler and free. NULL is allowed. */
void hil_energyrun_free(struct hil_energyrun *e);

#endif /* HIL_ENERGYRUN_H */
