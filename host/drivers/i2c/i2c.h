/* i2c: the I2C bus interface used by sensor drivers, with backends chosen by name (ftdi, linux, sim). */
#ifndef HIL_I2C_H
#define HIL_I2C_H

#include <stddef.h>
#include <stdint.h>

/*
 * A bus is opened from a spec string "<backend>:<where>":
 *
 *   ftdi:0403:6014               first FT232H (VID:PID, hex), 400 kHz
 *   ftdi:0403:6010:FT4ABCDE      by serial number (FT2232H here)
 *   ftdi:desc=C232HM-DDHSL-0     by USB product description (0403:6014,
 *                                0403:6010 and 0403:6011 are searched)
 *   ... ,100k | ,400k            SCL frequency (default 400k)
 *   ... ,if=B                    MPSSE channel of a dual/quad chip (A..D)
 *   linux:/dev/i2c-1             Linux i2c-dev (I2C_RDWR)
 *   sim:ina219@0x40[,opt=val..]  a simulated chip, any sensor driver's
 *                                model (sim:ina226@..., see sim.c for
 *                                options: shunt, bus_v, idle_ma,
 *                                active_ma, active=START-END[:START-END..]
 *                                in us, dead_after=N transactions)
 *
 * Every call on one bus is serialised by a lock inside the bus, so a sampler
 * thread and a caller may share it; a transaction is never interleaved.
 */

struct hil_i2c_bus;
struct ftdi_context;

/* One transaction: START, write w, repeated START, read r, STOP. */
struct hil_i2c_msg {
	uint8_t addr; /* 7-bit address */
	const uint8_t *w;
	size_t wlen; /* 0: read only */
	uint8_t *r;
	size_t rlen; /* 0: write only */
};

struct hil_i2c_ops {
	const char *name; /* "ftdi", "linux", "sim" */
	/* The spec's form, for messages: "linux:/dev/i2c-N". */
	const char *spec_form;
	/* Every form in full, for the message on an unknown spec:
	 * "ftdi:VID:PID[:SERIAL], ftdi:desc=TEXT". */
	const char *forms;
	/* One spec that works, for examples in messages: "linux:/dev/i2c-1". */
	const char *example;
	/* 1: no hardware behind it (the sim bus's register models). */
	int simulated;
	/* Optional: what was not found when open gives HIL_ERR_NA, and the
	 * hint after its `where`, for the sensor's message: "no FTDI
	 * adapter" 0403:6014 "found on USB (plugged in? ...)". */
	const char *missing;
	const char *missing_hint;
	/* What follows "name:" must start with ("/": a device path); NULL:
	 * anything not empty (checked when it is opened). */
	const char *where_starts;
	/* Optional: whether `where` may be opened for an untrusted spool job
	 * (lab/jobpolicy.c), and the rule it applies, for the message. NULL:
	 * what the spec check accepts. */
	int (*job_ok)(const char *where);
	const char *job_rule;
	/* Open `where` (the spec after "name:"); set state with set_priv. */
	int (*open)(struct hil_i2c_bus *bus, const char *where);
	/* Release the private state; called once, also after a failed open. */
	void (*close)(struct hil_i2c_bus *bus);
	/* Write wlen bytes, then read rlen bytes with a repeated start. */
	int (*xfer)(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		    size_t wlen, uint8_t *r, size_t rlen);
	/*
	 * Optional: n transactions back to back in one round trip to the
	 * adapter (ftdi: one USB write, one USB read). NULL: xfer is looped.
	 */
	int (*xfer_batch)(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
			  size_t n);
};

/* Counters since open; ftdi fills the usb_* ones, others leave them 0. */
struct hil_i2c_stats {
	uint64_t transactions; /* START..STOP sequences asked for */
	uint64_t calls;	       /* hil_i2c_xfer + hil_i2c_xfer_batch calls */
	uint64_t errors;       /* calls that failed (NACK, I/O, timeout) */
	uint64_t usb_writes;   /* ftdi_write_data calls */
	uint64_t usb_reads;    /* ftdi_read_data calls */
	uint64_t usb_bytes_out;
	uint64_t usb_bytes_in;
};

/**
 * Open the bus named by spec, e.g. "ftdi:0403:6014" or "sim:ina219@0x40".
 * @param out receives the bus; the caller closes it with hil_i2c_close().
 * @return HIL_OK; HIL_ERR_ARG (bad or unknown spec); HIL_ERR_NA (no such
 *         adapter or device: the log names what was looked for); HIL_ERR_IO
 *         (found but could not be opened or set up: the log says why);
 *         HIL_ERR_NOMEM.
 */
int hil_i2c_open(struct hil_i2c_bus **out, const char *spec);

/** Every bus driver, NULL-terminated, in the order of drivers/drivers.def's
 *  HIL_I2C_BUS lines (registry.c). */
const struct hil_i2c_ops *const *hil_i2c_all(void);

/** The backend a spec names by its prefix ("linux" of "linux:/dev/i2c-1"), or NULL. */
const struct hil_i2c_ops *hil_i2c_backend(const char *spec);

/**
 * Whether spec can be a bus: a backend's prefix, then something (that
 * starts as the backend says: hil_i2c_ops.where_starts). What follows is
 * checked when the bus is opened, where the adapter can be named.
 * @return 1 or 0.
 */
int hil_i2c_spec_ok(const char *spec);

/**
 * Whether spec may be opened for an untrusted spool job: its backend's
 * job_ok, when it has one. @param rule receives the rule broken (static).
 * @return 1 or 0.
 */
int hil_i2c_job_ok(const char *spec, const char **rule);

/** The backends' spec forms for a message: "\"ftdi:...\", ... or \"sim:...\"". */
void hil_i2c_spec_forms(char *buf, size_t len);

/**
 * The examples of the buses that reach hardware (not simulated), for a
 * message: "\"ftdi:0403:6014\" or \"linux:/dev/i2c-1\"" (cut to len - 1).
 */
void hil_i2c_hw_examples(char *buf, size_t len);

/** Close the bus and free it. NULL is allowed. */
void hil_i2c_close(struct hil_i2c_bus *bus);

/**
 * One transaction: START, addr+W, w[0..wlen), repeated START, addr+R,
 * r[0..rlen) (ACK on all but the last byte, NACK on it), STOP. wlen == 0
 * makes it read only, rlen == 0 write only.
 * @return HIL_OK; HIL_ERR_IO (a NACK: the log names the address and the byte;
 *         or an adapter error); HIL_ERR_TIMEOUT (the adapter did not answer);
 *         HIL_ERR_ARG.
 */
int hil_i2c_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		 size_t wlen, uint8_t *r, size_t rlen);

/**
 * n transactions in order; on backends that batch (ftdi) they cost one
 * round trip to the adapter. The first failing transaction decides the
 * return value; its number is in the log.
 * @return as hil_i2c_xfer().
 */
int hil_i2c_xfer_batch(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
		       size_t n);

/** Copy the counters. @return HIL_OK or HIL_ERR_ARG. */
int hil_i2c_get_stats(struct hil_i2c_bus *bus, struct hil_i2c_stats *out);

/** The spec the bus was opened with (borrowed, valid until close). */
const char *hil_i2c_spec(const struct hil_i2c_bus *bus);

/** The backend's name ("ftdi", "linux", "sim"). */
const char *hil_i2c_type(const struct hil_i2c_bus *bus);

/* ---- ftdi backend: the libftdi1 calls it makes, as a table ---- */

/*
 * Every libftdi1 call of the ftdi backend goes through this table so that
 * tests can put an MPSSE interpreter behind it. Members are named and typed
 * as libftdi1's functions, except ftdi_set_interface (int instead of enum
 * ftdi_interface, so that this
 * header needs no libftdi include). Timeouts are set in the context's
 * usb_read_timeout/usb_write_timeout fields: a substitute ftdi_new must return
 * a real (zeroed) struct ftdi_context.
 */
struct hil_ftdi_api {
	struct ftdi_context *(*ftdi_new)(void);
	void (*ftdi_free)(struct ftdi_context *ftdi);
	int (*ftdi_set_interface)(struct ftdi_context *ftdi, int iface);
	int (*ftdi_usb_open_desc)(struct ftdi_context *ftdi, int vendor,
				  int product, const char *description,
				  const char *serial);
	int (*ftdi_usb_close)(struct ftdi_context *ftdi);
	int (*ftdi_usb_reset)(struct ftdi_context *ftdi);
	int (*ftdi_set_latency_timer)(struct ftdi_context *ftdi,
				      unsigned char latency);
	int (*ftdi_set_bitmode)(struct ftdi_context *ftdi,
				unsigned char bitmask, unsigned char mode);
	int (*ftdi_tcioflush)(struct ftdi_context *ftdi);
	int (*ftdi_write_data)(struct ftdi_context *ftdi,
			       const unsigned char *buf, int size);
	int (*ftdi_read_data)(struct ftdi_context *ftdi, unsigned char *buf,
			      int size);
	const char *(*ftdi_get_error_string)(struct ftdi_context *ftdi);
};

/* The table that calls libftdi1 itself. */
extern const struct hil_ftdi_api hil_ftdi_api_libftdi;

/**
 * Open an ftdi bus through a given libftdi table (tests); hil_i2c_open()
 * uses hil_ftdi_api_libftdi.
 * @param where the spec after "ftdi:", e.g. "0403:6014:FT12345,100k".
 * @param api borrowed; must outlive the bus.
 * @return as hil_i2c_open().
 */
int hil_i2c_ftdi_open(struct hil_i2c_bus **out, const char *where,
		      const struct hil_ftdi_api *api);

/** Bus timing chosen at open: SCL in Hz and the MPSSE divisor (0x86). */
int hil_i2c_ftdi_clock(struct hil_i2c_bus *bus, unsigned *scl_hz,
		       unsigned *divisor);

/* ---- sim backend ---- */

#define HIL_I2C_SIM_WINDOWS 64

/* A simulated chip's load and faults: the options of its spec (sim.c). */
struct hil_i2c_sim_opts {
	double shunt_ohm; /* shunt=OHM: what the load's current flows through */
	double bus_v;	  /* bus_v=V */
	double idle_a;	  /* idle_ma=MA: outside the active windows */
	double active_a;  /* active_ma=MA: inside them */
	size_t n;	  /* active=A-B[:C-D]: windows in us since open */
	struct {
		uint64_t start_us;
		uint64_t end_us;
	} win[HIL_I2C_SIM_WINDOWS];
	long dead_after; /* dead_after=N transactions, then no ACK; -1 never */
};

/*
 * A register model the sim backend can put on its bus, "sim:<name>@ADDR":
 * each sensor driver names its chip's (drivers/sensor/driver.h), so a new
 * sensor's simulated twin needs no edit here. Every function takes the
 * model create() returned.
 */
struct hil_i2c_sim_chip {
	const char *name;  /* "ina219", as in the spec */
	const void *model; /* what create makes a model of (for create) */
	/* A model of chip at addr with o's load, on the host's time
	 * (CLOCK_MONOTONIC) from now. @return it, or NULL (no memory). */
	void *(*create)(const struct hil_i2c_sim_chip *chip, uint8_t addr,
			const struct hil_i2c_sim_opts *o);
	void (*destroy)(void *model);
	/* The bus side, byte by byte (the same events ftdi clocks out):
	 * START + address byte (1: ACK), a written byte (1: ACK), a read
	 * byte, STOP. */
	int (*start)(void *model, uint8_t addr_rw);
	int (*write)(void *model, uint8_t byte);
	uint8_t (*read)(void *model);
	void (*stop)(void *model);
	/* The load follows the host: active (on) or idle (off) from now, as
	 * the board around the stub's energy loop. @return 0, or -1 when the
	 * model's waveform has no load to switch. */
	int (*load)(void *model, int on);
};

/** The chip named name that the sim backend can host (registry.c), or NULL. */
const struct hil_i2c_sim_chip *hil_i2c_sim_chip_find(const char *name);

/** Their names, for a message: "ina219 or ina226" (as snprintf). */
int hil_i2c_sim_chip_names(char *buf, size_t len);

/** The chip a sim bus hosts, or NULL if bus is not a sim bus. */
const struct hil_i2c_sim_chip *hil_i2c_sim_chip(struct hil_i2c_bus *bus);

/**
 * The model behind a "sim:" bus, for tests to set its clock, its waveform
 * or make it die (the chip's model: a struct hil_regmodel * for "ina219"
 * and "ina226"). Borrowed: valid until hil_i2c_close().
 * @param chip the chip expected ("ina219"), or NULL for whichever it is.
 * @return NULL if bus is not a sim bus or hosts another chip.
 */
void *hil_i2c_sim_model(struct hil_i2c_bus *bus, const char *chip);

/* ---- for backends only ---- */

/** The private state set by the backend's open. */
void *hil_i2c_priv(const struct hil_i2c_bus *bus);
void hil_i2c_set_priv(struct hil_i2c_bus *bus, void *priv);

/**
 * The bus's counters, for the backend to add its USB figures to. Only valid
 * inside the backend's open/xfer/xfer_batch (the bus lock is held).
 */
struct hil_i2c_stats *hil_i2c_stats_mut(struct hil_i2c_bus *bus);

/**
 * Allocate a bus bound to ops without opening it (constructors that take
 * more than a string, such as hil_i2c_ftdi_open); hil_i2c_close() calls
 * ops->close then frees it.
 * @param spec the full spec, for messages; copied.
 */
int hil_i2c_alloc(struct hil_i2c_bus **out, const struct hil_i2c_ops *ops,
		  const char *spec);

#endif /* HIL_I2C_H */
