/* regmodel: what every register-level sensor model shares (the I2C side of a pointer-register chip byte by byte, its clock, its scripted load waveform, its faults), with the chip's registers and conversions as callbacks (ina219_model.c, ina226_model.c). */
#ifndef HIL_REGMODEL_H
#define HIL_REGMODEL_H

#include <stddef.h>
#include <stdint.h>

/*
 * The chip seen from the bus: a write transaction's first byte sets the
 * register pointer, the next two (MSB first) are written to the register
 * it points to; a read transaction shifts out the register pointed to,
 * MSB first, and the pointer persists across transactions (a read without
 * a pointer write reads the last register pointed to). Any other address
 * is not acknowledged. The model's time is its clock's: the internal
 * counter the test moves (hil_regmodel_advance()), the host's
 * CLOCK_MONOTONIC, or a function of the test's. The load current follows
 * a waveform: the built-in steps (idle, active windows, a ripple) or one
 * of the test's. Faults: a chip that dies after n transactions, an
 * oscillator off by some ppm.
 *
 * The model is thread-safe: every call takes its lock.
 */

struct hil_regmodel;

/* Microseconds of model time, from whatever clock the test wants. */
typedef uint64_t (*hil_regmodel_clock_fn)(void *ctx);

/*
 * The waveform: bus voltage (V) and load current (A) at t_us (fractional:
 * the ADC samples between whole microseconds).
 */
typedef void (*hil_regmodel_wave_fn)(void *ctx, double t_us, double *bus_v,
				     double *current_a);

#define HIL_REGMODEL_STEPS_MAX 64

/*
 * The built-in waveform: idle current, active current inside the windows
 * [start_us, end_us), a constant bus voltage, and an optional sine ripple
 * (amplitude ripple_a, period ripple_period_us) on top to keep tests honest.
 */
struct hil_regmodel_steps {
	double bus_v;
	double idle_a;
	double active_a;
	double ripple_a;
	uint64_t ripple_period_us;
	size_t n;
	struct {
		uint64_t start_us;
		uint64_t end_us;
	} win[HIL_REGMODEL_STEPS_MAX];
};

/*
 * One chip's register behaviour (its model file fills one). Each function
 * is called with the model's lock held and reaches the chip's registers
 * through hil_regmodel_regs().
 */
struct hil_regmodel_chip {
	const char *name; /* "INA219" */
	size_t regs_size; /* the chip's register state */
	const void *por;  /* that state at power-on (regs_size bytes) */
	/* One conversion cycle as the chip's oscillator makes it
	 * (hil_regmodel_scaled()), in us, 0 while it does not convert; *once
	 * set in a triggered mode (one cycle after the configuration write). */
	double (*cycle_us)(struct hil_regmodel *m, int *once);
	/* Load the results of the cycle that began at t0_us. */
	void (*latch)(struct hil_regmodel *m, double t0_us);
	/* A register as a read returns it, without side effects. */
	uint16_t (*peek)(struct hil_regmodel *m, uint8_t reg);
	/* The side effects of reading reg (a flag the read clears), once
	 * its value is taken; NULL: none. */
	void (*read)(struct hil_regmodel *m, uint8_t reg);
	/* A 16-bit write to reg (read-only registers ignore it). */
	void (*write)(struct hil_regmodel *m, uint8_t reg, uint16_t v);
};

/**
 * A new model of chip at a 7-bit address in its power-on state, at time 0
 * of its internal clock, with an idle 10 mA / active 25 mA / 3.3 V step
 * waveform and no active windows.
 * @param shunt_ohm the shunt resistor the waveform's current flows through.
 * @return the model (free with hil_regmodel_free) or NULL (no memory).
 */
struct hil_regmodel *hil_regmodel_new(const struct hil_regmodel_chip *chip,
				      uint8_t addr, double shunt_ohm);
void hil_regmodel_free(struct hil_regmodel *m);

/** The chip it models (its name: chip->name). */
const struct hil_regmodel_chip *hil_regmodel_chip(const struct hil_regmodel *m);

uint8_t hil_regmodel_addr(const struct hil_regmodel *m);

/**
 * Use clock fn (NULL: the internal counter, at 0). The model then restarts
 * from its power-on state at the new clock's present time.
 */
void hil_regmodel_set_clock(struct hil_regmodel *m, hil_regmodel_clock_fn fn,
			    void *ctx);

/**
 * Use the host's time: CLOCK_MONOTONIC in us, 0 now. The model restarts
 * from its power-on state.
 */
void hil_regmodel_set_clock_host(struct hil_regmodel *m);

/** Move the internal clock on by us (no effect with another clock). */
void hil_regmodel_advance(struct hil_regmodel *m, uint64_t us);

/** The model's present time in us. */
uint64_t hil_regmodel_now_us(struct hil_regmodel *m);

/** Replace the waveform by a copy of st (the built-in step waveform). */
void hil_regmodel_set_steps(struct hil_regmodel *m,
			    const struct hil_regmodel_steps *st);

/**
 * Add an active window to the step waveform.
 * @return 0, or -1 if HIL_REGMODEL_STEPS_MAX windows are already there.
 */
int hil_regmodel_add_window(struct hil_regmodel *m, uint64_t start_us,
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
int hil_regmodel_load(struct hil_regmodel *m, int on);

/** Use a custom waveform (NULL: the steps); fn runs under the lock. */
void hil_regmodel_set_wave(struct hil_regmodel *m, hil_regmodel_wave_fn fn,
			   void *ctx);

/**
 * A dead sensor: after n more transactions addressed to it (START to STOP;
 * a repeated START does not begin a new one), the model stops acknowledging
 * its address. -1: never.
 */
void hil_regmodel_set_dead_after(struct hil_regmodel *m, long n);

/**
 * Oscillator error: conversions take (1 + ppm/1e6) times their nominal
 * time. The cycle count restarts now.
 */
void hil_regmodel_set_rate_ppm(struct hil_regmodel *m, long ppm);

/** Register value as a read would return it, without side effects. */
uint16_t hil_regmodel_peek(struct hil_regmodel *m, uint8_t reg);

/** Transactions (START..STOP) that addressed this model, ACKed or not. */
unsigned long hil_regmodel_transactions(struct hil_regmodel *m);

/** Completed conversion cycles since the conversions last restarted. */
uint64_t hil_regmodel_conversions(struct hil_regmodel *m);

/* ---- the bus side: what an I2C master does to the chip, byte by byte ---- */

/**
 * A START (or repeated START) followed by the address byte (addr << 1 | R/W).
 * @return 1 if the chip acknowledges (its address and alive), 0 if not.
 */
int hil_regmodel_i2c_start(struct hil_regmodel *m, uint8_t addr_rw);

/** A byte written after an acknowledged write address. @return 1 ACK. */
int hil_regmodel_i2c_write(struct hil_regmodel *m, uint8_t byte);

/** The next byte the chip shifts out after an acknowledged read address. */
uint8_t hil_regmodel_i2c_read(struct hil_regmodel *m);

/** A STOP. */
void hil_regmodel_i2c_stop(struct hil_regmodel *m);

/* ---- on the sim bus (drivers/i2c/sim.c) ---- */

struct hil_i2c_sim_chip;
struct hil_i2c_sim_opts;

/*
 * The sim bus's side of any register model, for a hil_i2c_sim_chip whose
 * model is the chip's struct hil_regmodel_chip: create makes one at addr
 * on the host's clock from now, with o's load and faults.
 */
void *hil_regmodel_sim_create(const struct hil_i2c_sim_chip *chip, uint8_t addr,
			      const struct hil_i2c_sim_opts *o);
void hil_regmodel_sim_destroy(void *m);
int hil_regmodel_sim_start(void *m, uint8_t addr_rw);
int hil_regmodel_sim_write(void *m, uint8_t byte);
uint8_t hil_regmodel_sim_read(void *m);
void hil_regmodel_sim_stop(void *m);
int hil_regmodel_sim_load(void *m, int on);

/*
 * A sensor driver's sim chip (drivers/i2c/i2c.h) for a register model:
 * name as in the spec, regchip the chip's struct hil_regmodel_chip.
 */
#define HIL_REGMODEL_SIM_CHIP(chip_name, regchip)                              \
	{                                                                      \
		.name = (chip_name), .model = (regchip),                       \
		.create = hil_regmodel_sim_create,                             \
		.destroy = hil_regmodel_sim_destroy,                           \
		.start = hil_regmodel_sim_start,                               \
		.write = hil_regmodel_sim_write,                               \
		.read = hil_regmodel_sim_read, .stop = hil_regmodel_sim_stop,  \
		.load = hil_regmodel_sim_load,                                 \
	}

/* ---- for chip models: from their callbacks, under the model's lock ---- */

/** The chip's register state (chip->regs_size bytes). */
void *hil_regmodel_regs(struct hil_regmodel *m);

/** The model's time in us. */
uint64_t hil_regmodel_time(const struct hil_regmodel *m);

/**
 * Power-on (a reset by a register bit too): the chip's state as chip->por
 * gives it, conversions restarted.
 */
void hil_regmodel_power_on(struct hil_regmodel *m);

/** Conversions restart now: the cycle count is 0 again. */
void hil_regmodel_restart(struct hil_regmodel *m);

/** Bring the conversions up to now (latch the last completed cycle). */
void hil_regmodel_update(struct hil_regmodel *m);

/** A nominal time in us as this chip's oscillator makes it. */
double hil_regmodel_scaled(const struct hil_regmodel *m, double us);

/** The shunt the waveform's current flows through. */
double hil_regmodel_shunt_ohm(const struct hil_regmodel *m);

/**
 * Mean of the waveform over [t0, t0 + len) us at n evenly spaced points
 * (the middle of n equal parts), as the ADC integrates it.
 * @param whole_us 1: each point truncated to a whole microsecond (the
 *        INA219's model), 0: fractional.
 */
void hil_regmodel_wave_mean(struct hil_regmodel *m, double t0, double len,
			    unsigned n, int whole_us, double *bus_v,
			    double *current_a);

#endif /* HIL_REGMODEL_H */
