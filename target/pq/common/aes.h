/* aes.h: hilrun's portable AES-128/192/256 in ECB and CTR mode with the function names and context sizes of mupq's aes.h, for schemes whose config names no common code. */
#ifndef HIL_PQ_AES_H
#define HIL_PQ_AES_H

#include <stddef.h>
#include <stdint.h>

#define AES128_KEYBYTES	  16
#define AES192_KEYBYTES	  24
#define AES256_KEYBYTES	  32
#define AESCTR_NONCEBYTES 12
#define AES_BLOCKBYTES	  16

/* The round keys, bytes in FIPS 197 order, in mupq's context sizes. */
typedef struct {
	uint64_t sk_exp[88];
} aes128ctx;
typedef struct {
	uint64_t sk_exp[104];
} aes192ctx;
typedef struct {
	uint64_t sk_exp[120];
} aes256ctx;

void aes128_ecb_keyexp(aes128ctx *r, const unsigned char *key);
void aes128_ctr_keyexp(aes128ctx *r, const unsigned char *key);
void aes128_ecb(unsigned char *out, const unsigned char *in, size_t nblocks,
		const aes128ctx *ctx);
/* CTR: the 12-byte iv, then a 32-bit big-endian block counter from 0. */
void aes128_ctr(unsigned char *out, size_t outlen, const unsigned char *iv,
		const aes128ctx *ctx);
void aes128_ctx_release(aes128ctx *r);

void aes192_ecb_keyexp(aes192ctx *r, const unsigned char *key);
void aes192_ctr_keyexp(aes192ctx *r, const unsigned char *key);
void aes192_ecb(unsigned char *out, const unsigned char *in, size_t nblocks,
		const aes192ctx *ctx);
void aes192_ctr(unsigned char *out, size_t outlen, const unsigned char *iv,
		const aes192ctx *ctx);
void aes192_ctx_release(aes192ctx *r);

void aes256_ecb_keyexp(aes256ctx *r, const unsigned char *key);
void aes256_ctr_keyexp(aes256ctx *r, const unsigned char *key);
void aes256_ecb(unsigned char *out, const unsigned char *in, size_t nblocks,
		const aes256ctx *ctx);
void aes256_ctr(unsigned char *out, size_t outlen, const unsigned char *iv,
		const aes256ctx *ctx);
void aes256_ctx_release(aes256ctx *r);

#endif /* HIL_PQ_AES_H */
