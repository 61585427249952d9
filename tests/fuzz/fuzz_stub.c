/* fuzz_stub: the stub's real command loop and dispatch (target/main.c, bench.c) on arbitrary request bytes. */
#include "fuzz.h"
#include "fuzz_stub.h"

int fuzz_stub_one(const uint8_t *data, size_t size)
{
	unsigned before = fuzz_failures();

	fuzz_board_run(data, size);
	return (int)(fuzz_failures() - before);
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_stub_one(data, size);
	return 0;
}
#endif
