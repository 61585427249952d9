/* aead_kat_suite: the known-answer and forgery checks every AEAD test runs, for any implementation of the NIST LWC crypto_aead API. */
#ifndef AEAD_KAT_SUITE_H
#define AEAD_KAT_SUITE_H

#include <stddef.h>

/*
 * Each check reads the whole known-answer file (tests/kat, or the folder
 * named by $HIL_KAT_DIR, so run from the repository root) and fails the
 * running cmocka test with the vector's Count on the first broken rule.
 * A malformed file, or one with another number of vectors than the suite
 * says, fails too: a check never passes by checking less.
 */

/* Output buffers get a canary tail: a write past the output length shows up. */
#define AEAD_KAT_CANARY 0xA5
#define AEAD_KAT_TAIL	32

/* The largest key, nonce and tag the suite has room for. */
#define AEAD_KAT_KEY_MAX   32
#define AEAD_KAT_NONCE_MAX 32
#define AEAD_KAT_TAG_MAX   32

/* crypto_aead_encrypt and crypto_aead_decrypt of the implementation under test. */
typedef int aead_kat_encrypt_fn(unsigned char *c, unsigned long long *clen,
				const unsigned char *m, unsigned long long mlen,
				const unsigned char *ad,
				unsigned long long adlen,
				const unsigned char *nsec,
				const unsigned char *npub,
				const unsigned char *k);
typedef int aead_kat_decrypt_fn(unsigned char *m, unsigned long long *mlen,
				unsigned char *nsec, const unsigned char *c,
				unsigned long long clen,
				const unsigned char *ad,
				unsigned long long adlen,
				const unsigned char *npub,
				const unsigned char *k);

/* Which forgeries the tag, ciphertext and AD checks try on each vector. */
enum aead_kat_flips {
	/*
	 * One bit of one byte, a different bit and byte for each vector
	 * (Count modulo the length and modulo 8): enough over a file of a
	 * thousand vectors of every length.
	 */
	AEAD_KAT_FLIP_ONE_PER_VECTOR,
	/* One bit of every byte: for a file of a few long vectors. */
	AEAD_KAT_FLIP_EVERY_BYTE,
};

/* One implementation and its known-answer file; the test file owns it. */
struct aead_kat_suite {
	const char *file;      /* file name, e.g. "aes128_gcm.txt" */
	unsigned long vectors; /* how many it holds, Count = 1 .. vectors */
	size_t keybytes;       /* CRYPTO_KEYBYTES */
	size_t noncebytes;     /* CRYPTO_NPUBBYTES */
	size_t tagbytes;       /* CRYPTO_ABYTES */
	aead_kat_encrypt_fn *encrypt;
	aead_kat_decrypt_fn *decrypt;
	enum aead_kat_flips flips;
	/*
	 * How many forged ciphertexts and ADs the checks must try over the
	 * file: the vectors with a non-empty PT / AD (FLIP_ONE_PER_VECTOR),
	 * or the bytes of PT / AD in all vectors (FLIP_EVERY_BYTE).
	 */
	unsigned long ct_forgeries;
	unsigned long ad_forgeries;
	/* Nonzero: Count = 1 has an empty PT and AD (its CT is the tag alone). */
	int first_is_empty;
};

/**
 * Encrypt every vector: same ciphertext and tag, the returned length, and
 * nothing written past it. Reports the first ten differing vectors.
 * @param s the suite (borrowed).
 */
void aead_kat_check_encrypt(const struct aead_kat_suite *s);

/**
 * Decrypt every vector: return 0, same plaintext and length, nothing
 * written past it. Reports the first ten differing vectors.
 * @param s the suite (borrowed).
 */
void aead_kat_check_decrypt(const struct aead_kat_suite *s);

/*
 * The rejection checks below expect every forged input to decrypt to -1,
 * with a length of 0, the whole plaintext area zeroed (neither left alone
 * nor holding unverified plaintext) and nothing written past it.
 */

/**
 * Flip tag bits (see s->flips): vectors forgeries, or vectors * tagbytes.
 * @param s the suite (borrowed).
 */
void aead_kat_check_rejects_flipped_tag(const struct aead_kat_suite *s);

/**
 * Flip ciphertext bits (see s->flips); s->ct_forgeries of them.
 * @param s the suite (borrowed).
 */
void aead_kat_check_rejects_flipped_ciphertext(const struct aead_kat_suite *s);

/**
 * Flip AD bits (see s->flips); s->ad_forgeries of them.
 * @param s the suite (borrowed).
 */
void aead_kat_check_rejects_flipped_ad(const struct aead_kat_suite *s);

/**
 * Flip one bit of every nonce byte and of every key byte of every vector:
 * vectors * (noncebytes + keybytes) forgeries.
 * @param s the suite (borrowed).
 */
void aead_kat_check_rejects_wrong_nonce_or_key(const struct aead_kat_suite *s);

/**
 * Cut the last vector (Count = vectors) to every length shorter than a
 * tag, where nothing at all may be written, and to its length minus one.
 * @param s the suite (borrowed).
 */
void aead_kat_check_rejects_truncated(const struct aead_kat_suite *s);

/**
 * Under Count = 1's key and nonce, encrypt an empty PT and AD passed as
 * NULL, as callers may pass them: the tag alone, nothing past it, equal to
 * Count = 1's CT when s->first_is_empty (which also requires that vector
 * to be empty). That tag decrypts through NULL pointers, and with one bit
 * flipped is rejected.
 * @param s the suite (borrowed).
 */
void aead_kat_check_null_for_empty(const struct aead_kat_suite *s);

/**
 * Require the file to have pt vectors whose PT, and ad vectors whose AD,
 * ends in a partial block: for the tests that want the zero padding of
 * the last block exercised.
 * @param s     the suite (borrowed).
 * @param block the block size of the padding, in bytes (nonzero).
 * @param pt    vectors with ptlen % block != 0 expected.
 * @param ad    vectors with adlen % block != 0 expected.
 */
void aead_kat_check_partial_blocks(const struct aead_kat_suite *s, size_t block,
				   unsigned long pt, unsigned long ad);

#endif /* AEAD_KAT_SUITE_H */
