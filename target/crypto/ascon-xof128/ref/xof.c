/* xof.c: portable reference Ascon-XOF128 (NIST SP 800-232 Sec. 5.2) on 64-bit words, any output length. */
#include "api.h"
#include "crypto_xof.h"

#include "../../ascon-common/ascon_common.h"

/*
 * Sec. 5.2: IV of Ascon-XOF128 (algorithm id 3, a = 12, rate 64 bits,
 * output length field 0 for arbitrary length), in SP 800-232's
 * little-endian word order.
 */
#define ASCON_XOF128_IV UINT64_C(0x0000080000cc0003)

int crypto_xof(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen)
{
	struct ascon_state s;

	ascon_sponge_absorb(&s, ASCON_XOF128_IV, in, inlen);
	ascon_sponge_squeeze(&s, out, outlen);
	return 0;
}
