/* pyocd_chip: the chip-ID registers of the target types Debian's pyOCD knows, and the check that the chip on the probe is the target type's before anything is written. */
#include "pyocd.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/*
 * Where a chip says what it is, for the target types Debian's pyOCD knows:
 * DBGMCU_IDCODE's DEV_ID (STM32 reference manuals: RM0091 for the F05x,
 * RM0008 F10x, RM0402 F412, RM0090 F42x/F43x, RM0351 L47x/L48x) and the
 * nRF52's FICR INFO.PART. Other types are flashed without this check.
 */
struct chip_id {
	const char *target; /* pyOCD's name */
	uint32_t addr;
	uint32_t mask;
	uint32_t want;
	const char *reg;
};

static const struct chip_id chip_ids[] = {
	{"stm32f051", 0x40015800u, 0xfffu, 0x440u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32f103rc", 0xe0042000u, 0xfffu, 0x414u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32f412xe", 0xe0042000u, 0xfffu, 0x441u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32f412xg", 0xe0042000u, 0xfffu, 0x441u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32f439xg", 0xe0042000u, 0xfffu, 0x419u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32f439xi", 0xe0042000u, 0xfffu, 0x419u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32l475xc", 0xe0042000u, 0xfffu, 0x415u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32l475xe", 0xe0042000u, 0xfffu, 0x415u, "DBGMCU_IDCODE DEV_ID"},
	{"stm32l475xg", 0xe0042000u, 0xfffu, 0x415u, "DBGMCU_IDCODE DEV_ID"},
	{"nrf52", 0x10000100u, 0xffffffffu, 0x52832u, "FICR INFO.PART"},
	{"nrf52840", 0x10000100u, 0xffffffffu, 0x52840u, "FICR INFO.PART"},
};

/* Names for the DEV_IDs a user is likely to meet, for the mismatch line. */
static const struct {
	uint32_t id;
	const char *name;
} dev_names[] = {
	{0x413u, "STM32F405/407/415/417"},
	{0x419u, "STM32F42x/F43x"},
	{0x423u, "STM32F401xB/C"},
	{0x431u, "STM32F411"},
	{0x433u, "STM32F401xD/E"},
	{0x441u, "STM32F412"},
	{0x415u, "STM32L47x/L48x"},
	{0x461u, "STM32L496/L4A6"},
	{0x414u, "STM32F10x high-density"},
	{0x440u, "STM32F05x"},
	{0x52832u, "nRF52832"},
	{0x52840u, "nRF52840"},
};

static const struct chip_id *chip_of(const char *target)
{
	size_t i;

	for (i = 0; i < sizeof(chip_ids) / sizeof(chip_ids[0]); i++) {
		if (strcmp(chip_ids[i].target, target) == 0) {
			return &chip_ids[i];
		}
	}
	return NULL;
}

static const char *dev_name(uint32_t id)
{
	size_t i;

	for (i = 0; i < sizeof(dev_names) / sizeof(dev_names[0]); i++) {
		if (dev_names[i].id == id) {
			return dev_names[i].name;
		}
	}
	return "a chip this check does not name";
}

/*
 * Read the chip's ID register with `pyocd-tool ... read32 ADDR` and compare
 * it with the target type's. Without an entry in chip_ids: nothing when
 * flashing (pyocd-flashtool connects next anyway), else connect and ask
 * the core's state, `pyocd-tool ... status`.
 */
int hil_pyocd_check_chip(struct hil_flasher *f, int flashing, uint64_t deadline,
			 unsigned bound_ms, char *why, size_t len)
{
	const char *target = hil_flasher_opt(f, "target");
	const struct chip_id *c = chip_of(target);
	struct pyocd *o = hil_flasher_priv(f);
	struct pyo_argv a;
	char key[16], line[160];
	const char *at;
	char *end = NULL;
	uint32_t id = 0;
	int ret;

	if (c == NULL && flashing) {
		return HIL_OK;
	}
	if (c == NULL) {
		hil_pyocd_tool_argv(f, &a, "status", NULL, NULL, NULL);
		return hil_pyocd_run_step(f, a.v, deadline, bound_ms, why, len);
	}
	snprintf(a.addr, sizeof(a.addr), "0x%08x", (unsigned)c->addr);
	hil_pyocd_tool_argv(f, &a, "read32", a.addr, NULL, NULL);
	ret = hil_pyocd_run_step(f, a.v, deadline, bound_ms, why, len);
	if (ret != HIL_OK) {
		return ret;
	}
	/* dump_hex_data prints "e0042000:  10016433 ". */
	snprintf(key, sizeof(key), "%08x:", (unsigned)c->addr);
	at = strstr(o->out, key);
	if (at != NULL) {
		at += strlen(key);
		id = (uint32_t)strtoul(at, &end, 16);
	}
	if (at == NULL || end == at) {
		hil_pyocd_last_line(o->out, line, sizeof(line));
		snprintf(
			why, len,
			"pyocd-tool read32 %s printed no value (\"%s\"; log: %s)",
			a.addr, line, o->log_path);
		return HIL_ERR_PROCESS;
	}
	id &= c->mask;
	if (id != c->want) {
		snprintf(
			why, len,
			"wrong target: the chip's %s is 0x%03x (%s), pyOCD target %s is 0x%03x; is this the right board, and the right flasher target? (log: %s)",
			c->reg, (unsigned)id, dev_name(id), target,
			(unsigned)c->want, o->log_path);
		return HIL_ERR_MISMATCH;
	}
	return HIL_OK;
}
