/* crypto_declassify.h: the constant-time checkers' hook PQClean-style schemes call; nothing to do in a benchmark. */
#ifndef HIL_PQ_CRYPTO_DECLASSIFY_H
#define HIL_PQ_CRYPTO_DECLASSIFY_H

#define crypto_declassify(x, y)

#endif /* HIL_PQ_CRYPTO_DECLASSIFY_H */
