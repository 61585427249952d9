/* compat.h: the portability macros PQClean-style schemes include, as hilrun supplies them (GNU C here: an empty asm keeps a value opaque to the optimiser). */
#ifndef HIL_PQ_COMPAT_H
#define HIL_PQ_COMPAT_H

/* Keep the compiler from turning a masked selection back into a branch. */
#if defined(__GNUC__) || defined(__clang__)
#define PQCLEAN_PREVENT_BRANCH_HACK(b) __asm__("" : "+r"(b));
#else
#define PQCLEAN_PREVENT_BRANCH_HACK(b)
#endif

/* A variable-length array (C99). */
#define PQCLEAN_VLA(t, x, s) t x[s]

#endif /* HIL_PQ_COMPAT_H */
