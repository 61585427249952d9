/* ina226_model: a register-level INA226 (TI SBOS547) whose current follows a scripted waveform and whose time is the test's, seen byte by byte from the I2C bus. */
#ifndef HIL_INA226_MODEL_H
#define HIL_INA226_MODEL_H

#include <stddef.h>
#include <stdint.h>

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
 * - the register pointer persists across transactions.
 * Not modelled: noise, offset and gain errors, the 40 us recovery from
 * power-down, SMBus alert response, high-speed mode, general call.
 *
 * No wall clock unless asked: the model's time is whatever its clock
 * function says, by default an internal counter the test moves with
 * ina226_model_advance(); ina226_model_set_clock_host() puts it on the
 * host's CLOCK_MONOTONIC (the sim bus, where the load follows the host).
 * The model is thread-safe: every call takes its lock.
 */

struct ina226_model;

/* Microseconds of model time, from whatever clock the test wants. */
typedef uint64_t (*ina226_clock_fn)(void *ctx);

/* The waveform: bus voltage (V, at VBUS) and load current (A) at t_us (fractional: the ADC samples between whole microseconds). */
typedef void (*ina226_wave_fn)(void *ctx, double t_us, double *bus_v,
			       double *current_a);

#define INA226_STEPS_MAX 64

/*
 * The built-in waveform: idle current, active current inside the windows
 * [start_us, end_us), a constant bus voltage, and an optional sine ripple
 * (amplitude ripple_a, period ripple_period_us) on top.
 */
struct ina226_steps {
	double bus_v;
	double idle_a;
	double active_a;
	double ripple_a;
	uint64_t ripple_period_us;
	size_t n;
	struct {
		uint64_t start_us;
		uint64_t end_us;
	} win[INA226_STEPS_MAX];
};

/**
 * A new model at a 7-bit address in its power-on state, at time 0 of its
 * internal clock, with an idle 10 mA / active 25 mA / 3.3 V step waveform
 * and no active windows.
 * @param shunt_ohm the shunt resistor the waveform's current flows through.
 * @return the model (free with ina226_model_free) or NULL (no memory).
 */
struct ina226_model *ina226_model_new(uint8_t addr, double shunt_ohm);
void ina226_model_free(struct ina226_model *m);

/**
 * Use clock fn (NULL: the internal counter, at 0). The model then restarts
 * from its power-on state at the new clock's present time.
 */
void ina226_model_set_clock(struct ina226_model *m, ina226_clock_fn fn,
			    void *ctx);

/**
 * Use the host's time: CLOCK_MONOTONIC in us, 0 now. The model restarts
 * from its power-on state.
 */
void ina226_model_set_clock_host(struct ina226_model *m);

/** Move the internal clock on by us (no effect with a clock function). */
void ina226_model_advance(struct ina226_model *m, uint64_t us);

/** The model's present time in us. */
uint64_t ina226_model_now_us(struct ina226_model *m);

/** Replace the waveform by a copy of st (the built-in step waveform). */
void ina226_model_set_steps(struct ina226_model *m,
			    const struct ina226_steps *st);

/**
 * Add an active window to the step waveform.
 * @return 0, or -1 if INA226_STEPS_MAX windows are already there.
 */
int ina226_model_add_window(struct ina226_model *m, uint64_t start_us,
			    uint64_t end_us);

/**
 * The load follows the host: from now on the step waveform draws active_a
 * (on) or idle_a again (off), as the board does while the stub's energy
 * loop runs (the host calls it around the ENERGY command, where on a real
 * board the trigger pin would mark the loop). Windows that ended before
 * the conversion in progress began are dropped, so this can be called any
 * number of times.
 * @return 0, or -1 if the waveform is a custom one.
 */
int ina226_model_load(struct ina226_model *m, int on);

/** Use a custom waveform (NULL: the steps); fn runs under the lock. */
void ina226_model_set_wave(struct ina226_model *m, ina226_wave_fn fn,
			   void *ctx);

/**
 * A dead sensor: after n more transactions addressed to it (START to STOP;
 * a repeated START does not begin a new one), the model stops acknowledging
 * its address. -1: never.
 */
void ina226_model_set_dead_after(struct ina226_model *m, long n);

/**
 * Oscillator error: conversions take (1 + ppm/1e6) times their nominal
 * time. The cycle count restarts now.
 */
void ina226_model_set_rate_ppm(struct ina226_model *m, long ppm);

/** Register value as a read would return it, without side effects. */
uint16_t ina226_model_peek(struct ina226_model *m, uint8_t reg);

/** Level of the ALERT pin: 1 released (pulled up), 0 driven low. */
int ina226_model_alert_pin(struct ina226_model *m);

/** Transactions (START..STOP) that addressed this model, ACKed or not. */
unsigned long ina226_model_transactions(struct ina226_model *m);

/** Completed conversion cycles since the last configuration write or reset. */
uint64_t ina226_model_conversions(struct ina226_model *m);

uint8_t ina226_model_addr(const struct ina226_model *m);

/** Conversion time in us of a 3-bit VBUSCT/VSHCT code (SBOS547 Tables 4, 5). */
unsigned ina226_model_ct_us(unsigned code);

/** Samples averaged for a 3-bit AVG code (SBOS547 Table 3). */
unsigned ina226_model_avg(unsigned code);

/* ---- the bus side: what an I2C master does to the chip, byte by byte ---- */

/**
 * A START (or repeated START) followed by the address byte (addr << 1 | R/W).
 * @return 1 if the chip acknowledges (its address and alive), 0 if not.
 */
int ina226_model_i2c_start(struct ina226_model *m, uint8_t addr_rw);

/** A byte written after an acknowledged write address. @return 1 ACK. */
int ina226_model_i2c_write(struct ina226_model *m, uint8_t byte);

/** The next byte the chip shifts out after an acknowledged read address. */
uint8_t ina226_model_i2c_read(struct ina226_model *m);

/** A STOP. */
void ina226_model_i2c_stop(struct ina226_model *m);

#endif /* HIL_INA226_MODEL_H */
