/* bytesink.h - buffered output of bytes in a declared order: the ff
 * stream's payload and ffexport's values go through it, 64 KiB at a time,
 * each multi-byte value written low byte first whatever the host.
 */
#ifndef FF_BYTESINK_H
#define FF_BYTESINK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FF_SINK_BYTES 65536

typedef struct {
    FILE *out;                          /* not owned */
    size_t n;                           /* bytes in buf */
    int failed;                         /* 1 once a write to out failed */
    unsigned char buf[FF_SINK_BYTES];
} ff_sink;

/* Start a sink over out (a sink is large: allocate it, not on the stack). */
void ff_sink_init(ff_sink *s, FILE *out);

/* Append len bytes of p. */
void ff_sink_put(ff_sink *s, const void *p, size_t len);

/* Append the low size bytes (1 to 8) of v, low byte first. */
void ff_sink_le(ff_sink *s, uint64_t v, size_t size);

/* Write out what is buffered; returns 0, or -1 when any write of the sink
 * failed (errno says why). */
int ff_sink_flush(ff_sink *s);

#ifdef __cplusplus
}
#endif

#endif
