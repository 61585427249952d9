/* api.h: block-cipher parameters of AES-128 encryption (FIPS 197), small table-based reference, ECB over whole blocks. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_BLOCKBYTES    16	 /* 128-bit block */
#define CRYPTO_KEYBYTES	     16	 /* 128-bit key */
#define CRYPTO_KSBYTES	     176 /* 11 round keys of 16 bytes */
#define CRYPTO_CONSTANT_TIME 0	 /* S-box table read at secret indices */
#define CRYPTO_MODE	     "ECB"

#endif /* CRYPTO_API_H */
