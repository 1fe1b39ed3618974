/* fuzz_trace.c - libFuzzer target: ffsim's trace as ffpng reads it
 * (ff_trace_next).  Every line read has finite numbers, an integer id, a
 * radius of 0 (no column) or > 0, a known state and a frame that never
 * goes down; thinned to every second tick, the frames kept are the ones
 * of the whole read whose tick index is even.  The comments' notes (map
 * events, fields published, the tick length) are gathered on both reads,
 * the same on each: finite ticks, radii >= 0, a tick length 0 or > 0, and
 * lines that never go down.  An error names its line in one sentence. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>

#include "trace.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read everything with `every`; returns the number of kept ticks, or -1
 * after an error. */
static long long read_all(const uint8_t *data, size_t size, uint64_t every, uint64_t *ticks,
                          ff_trace_notes *notes)
{
    FILE *f = open_bytes(data, size);
    ff_trace_reader t;
    size_t k;
    ff_trace_record r;
    ff_error err;
    ff_status st;
    uint64_t last_frame = 0;
    long last_line = 0;

    if (!f)
        abort();
    ff_trace_init(&t, f, "fuzz", every);
    t.notes = notes;
    ff_error_clear(&err);
    while ((st = ff_trace_next(&t, &r, &err)) == FF_OK) {
        FUZZ_CHECK(isfinite(r.tick) && isfinite(r.x) && isfinite(r.y));
        FUZZ_CHECK(r.radius == 0 || (r.radius > 0 && isfinite(r.radius)));
        FUZZ_CHECK(r.state >= FF_TRACE_MOVING && r.state < FF_TRACE_STATES);
        FUZZ_CHECK(r.frame >= last_frame && r.frame < t.frames);
        FUZZ_CHECK(t.rec.line > last_line);
        last_frame = r.frame;
        last_line = t.rec.line;
    }
    fclose(f);
    *ticks = t.ticks;
    FUZZ_CHECK(notes->tick_dt == 0 || (notes->tick_dt > 0 && isfinite(notes->tick_dt)));
    for (k = 0; k < notes->nevents; k++) {
        const ff_trace_event *e = &notes->event[k];
        FUZZ_CHECK(isfinite(e->tick) && e->radius >= 0 && isfinite(e->radius));
        FUZZ_CHECK(e->kind == FF_TRACE_CLOSE || e->kind == FF_TRACE_OPEN ||
                   e->kind == FF_TRACE_PUBLISHED);
        FUZZ_CHECK(e->line >= 1 && (k == 0 || e->line >= notes->event[k - 1].line));
    }
    if (st != FF_ENOTFOUND) {
        FUZZ_CHECK(st == FF_EINPUT);
        FUZZ_CHECK(err.msg[0] != '\0' && !strchr(err.msg, '\n'));
        FUZZ_CHECK(err.line >= 1);
        return -1;
    }
    return (long long)t.frames;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t ticks1, ticks2;
    ff_trace_notes notes1, notes2;
    long long all, half;

    memset(&notes1, 0, sizeof notes1);
    memset(&notes2, 0, sizeof notes2);
    all = read_all(data, size, 1, &ticks1, &notes1);
    half = read_all(data, size, 2, &ticks2, &notes2);
    if (all >= 0) {
        FUZZ_CHECK(half >= 0 && ticks1 == ticks2);
        FUZZ_CHECK((uint64_t)all == ticks1 && (uint64_t)half == (ticks1 + 1) / 2);
        FUZZ_CHECK(notes1.nevents == notes2.nevents && notes1.tick_dt == notes2.tick_dt);
    }
    ff_trace_notes_free(&notes1);
    ff_trace_notes_free(&notes2);
    return 0;
}
