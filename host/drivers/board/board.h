/* board: what a board driver knows about its board (target build, default flasher and link, clock profiles, cycle-model and energy facts), and the table the core looks boards up in. */
#ifndef HIL_BOARD_H
#define HIL_BOARD_H

#include <stddef.h>
#include <stdint.h>

struct hil_idd_table;

/* One clock the board's target code can configure (target/boards/<name>/). */
struct hil_clock_profile {
	uint32_t hz;
	/* Flash wait states and whether the flash caches/accelerator are on at
	 * that clock, as the board code sets them: the cycle model's default
	 * flash profile for an emulated stand-in of this board. */
	unsigned wait_states;
	int cache;
	/* 1: the board code turns the flash prefetch on at this clock. A
	 * board may list one clock twice, prefetch on and off (board.prefetch
	 * chooses; the first listed is the default). */
	int prefetch;
	const char *source; /* reference-manual table the numbers come from */
	/* The cycle model's memory-system profile at this clock
	 * (drivers/board/memsys.c), when it is not the board's cycle_profile;
	 * NULL: the board's. */
	const char *cycle_profile;
};

/* What the board's flash-interface register says (INFO's flash_acr); -1:
 * the board has no such setting. */
struct hil_flash_state {
	int wait_states;
	int prefetch;
	int icache;
	int dcache;
};

struct hil_board_flasher_arg {
	const char *flasher;
	const char *arg;
};

struct hil_board_driver {
	/* board.name in configs, target/boards/<name>/ for the stub's build,
	 * "platform" in the hardware map. */
	const char *name;
	const char *summary; /* one line for people */
	const char *mcu;     /* e.g. "STM32F401RE" */
	/* 1: an emulator runs the stub (its counter counts instructions, the
	 * cycle model can run, nothing physical is locked or shared). */
	int emulated;
	/* Flasher drivers that can put an image on it; the first is the
	 * default. NULL-terminated. */
	const char *const *flashers;
	/* Link drivers that reach it; the first is the default. */
	const char *const *links;
	/* Clocks it can run at; the first is the default; hz 0 ends. */
	const struct hil_clock_profile *clocks;
	/* The cycle model's memory-system profile for this board as its
	 * target code sets it up at its default clock (drivers/board/memsys.c,
	 * docs/cycle-model.md): cycle_model.profile's default. NULL: none is
	 * documented here; the model then takes the clock's wait states. */
	const char *cycle_profile;
	/* The MCU's run-current tables from its datasheet, one per flash
	 * configuration and supply, NULL-terminated (the energy estimate);
	 * NULL: none known, run_current_missing says why. */
	const struct hil_idd_table *const *run_current;
	const char *run_current_missing;
	/* The supply the board gives the MCU, V (picks the table); 0: unknown. */
	double supply_v;
	/* Emulated boards: the address of the counter register whose reads
	 * bracket a timed region for the cycle model (the plugin's
	 * counter=); 0: TIM2_CNT, the plugin's default (netduinoplus2). */
	uint32_t model_counter;
	/* What each flasher needs to know of the board, by flasher name
	 * (OpenOCD: its config file; pyOCD: its target type), unless the
	 * config says; ends with {NULL, NULL}; NULL: nothing. */
	const struct hil_board_flasher_arg *flasher_args;
	/* How the board's serial port shows in /dev/serial/by-id/, for
	 * doctor's hint (e.g. "usb-STMicroelectronics_STM32_STLink_<serial>-if02");
	 * NULL: no serial port. */
	const char *port_by_id;
	/* Decode the flash-interface register the stub reports; NULL:
	 * nothing to decode (an emulator's is 0). */
	void (*flash_state)(uint32_t reg, struct hil_flash_state *out);
	/* configs/<file>: the config the lab daemon uses for this platform
	 * when a job names none; NULL: none. */
	const char *default_config;
};

/** The board driver named name, or NULL. */
const struct hil_board_driver *hil_board_find(const char *name);

/** Every board driver, NULL-terminated, in registration order. */
const struct hil_board_driver *const *hil_board_all(void);

/** What board b says flasher needs to know of it, or NULL. */
const char *hil_board_flasher_arg(const struct hil_board_driver *b,
				  const char *flasher);

/**
 * Whether the board named name is an emulator (board->emulated); an
 * unknown name counts as a physical board.
 */
int hil_board_emulated(const char *name);

/**
 * The clock profile of b at hz.
 * @return the profile, or NULL when the board has no such clock.
 */
const struct hil_clock_profile *
hil_board_clock(const struct hil_board_driver *b, uint32_t hz);

/**
 * The clock profile of b at hz with the flash prefetch on (prefetch 1), off
 * (0) or as the board sets it by default (-1).
 * @return the profile, or NULL when the board has no such choice.
 */
const struct hil_clock_profile *
hil_board_clock_flash(const struct hil_board_driver *b, uint32_t hz,
		      int prefetch);

/**
 * STM32F4/L4 FLASH_ACR: LATENCY in bits 3:0 (2:0 used on the L4), PRFTEN
 * bit 8, ICEN bit 9, DCEN bit 10 (RM0368 3.8.1, RM0351 3.7.1).
 */
void hil_stm32_flash_acr(uint32_t reg, struct hil_flash_state *out);

/**
 * The names of every driver of a table, joined for a message: "a, b or c".
 * @return the length snprintf would write.
 */
int hil_drivers_join(char *buf, size_t len, const char *const *names);

/**
 * Whether the flasher named name is an emulator: the first flasher of an
 * emulated board (qemu). @return 1 or 0.
 */
int hil_flasher_emulator(const char *name);

/**
 * The emulators' names (hil_flasher_emulator) after `first`, joined for a
 * message: "host or qemu". @return the length snprintf would write.
 */
int hil_flasher_emulator_names(const char *first, char *buf, size_t len);

/* The kinds of driver the registry holds. */
enum hil_driver_kind {
	HIL_DRIVER_BOARD,
	HIL_DRIVER_FLASHER,
	HIL_DRIVER_LINK,
	HIL_DRIVER_I2C_BUS,
	HIL_DRIVER_SENSOR,
};

/**
 * The names of every driver of a kind, in registration order, into names
 * (at most max, then a NULL).
 * @param max room in names less the NULL.
 * @return how many were written.
 */
size_t hil_driver_names(enum hil_driver_kind kind, const char **names,
			size_t max);

/**
 * As hil_driver_names(), joined for a message: "a, b or c".
 * @return the length snprintf would write.
 */
int hil_driver_names_join(enum hil_driver_kind kind, char *buf, size_t len);

#endif /* HIL_BOARD_H */
