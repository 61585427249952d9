/* heap: the stub's _sbrk, linked only into images whose implementations call malloc, and the heap high-water mark BENCH reports. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/*
 * The build puts this file alone in an archive that is searched together
 * with libc (Makefile, FW_HEAP_LIB): its object is pulled in only when
 * something references _sbrk, which only newlib's malloc does. An image
 * without malloc therefore has neither (test_image_checks), and bench.c's
 * weak bench_heap_reset(), which returns 0, stays in force.
 *
 * The heap runs from the end of .bss to the end of RAM (the linker script's
 * __heap_start and __heap_end). _sbrk hands it out and keeps the highest
 * break it reached; bench_heap_reset() reports that peak and starts the
 * heap afresh before and after the measured call of each BENCH.
 */

extern uint8_t __heap_start[], __heap_end[]; /* stm32f401re.ld */

/*
 * newlib-nano's allocator state (newlib 3.3 nano-mallocr.c: free_list and
 * sbrk_start under these external names). Zeroed together with the break,
 * malloc starts as after boot: its free list forgets every chunk, which is
 * only right because nothing is allocated between two operations.
 */
extern void *__malloc_free_list;
extern char *__malloc_sbrk_start;

static uint8_t *heap_brk = __heap_start;
static uint8_t *heap_peak = __heap_start;

void *_sbrk(ptrdiff_t incr);

void *_sbrk(ptrdiff_t incr)
{
	uint8_t *old = heap_brk;

	if (incr > __heap_end - old || incr < __heap_start - old) {
		errno = ENOMEM;
		return (void *)-1;
	}
	heap_brk = old + incr;
	if (heap_brk > heap_peak) {
		heap_peak = heap_brk;
	}
	return old;
}

uint32_t bench_heap_reset(void)
{
	uint32_t peak = (uint32_t)(heap_peak - __heap_start);

	heap_brk = __heap_start;
	heap_peak = __heap_start;
	__malloc_free_list = NULL;
	__malloc_sbrk_start = NULL;
	return peak;
}
