/* fuzz_png.c - libFuzzer target: the grey PNG map reader
 * (ff_map_parse_png); an image that decodes must cross an ff stream
 * (binary and text) unchanged. */
#define _POSIX_C_SOURCE 200809L
#include "fuzzmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_map_bytes(data, size, 1);
    return 0;
}
