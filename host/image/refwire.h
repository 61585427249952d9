/* refwire: the messages between hilrun and the host build of a foreign implementation, which runs as its own jailed process (host/refhelper), never inside hilrun. */
#ifndef HIL_REFWIRE_H
#define HIL_REFWIRE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Each message, either way, is a 32-bit little-endian length, then that
 * many bytes. A request's first byte is its type; a reply starts with
 * REFWIRE_MAGIC and a 32-bit status (a hil_err code, two's complement).
 * Integers are little-endian. The helper answers each request before it
 * reads the next one and exits at the end of its input.
 *
 *   'D' describe: -> kind u8, keybytes u8, npubbytes u8, abytes u8,
 *       blockbytes u8, ksbytes u16, constant_time u8 (as int8), functions
 *       u8 (REFWIRE_HAS_*), mode length u8, mode bytes
 *   'R' run (hil_ref_run): op u8, xof_len u32, cap u32, key length u8,
 *       key, nonce length u8, nonce, ad length u32, ad, msg length u32,
 *       msg -> rejected u8, out length u32, out
 *   'G' digest (hil_ref_bench_digest): op u8, msg_len u32, ad_len u32,
 *       xof_len u32, runs u32, seed u32 -> digest u32
 */
#define REFWIRE_DESCRIBE 'D'
#define REFWIRE_RUN	 'R'
#define REFWIRE_DIGEST	 'G'
#define REFWIRE_MAGIC	 0x52464948u /* "HIFR" */
#define REFWIRE_MAX	 (1u << 20)  /* largest message either way */

#define REFWIRE_HAS_ENCRYPT  0x01u
#define REFWIRE_HAS_DECRYPT  0x02u
#define REFWIRE_HAS_HASH     0x04u
#define REFWIRE_HAS_XOF	     0x08u
#define REFWIRE_HAS_KEYSETUP 0x10u
#define REFWIRE_HAS_ECB	     0x20u

/* A message being written or read: bytes, capacity, position, and a flag
 * latched by the first put or get past the end. */
struct refwire_buf {
	uint8_t *p;
	size_t cap, pos;
	int bad;
};

static inline void refwire_put(struct refwire_buf *b, const void *v, size_t n)
{
	if (b->bad || n > b->cap - b->pos) {
		b->bad = 1;
		return;
	}
	if (n > 0) {
		const uint8_t *s = (const uint8_t *)v;
		size_t i;

		for (i = 0; i < n; i++) {
			b->p[b->pos + i] = s[i];
		}
	}
	b->pos += n;
}

static inline void refwire_put_u8(struct refwire_buf *b, uint8_t v)
{
	refwire_put(b, &v, 1);
}

static inline void refwire_put_u32(struct refwire_buf *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			(uint8_t)(v >> 24)};

	refwire_put(b, x, 4);
}

/* n bytes at the read position (NULL past the end), then skipped. */
static inline const uint8_t *refwire_get(struct refwire_buf *b, size_t n)
{
	const uint8_t *p;

	if (b->bad || n > b->cap - b->pos) {
		b->bad = 1;
		return NULL;
	}
	p = b->p + b->pos;
	b->pos += n;
	return p;
}

static inline uint8_t refwire_get_u8(struct refwire_buf *b)
{
	const uint8_t *p = refwire_get(b, 1);

	return p != NULL ? p[0] : 0;
}

static inline uint32_t refwire_get_u32(struct refwire_buf *b)
{
	const uint8_t *p = refwire_get(b, 4);

	return p != NULL ? (uint32_t)p[0] | (uint32_t)p[1] << 8 |
				   (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24
			 : 0;
}

#endif /* HIL_REFWIRE_H */
