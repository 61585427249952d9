/* idd: a chip's run current against its clock, as a datasheet table gives it: the data a board driver holds for energy estimates. */
#ifndef HIL_IDD_H
#define HIL_IDD_H

#include <stddef.h>
#include <stdint.h>

/*
 * One clock of a datasheet's run-current table: the row of each column, in
 * the datasheet's order (typical at 25 C, then maximum at 25, 85 and
 * 105 C), with all peripherals disabled and then enabled. 0: the table has
 * no such column.
 */
struct hil_idd_point {
	uint32_t hz; /* f_HCLK */
	double ma;   /* typical I_DD, all peripherals disabled: the estimate */
	double max25, max85, max105;		      /* peripherals disabled */
	double on_typ, on_max25, on_max85, on_max105; /* all enabled */
};

/* Where the code runs and how the flash accelerator is set for a table. */
#define HIL_IDD_ANY (-1) /* the table does not depend on it */

/* A chip's run current against its clock, as one datasheet table gives it. */
struct hil_idd_table {
	const char *chip;	/* "STM32F401xD/xE" */
	const char *source;	/* document, revision, table, row, column */
	const char *table;	/* short: "DS10086 Rev 3 Table 25 (p. 68)" */
	const char *conditions; /* what the row assumes (code from flash, ...) */
	double vdd;		/* the supply the table holds, V */
	/* The flash configuration the table was measured with: the ART's
	 * caches (art) and its prefetch, 1 on, 0 off, HIL_IDD_ANY; sram: 1
	 * for code run from SRAM. */
	int art, prefetch, sram;
	const struct hil_idd_point *pts; /* ascending hz; n may be 0 */
	size_t n;
	const char *missing; /* when n is 0: why there are no figures */
};

#endif /* HIL_IDD_H */
