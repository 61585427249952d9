/* crypt: `hilrun crypt`: one operation on the host build or on the emulated target. */
#ifndef HIL_CRYPT_H
#define HIL_CRYPT_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "config/config.h"

struct hil_crypt_args {
	const char *alg; /* "ascon-aead128" or "ascon-aead128/ref" */
	const char *key_hex;
	const char *nonce_hex;
	const char *ad_hex;
	const char *in_hex; /* --pt (encrypt, hash) or --ct (decrypt) */
	const char *op; /* "encrypt" (default), "decrypt", "hash", "keysetup" */
	size_t xof_len; /* --outlen for an XOF (0: its default) */
	const char *on; /* "host" (default) or "qemu" */
	const struct hil_config *cfg; /* for --on qemu */
	/* hilrun's stop flag (main's), or NULL: ends the image's build */
	const volatile sig_atomic_t *stop;
};

/**
 * Run the operation and print the output in hex as the last token of one
 * line on out ("ciphertext||tag", plaintext, or digest).
 * @return HIL_OK; HIL_ERR_ARG with a message naming the bad argument;
 *         HIL_ERR_VERIFY when decryption rejects the input (nothing printed
 *         but the message); or a target error.
 */
int hil_crypt(const struct hil_crypt_args *a, FILE *out);

#endif /* HIL_CRYPT_H */
