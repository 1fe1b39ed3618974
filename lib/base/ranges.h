/* ranges.h - the range of every number the formats and the command lines
 * read: one table that the readers check and the manual pages state (ff(5)
 * and ffsim(5) in their LIMITS tables, fftiled(5), and the OPTIONS of
 * ffbuild(1) and ffsim(1); tests/test_ranges.c holds the pages to it).
 *
 * The bounds are chosen so that the products the programs form of two
 * numbers read stay finite and exact enough: tick x speed and tick x
 * accel (at most 3.6e15 world units), --png-scale x grey 255 (under
 * 3.4e38, a float's range), a radius over a cell size (at most 1e18
 * cells, clipped to the map where it is walked), a cell size times a side
 * of 2^31 cells (2.1e15 world units).
 */
#ifndef FF_RANGES_H
#define FF_RANGES_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    FF_RANGE_CELL,                 /* cell: world units a cell */
    FF_RANGE_ORIGIN,               /* origin OX OY: world units */
    FF_RANGE_RADIUS,               /* radius of a stream, ffbuild -r */
    FF_RANGE_COST,                 /* a cell's cost: ffmap legend, Tiled, changes */
    FF_RANGE_TURN_COST,            /* turn-cost, ffbuild --turn-cost */
    FF_RANGE_PNG_SCALE,            /* ffbuild --png-scale: cost a grey level */
    FF_RANGE_TICK,                 /* scenario: seconds a tick */
    FF_RANGE_TICKS,                /* scenario: ticks of a run */
    FF_RANGE_EVENT_TICK,           /* scenario: the tick of 'at' */
    FF_RANGE_SPEED,                /* class: world units a second */
    FF_RANGE_ACCEL,                /* class: world units a second squared */
    FF_RANGE_TURN,                 /* class: degrees a second */
    FF_RANGE_ANGULAR_ACCEL,        /* class: degrees a second squared */
    FF_RANGE_THRESHOLD,            /* class: steering units (1: full speed) */
    FF_RANGE_PRIORITY,             /* class: agent priority */
    FF_RANGE_PASSES,               /* scenario: overlap passes a tick */
    FF_RANGE_WAIT_LIMIT,           /* scenario: ticks */
    FF_RANGE_STUCK_AFTER,          /* scenario: seconds */
    FF_RANGE_REBUILD_TICKS,        /* scenario: ticks */
    FF_RANGE_CONGESTION_TICKS,     /* scenario: ticks */
    FF_RANGE_CONGESTION_WEIGHT,    /* scenario */
    FF_RANGE_CONGESTION_THRESHOLD, /* scenario: agents */
    FF_RANGE_JOBS,                 /* ffbuild -j */
    FF_RANGE_MAX_CELLS,            /* --max-cells of every reader */
    FF_RANGE_FUNNEL_RADIUS,        /* fffunnel -r: world units */
    FF_RANGE_PNG_PIXELS,           /* ffpng --scale: pixels a cell */
    FF_RANGE_PNG_GRID,             /* ffpng --grid: cells a tick */
    FF_RANGE_PNG_EVERY,            /* ffpng --every: ticks */
    FF_RANGE_PNG_FPS,              /* ffpng --fps: frames a second */
    FF_RANGE_SIM_EVERY,            /* ffsim --every: ticks */
    FF_RANGE_COUNT
} ff_range_id;

typedef struct {
    const char *key;       /* as written: "cell", "tick", "--png-scale" */
    double min, max;       /* the range, inclusive (but see min_open) */
    int min_open;          /* 1: min itself is out (a value > min) */
    int integer;           /* 1: whole numbers only */
    const char *min_text;  /* min and max as the manual pages write them */
    const char *max_text;
    const char *text;      /* "from MIN to MAX", "from MIN (excluded) to MAX" */
    const char *page;      /* the page that states the range: "ff.5" */
} ff_range;

/* The table, indexed by ff_range_id. */
extern const ff_range ff_ranges[FF_RANGE_COUNT];

/* The cell sizes and origins a map may have, in world units.  Beyond them
 * the arithmetic of the searches and the crowd (sums of steps, squared
 * distances, cell indices from world positions) would overflow or lose
 * every digit: a step cost of inf, a bucket index out of range. */
#define FF_CELL_MIN (ff_ranges[FF_RANGE_CELL].min)
#define FF_CELL_MAX (ff_ranges[FF_RANGE_CELL].max)
#define FF_ORIGIN_MAX (ff_ranges[FF_RANGE_ORIGIN].max)  /* |origin_x|, |origin_y| */

/* The largest cost a cell may have: what a float holds, rounded down. */
#define FF_COST_MAX (ff_ranges[FF_RANGE_COST].max)

/* 1 when v is a number in the range of id (finite, whole if it must be),
 * else 0 (NaN included). */
int ff_range_ok(ff_range_id id, double v);

/* The range of id as a phrase for messages and pages: "from 1e-6 to 1e6",
 * "from 0 (excluded) to 3600". */
const char *ff_range_text(ff_range_id id);

#ifdef __cplusplus
}
#endif

#endif
