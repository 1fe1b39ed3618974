/* palette.h - the colours of ffpng's pictures, in one place (man 1 ffpng,
 * COLOURS): the layers' colours, the distance ramp, and the overlay
 * palette.  8-bit sRGB, R G B.
 *
 * Every overlay mark is drawn in a palette colour inside a black casing
 * or ring, and the palette is chosen so that each mark stands out on every
 * layer: a palette colour has a WCAG contrast of 3 or more with the ramp's
 * dark end and 4.5 or more with its black casing (which has 17 with the
 * ramp's light end), and lies 0.15 or more from every ramp stop and every
 * grey in Oklab (tests/test_draw.c checks these numbers).
 */
#ifndef FF_PALETTE_H
#define FF_PALETTE_H

#include <stdint.h>

#include "trace.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const uint8_t ff_colour_wall[3];
extern const uint8_t ff_colour_open[3];         /* open cells (map), cells no agent stood in */
extern const uint8_t ff_colour_unreachable[3];
extern const uint8_t ff_colour_goal[3];
extern const uint8_t ff_colour_black[3];        /* arrows, casings, rings, text */
extern const uint8_t ff_colour_paper[3];        /* the legend's background */

/* The distance ramp's stops, dark to light (palette.c says how it is made). */
#define FF_RAMP_STOPS 33
extern const uint8_t ff_ramp[FF_RAMP_STOPS][3];

/* Cost greys: the cheapest open cell FF_COST_LIGHT, the dearest FF_COST_DARK. */
#define FF_COST_LIGHT 245
#define FF_COST_DARK 90

extern const uint8_t ff_direction_colour[8][3];  /* by direction code */
extern const uint8_t ff_class_colour[4][3];      /* terrain classes 1.. on the map layer */

/* The overlay palette: paths and point sets take them in turn. */
#define FF_PALETTE_SIZE 4
extern const uint8_t ff_path_colour[FF_PALETTE_SIZE][3];
extern const uint8_t ff_points_colour[FF_PALETTE_SIZE][3];
extern const uint8_t ff_state_colour[FF_TRACE_STATES][3];

/* The ramp at t in [0, 1] (clamped), interpolated between stops. */
void ff_ramp_at(double t, uint8_t out[3]);

/* Half way to white: the ramp under arrows. */
void ff_pastel(uint8_t rgb[3]);

/* The grey of a cost at t in [0, 1] from the cheapest to the dearest. */
void ff_cost_grey(double t, uint8_t out[3]);

static inline void ff_set_rgb(uint8_t *dst, const uint8_t *src)
{
    dst[0] = src[0];
    dst[1] = src[1];
    dst[2] = src[2];
}

#ifdef __cplusplus
}
#endif

#endif
