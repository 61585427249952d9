/* api.h: block-cipher parameters of Speck64/128 (ePrint 2013/404), reference implementation, ECB over whole blocks. */
#ifndef CRYPTO_API_H
#define CRYPTO_API_H

#define CRYPTO_BLOCKBYTES 8   /* 64-bit block: two 32-bit words */
#define CRYPTO_KEYBYTES	  16  /* 128-bit key: four 32-bit words */
#define CRYPTO_KSBYTES	  108 /* 27 round keys of 32 bits */
#define CRYPTO_CONSTANT_TIME                                                   \
	1 /* add, rotate, xor only: no branch or lookup on secrets */
#define CRYPTO_MODE "ECB"

#endif /* CRYPTO_API_H */
