/* ina219_model: a register-level INA219 (TI SBOS448) whose current follows a scripted waveform, seen byte by byte from the I2C bus. */
#ifndef HIL_INA219_MODEL_H
#define HIL_INA219_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "regmodel.h"

/*
 * What is modelled (datasheet SBOS448 section 8.6):
 * - registers 00h configuration (reset 399Fh, RST self-clears, bit 14
 *   ignored), 01h shunt voltage (signed, 10 uV LSB, clipped to the PGA range
 *   +-40/80/160/320 mV), 02h bus voltage (4 mV LSB in bits 15..3, CNVR bit 1,
 *   OVF bit 0; clipped to the 16 or 32 V range), 03h power, 04h current,
 *   05h calibration (bit 0 cannot be set);
 * - current = shunt x cal / 4096 and power = |current| x bus / 5000 (bus in
 *   4 mV units), computed when a conversion completes; OVF when either does
 *   not fit its register; current and power stay 0 while cal is 0;
 * - conversion timing from the ADC settings (84 us at 9 bit ... 532 us at
 *   12 bit, 1.06 ms ... 68.10 ms with 2..128 samples averaged); in "shunt and
 *   bus" modes the shunt is converted first, then the bus, so one cycle is
 *   the sum of the two; continuous and triggered modes, power-down and ADC off;
 * - CNVR set when a conversion cycle completes, cleared by reading the power
 *   register or by writing a mode other than power-down/ADC off;
 * - each reading is the mean of the waveform over the time the ADC spent on
 *   it (sampled at 16 points or at the averaging count, the larger);
 * - the register pointer persists across transactions (reads without a
 *   pointer write read the last register pointed to; regmodel.h);
 * - the instants at which the waveform is sampled are whole microseconds.
 * Not modelled: the coarser resolution of 9..11 bit settings, noise, offset
 * and gain errors, the 4 us register update delay, SMBus alert, high-speed
 * mode, clock stretching (the INA219 does not stretch).
 */

/**
 * A new model at a 7-bit address, in its power-on state, on the host's
 * clock (CLOCK_MONOTONIC, 0 now), with an idle 10 mA / active 25 mA / 3.3 V
 * step waveform and no active windows. Its clock, waveform, faults and bus
 * side are the register-model core's (regmodel.h).
 * @param shunt_ohm the shunt resistor the waveform's current flows through.
 * @return the model (free with hil_regmodel_free) or NULL (no memory).
 */
struct hil_regmodel *ina219_model_new(uint8_t addr, double shunt_ohm);

/* Its register behaviour, as the core and the sim bus take it. */
extern const struct hil_regmodel_chip ina219_model_chip;

/** Nominal ADC time in us for a 4-bit BADC/SADC code (Table 6). */
unsigned ina219_model_adc_us(unsigned code);

#endif /* HIL_INA219_MODEL_H */
