/* api.h: parameters of Ascon-XOF128 (NIST SP 800-232), reference implementation, XOF kind of target/crypto/README.md. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_XOF	     1 /* an extendable-output function: crypto_xof() */
#define CRYPTO_BYTES	     64 /* default output length (that of the KAT file) */
#define CRYPTO_CONSTANT_TIME 1 /* no data-dependent branches or table lookups */

#endif /* CRYPTO_API_H */
