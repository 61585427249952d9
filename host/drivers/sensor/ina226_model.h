/* ina226_model: a register-level INA226 (TI SBOS547) whose current follows a scripted waveform and whose time is the test's, seen byte by byte from the I2C bus. */
#ifndef HIL_INA226_MODEL_H
#define HIL_INA226_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "regmodel.h"

/*
 * What is modelled (datasheet SBOS547, register map section 7.1 of
 * revision B; "Register Details" in the 2011 original):
 * - 00h configuration: power-on value 4127h; RST (bit 15) resets every
 *   register and self-clears; AVG (11:9) 1, 4, 16 ... 1024 samples; VBUSCT
 *   (8:6) and VSHCT (5:3) 140, 204, 332, 588, 1100, 2116, 4156, 8244 us;
 *   MODE (2:0). Bits 14:12 are "-" in the datasheet, which does not say
 *   what a write does to them: here they are stored as written;
 * - 01h shunt voltage (signed, 2.5 uV LSB, clipped to +-81.92 mV), 02h bus
 *   voltage (1.25 mV LSB, 0..7FFFh = 40.96 V; bit 15 always 0), 03h power,
 *   04h current, 05h calibration (bits 14:0; bit 15 is "-" and reads 0);
 * - Current = Shunt x CAL / 2048 after each shunt sample, Power =
 *   |Current| x Bus / 20000 after each bus sample (equations 3 and 4;
 *   divisions truncate toward zero, as the datasheet does not say);
 *   with averaging, the per-sample values are accumulated and their
 *   average loaded into the registers when the last sample is done
 *   (section 6.3.1.1); current and power stay 0 while CAL is 0; OVF when a
 *   current or power value does not fit its register (then clipped);
 * - conversion timing: one cycle is AVG x (VSHCT + VBUSCT) in "shunt and
 *   bus" modes (shunt first in each sample, then bus), AVG x VSHCT or
 *   AVG x VBUSCT in the single-channel modes; triggered modes convert once
 *   per configuration write; 000 and 100 are power-down;
 * - 06h mask/enable: alert functions SOL SUL BOL BUL POL (15:11, the
 *   highest set bit wins), CNVR (10), AFF (4), CVRF (3), OVF (2), APOL (1),
 *   LEN (0). CVRF is set when a cycle completes and cleared by reading
 *   06h or by writing 00h with a mode other than power-down. AFF is
 *   compared on each completed cycle's register values; in latch mode
 *   (LEN) it is cleared only by reading 06h, in transparent mode by the
 *   next cycle that is within the limit. OVF describes the latest cycle;
 * - 07h alert limit (read/write), FEh manufacturer ID 5449h, FFh die ID
 *   2260h; other pointers read 0;
 * - the ALERT pin (open drain): asserted while CNVR and CVRF are set or
 *   the enabled alert function has AFF set; active low unless APOL;
 * - the register pointer persists across transactions (regmodel.h).
 * Not modelled: noise, offset and gain errors, the 40 us recovery from
 * power-down, SMBus alert response, high-speed mode, general call.
 */

/**
 * A new model at a 7-bit address in its power-on state, at time 0 of its
 * internal clock (the test moves it with hil_regmodel_advance();
 * hil_regmodel_set_clock_host() puts it on the host's CLOCK_MONOTONIC, as
 * on the sim bus), with an idle 10 mA / active 25 mA / 3.3 V step
 * waveform and no active windows. Its clock, waveform, faults and bus
 * side are the register-model core's (regmodel.h).
 * @param shunt_ohm the shunt resistor the waveform's current flows through.
 * @return the model (free with hil_regmodel_free) or NULL (no memory).
 */
struct hil_regmodel *ina226_model_new(uint8_t addr, double shunt_ohm);

/* Its register behaviour, as the core and the sim bus take it. */
extern const struct hil_regmodel_chip ina226_model_chip;

/**
 * Level of the ALERT pin of m (an ina226_model_new() model): 1 released
 * (pulled up), 0 driven low.
 */
int ina226_model_alert_pin(struct hil_regmodel *m);

/** Conversion time in us of a 3-bit VBUSCT/VSHCT code (SBOS547 Tables 4, 5). */
unsigned ina226_model_ct_us(unsigned code);

/** Samples averaged for a 3-bit AVG code (SBOS547 Table 3). */
unsigned ina226_model_avg(unsigned code);

#endif /* HIL_INA226_MODEL_H */
