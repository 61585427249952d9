/* semihost_guest: a tiny Cortex-M4 image that asks QEMU's semihosting for a host shell (SYS_SYSTEM), a host file (SYS_OPEN) and a removal (SYS_REMOVE), and prints what each returned. */
#include <stdint.h>

/* Semihosting operations (Arm's "Semihosting for AArch32 and AArch64"). */
#define SYS_OPEN		     0x01
#define SYS_CLOSE		     0x02
#define SYS_WRITE0		     0x04
#define SYS_WRITE		     0x05
#define SYS_REMOVE		     0x0e
#define SYS_SYSTEM		     0x12
#define SYS_EXIT		     0x18
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u
#define OPEN_MODE_W		     4 /* "w" */

/*
 * Paths relative to QEMU's working directory, which the test sets: a
 * canary the guest tries to remove, a file it tries to create, and the
 * command whose marker file must not appear.
 */
#define CANARY "canary.txt"
#define OPENED "opened.txt"
#define SYSTEM "touch system-marker.txt"

extern uint32_t guest_stack_top;
void guest_reset(void);

__attribute__((section(".vectors"), used))
const void *const guest_vectors[2] = {&guest_stack_top,
				      (const void *)guest_reset};

static int semi(int op, const void *arg)
{
	register int r0 __asm__("r0") = op;
	register const void *r1 __asm__("r1") = arg;

	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static uint32_t len_of(const char *s)
{
	uint32_t n = 0;

	while (s[n] != '\0') {
		n++;
	}
	return n;
}

void guest_reset(void)
{
	/* "O?R?S?\n": + where the host did it, - where it refused. */
	char out[8] = {'O', '?', 'R', '?', 'S', '?', '\n', '\0'};
	uint32_t blk[3];
	int fd;

	blk[0] = (uint32_t)OPENED;
	blk[1] = OPEN_MODE_W;
	blk[2] = len_of(OPENED);
	fd = semi(SYS_OPEN, blk);
	if (fd >= 0) {
		blk[0] = (uint32_t)fd;
		blk[1] = (uint32_t) "guest was here\n";
		blk[2] = 15;
		semi(SYS_WRITE, blk);
		blk[0] = (uint32_t)fd;
		semi(SYS_CLOSE, blk);
	}
	out[1] = fd >= 0 ? '+' : '-';
	blk[0] = (uint32_t)CANARY;
	blk[1] = len_of(CANARY);
	out[3] = semi(SYS_REMOVE, blk) == 0 ? '+' : '-';
	blk[0] = (uint32_t)SYSTEM;
	blk[1] = len_of(SYSTEM);
	out[5] = semi(SYS_SYSTEM, blk) == 0 ? '+' : '-';
	semi(SYS_WRITE0, out);
	semi(SYS_EXIT, (const void *)ADP_STOPPED_APPLICATION_EXIT);
	for (;;) {
	}
}
