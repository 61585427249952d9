/* api.h: NIST LWC parameters of Ascon-Hash256 (NIST SP 800-232), reference implementation. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_BYTES	     32 /* 256-bit digest */
#define CRYPTO_CONSTANT_TIME 1 /* no data-dependent branches or table lookups */

#endif /* CRYPTO_API_H */
