/* fuzz_ffmap.c - libFuzzer target: the ffmap text map reader, through
 * ff_map_parse and ff_map_read; a map that parses must cross an ff stream
 * (binary and text) unchanged.  The seed corpus (tests/fuzz/corpus/ffmap/)
 * steers it to its format; format detection is fuzzed on the way. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_map_bytes(data, size, 0);
    return 0;
}
