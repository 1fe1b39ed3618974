/* bytesink.c - buffered little-endian output; see bytesink.h. */
#include "bytesink.h"

#include <string.h>

void ff_sink_init(ff_sink *s, FILE *out)
{
    s->out = out;
    s->n = 0;
    s->failed = 0;
}

static void drain(ff_sink *s)
{
    if (s->n > 0 && !s->failed && fwrite(s->buf, 1, s->n, s->out) != s->n)
        s->failed = 1;
    s->n = 0;
}

void ff_sink_put(ff_sink *s, const void *p, size_t len)
{
    const unsigned char *b = p;

    while (len > 0) {
        size_t room = FF_SINK_BYTES - s->n, take = len < room ? len : room;
        memcpy(s->buf + s->n, b, take);
        s->n += take;
        b += take;
        len -= take;
        if (s->n == FF_SINK_BYTES)
            drain(s);
    }
}

void ff_sink_le(ff_sink *s, uint64_t v, size_t size)
{
    unsigned char b[8];
    size_t k;

    for (k = 0; k < size; k++)
        b[k] = (unsigned char)(v >> (8 * k));
    ff_sink_put(s, b, size);
}

int ff_sink_flush(ff_sink *s)
{
    drain(s);
    return s->failed ? -1 : 0;
}
