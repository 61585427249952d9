/* hash.c: portable reference Ascon-Hash256 (NIST SP 800-232 Sec. 5.1) on 64-bit words behind the NIST LWC hash API. */
#include "api.h"
#include "crypto_hash.h"

#include "../../ascon-common/ascon_common.h"

/*
 * Sec. 5.1: IV of Ascon-Hash256 (algorithm id 2, a = 12, rate 64 bits,
 * 256-bit output), as a 64-bit word in SP 800-232's little-endian order.
 */
#define ASCON_HASH256_IV UINT64_C(0x0000080100cc0002)

int crypto_hash(unsigned char *out, const unsigned char *in,
		unsigned long long inlen)
{
	struct ascon_state s;

	ascon_sponge_absorb(&s, ASCON_HASH256_IV, in, inlen);
	ascon_sponge_squeeze(&s, out, CRYPTO_BYTES);
	return 0;
}
