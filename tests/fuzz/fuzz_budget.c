/* fuzz_budget: wraps one implementation's API so that the fuzzed stub's crypto work is charged to the input. */
#include "api.h"
#include "fuzz_stub.h"

/*
 * Compiled once per implementation with its folder on the include path and
 * HIL_ALG_SYM set, like target/glue.c. The implementation's functions are
 * named HIL_ALG_SYM_<op> (as the Makefile renames them); glue.c is compiled
 * with the API renamed to HIL_ALG_SYM_budget_<op>, defined here, so that
 * the registry points at these wrappers and they call the real code.
 */
#ifndef HIL_ALG_SYM
#error "HIL_ALG_SYM must name the implementation"
#endif

#define FZ_PASTE2(a, b) a##b
#define FZ_PASTE(a, b)	FZ_PASTE2(a, b)
#define REAL(op)	FZ_PASTE(HIL_ALG_SYM, op)
#define WRAP(op)	FZ_PASTE(FZ_PASTE(HIL_ALG_SYM, _budget), op)

#if defined(CRYPTO_XOF)
int REAL(_xof)(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen);
int WRAP(_xof)(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen);

int WRAP(_xof)(unsigned char *out, unsigned long long outlen,
	       const unsigned char *in, unsigned long long inlen)
{
	int ret = REAL(_xof)(out, outlen, in, inlen);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(outlen + inlen);
	return ret;
}
#elif defined(CRYPTO_BLOCKBYTES)
int REAL(_block_keysetup)(unsigned char *ks, const unsigned char *k);
int REAL(_block_ecb_encrypt)(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks);
int WRAP(_block_keysetup)(unsigned char *ks, const unsigned char *k);
int WRAP(_block_ecb_encrypt)(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks);

int WRAP(_block_keysetup)(unsigned char *ks, const unsigned char *k)
{
	int ret = REAL(_block_keysetup)(ks, k);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(CRYPTO_KSBYTES);
	return ret;
}

int WRAP(_block_ecb_encrypt)(unsigned char *c, const unsigned char *m,
			     unsigned long long mlen, const unsigned char *ks)
{
	int ret = REAL(_block_ecb_encrypt)(c, m, mlen, ks);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(mlen);
	return ret;
}
#elif defined(CRYPTO_ABYTES)
int REAL(_aead_encrypt)(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k);
int REAL(_aead_decrypt)(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);
int WRAP(_aead_encrypt)(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k);
int WRAP(_aead_decrypt)(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k);

int WRAP(_aead_encrypt)(unsigned char *c, unsigned long long *clen,
			const unsigned char *m, unsigned long long mlen,
			const unsigned char *ad, unsigned long long adlen,
			const unsigned char *nsec, const unsigned char *npub,
			const unsigned char *k)
{
	int ret =
		REAL(_aead_encrypt)(c, clen, m, mlen, ad, adlen, nsec, npub, k);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(mlen + adlen);
	return ret;
}

int WRAP(_aead_decrypt)(unsigned char *m, unsigned long long *mlen,
			unsigned char *nsec, const unsigned char *c,
			unsigned long long clen, const unsigned char *ad,
			unsigned long long adlen, const unsigned char *npub,
			const unsigned char *k)
{
	int ret =
		REAL(_aead_decrypt)(m, mlen, nsec, c, clen, ad, adlen, npub, k);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(clen + adlen);
	return ret;
}
#elif defined(CRYPTO_BYTES)
int REAL(_hash)(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);
int WRAP(_hash)(unsigned char *out, const unsigned char *in,
		unsigned long long inlen);

int WRAP(_hash)(unsigned char *out, const unsigned char *in,
		unsigned long long inlen)
{
	int ret = REAL(_hash)(out, in, inlen);

	/* After the call: the budget must not hide an over-long one. */
	fuzz_board_spend(inlen);
	return ret;
}
#else
#error "api.h defines none of CRYPTO_XOF, CRYPTO_BLOCKBYTES, CRYPTO_ABYTES, CRYPTO_BYTES"
#endif
