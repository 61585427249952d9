/* ina219_model: a register-level INA219 (TI SBOS448) whose current follows a scripted waveform, seen byte by byte from the I2C bus. */
#ifndef HIL_INA219_MODEL_H
#define HIL_INA219_MODEL_H

#include <stddef.h>
#include <stdint.h>

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
 *   pointer write read the last register pointed to).
 * Not modelled: the coarser resolution of 9..11 bit settings, noise, offset
 * and gain errors, the 4 us register update delay, SMBus alert, high-speed
 * mode, clock stretching (the INA219 does not stretch).
 *
 * The model is thread-safe: every call takes its lock.
 */

struct ina219_model;

/* Microseconds since the model's start, from whatever clock the test wants. */
typedef uint64_t (*ina219_clock_fn)(void *ctx);

/* The waveform: bus voltage (V, at IN-) and load current (A) at time t_us. */
typedef void (*ina219_wave_fn)(void *ctx, uint64_t t_us, double *bus_v,
			       double *current_a);

#define INA219_STEPS_MAX 64

/*
 * The built-in waveform: idle current, active current inside the windows
 * [start_us, end_us), a constant bus voltage, and an optional sine ripple on
 * top (amplitude ripple_a, period ripple_period_us) to keep tests honest.
 */
struct ina219_steps {
	double bus_v;
	double idle_a;
	double active_a;
	double ripple_a;
	uint64_t ripple_period_us;
	size_t n;
	struct {
		uint64_t start_us;
		uint64_t end_us;
	} win[INA219_STEPS_MAX];
};

/**
 * A new model at a 7-bit address, in its power-on state, its clock at 0 now
 * (CLOCK_MONOTONIC), with an idle 10 mA / active 25 mA / 3.3 V step waveform
 * and no active windows.
 * @param shunt_ohm the shunt resistor the waveform's current flows through.
 * @return the model (free with ina219_model_free) or NULL (no memory).
 */
struct ina219_model *ina219_model_new(uint8_t addr, double shunt_ohm);
void ina219_model_free(struct ina219_model *m);

/**
 * Use clock fn (NULL: CLOCK_MONOTONIC since the model's creation). The model
 * then restarts from its power-on state at the new clock's present time.
 */
void ina219_model_set_clock(struct ina219_model *m, ina219_clock_fn fn,
			    void *ctx);

/** The model's current time in us (from its clock). */
uint64_t ina219_model_now_us(struct ina219_model *m);

/** CLOCK_MONOTONIC in ns at which the default clock read 0. */
uint64_t ina219_model_epoch_ns(const struct ina219_model *m);

/** Replace the waveform by a copy of st (the built-in step waveform). */
void ina219_model_set_steps(struct ina219_model *m,
			    const struct ina219_steps *st);

/**
 * Add an active window to the step waveform (e.g. as the stub's loop runs).
 * @return 0, or -1 if INA219_STEPS_MAX windows are already there.
 */
int ina219_model_add_window(struct ina219_model *m, uint64_t start_us,
			    uint64_t end_us);

/**
 * The load follows the host: from now on the step waveform draws active_a
 * (on) or idle_a again (off), as the board does while the stub's energy
 * loop runs. The host calls it around the ENERGY command, where on a real
 * board the trigger pin would mark the loop. Windows that ended long ago
 * are dropped, so this can be called any number of times.
 * @return 0, or -1 if the waveform is a custom one.
 */
int ina219_model_load(struct ina219_model *m, int on);

/** Use a custom waveform; fn is called under the model's lock. */
void ina219_model_set_wave(struct ina219_model *m, ina219_wave_fn fn,
			   void *ctx);

/**
 * A dead sensor: after n more transactions addressed to it (START to STOP;
 * a repeated START does not begin a new one), the model stops acknowledging
 * its address. -1: never.
 */
void ina219_model_set_dead_after(struct ina219_model *m, long n);

/** Oscillator error: conversions take (1 + ppm/1e6) times their nominal time. */
void ina219_model_set_rate_ppm(struct ina219_model *m, long ppm);

/** Register value as a read would return it, without side effects. */
uint16_t ina219_model_peek(struct ina219_model *m, uint8_t reg);

/** Transactions (START..STOP) that addressed this model, ACKed or not. */
unsigned long ina219_model_transactions(struct ina219_model *m);

/** Completed conversion cycles since the last mode write or reset. */
uint64_t ina219_model_conversions(struct ina219_model *m);

uint8_t ina219_model_addr(const struct ina219_model *m);

/** Nominal ADC time in us for a 4-bit BADC/SADC code (Table 6). */
unsigned ina219_model_adc_us(unsigned code);

/* ---- the bus side: what an I2C master does to the chip, byte by byte ---- */

/**
 * A START (or repeated START) followed by the address byte (addr << 1 | R/W).
 * @return 1 if the chip acknowledges (its address and alive), 0 if not.
 */
int ina219_model_i2c_start(struct ina219_model *m, uint8_t addr_rw);

/** A byte written after an acknowledged write address. @return 1 ACK. */
int ina219_model_i2c_write(struct ina219_model *m, uint8_t byte);

/** The next byte the chip shifts out after an acknowledged read address. */
uint8_t ina219_model_i2c_read(struct ina219_model *m);

/** A STOP. */
void ina219_model_i2c_stop(struct ina219_model *m);

#endif /* HIL_INA219_MODEL_H */
