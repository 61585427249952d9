/* benchtime: how long a BENCH may take, from the counter value of one run already seen, never from message bytes alone. */
#include "benchtime.h"

#include "hilp.h"

#define CAP64 (UINT64_MAX / 2)

/* a * b, saturating at CAP64. */
static uint64_t mul_cap(uint64_t a, uint64_t b)
{
	if (a != 0 && b > CAP64 / a) {
		return CAP64;
	}
	return a * b;
}

static uint64_t add_cap(uint64_t a, uint64_t b)
{
	return a > CAP64 - b ? CAP64 : a + b;
}

/* ceil(a / b), b > 0. */
static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

uint32_t hil_benchtime_ms(const struct hil_benchtime *in)
{
	uint64_t per_call =
		add_cap(in->count, mul_cap(HIL_BENCHTIME_TICKS_PER_BYTE,
					   (uint64_t)in->bytes));
	uint64_t ticks =
		mul_cap(mul_cap(per_call, (uint64_t)in->calls +
						  HIL_BENCHTIME_EXTRA_CALLS),
			HIL_BENCHTIME_MARGIN);
	uint64_t rate = in->rate_hz > 0 ? in->rate_hz : 1;
	uint64_t ms = in->base_ms;

	/* ticks * 1000 / rate without overflowing the product. */
	ms = add_cap(ms, add_cap(mul_cap(ticks / rate, 1000),
				 div_up(mul_cap(ticks % rate, 1000), rate)));
	if (in->baud > 0) {
		ms = add_cap(ms, div_up((uint64_t)in->wire_bytes * 10u * 1000u,
					in->baud));
	}
	return ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
}

uint64_t hil_benchtime_scale(uint64_t seen_count, uint32_t seen_bytes,
			     uint32_t bytes)
{
	if (bytes <= seen_bytes) {
		return seen_count; /* no operation here costs less for more */
	}
	return div_up(mul_cap(seen_count, (uint64_t)bytes + 1),
		      (uint64_t)seen_bytes + 1);
}

uint64_t hil_benchtime_rate(uint8_t counter_unit, uint32_t clock_hz)
{
	switch (counter_unit) {
	case HILP_UNIT_CYCLES:
		return clock_hz;
	case HILP_UNIT_INSTRUCTIONS_EMU:
		return HIL_BENCHTIME_QEMU_HZ;
	case HILP_UNIT_NS_HOST:
		return 1000000000u;
	default:
		return 0;
	}
}
