/* palette.c - the colours of pictures; see palette.h and man 1 ffpng. */
#include "palette.h"

#include <math.h>

const uint8_t ff_colour_wall[3] = { 32, 32, 32 };
const uint8_t ff_colour_open[3] = { 235, 235, 235 };
const uint8_t ff_colour_unreachable[3] = { 180, 180, 180 };
const uint8_t ff_colour_goal[3] = { 255, 0, 255 };
const uint8_t ff_colour_black[3] = { 0, 0, 0 };
const uint8_t ff_colour_paper[3] = { 255, 255, 255 };

/* The distance ramp, 33 stops: Oklab lightness rising linearly from 0.28
 * to 0.93 while the hue turns from 300 to 105 degrees (purple, blue,
 * teal, green, yellow), the chroma at most 0.15..0.2 and smoothed to stay
 * inside sRGB.  Equal steps of distance are equal steps of lightness, and
 * the ramp reads in grey print too, as viridis does. */
const uint8_t ff_ramp[FF_RAMP_STOPS][3] = {
    {  54,   4,  99 }, {  54,  17, 109 }, {  52,  26, 120 }, {  49,  35, 130 },
    {  44,  44, 139 }, {  38,  56, 141 }, {  34,  67, 140 }, {  32,  77, 138 },
    {  30,  85, 139 }, {  28,  93, 141 }, {  26, 101, 143 }, {  23, 109, 146 },
    {  20, 116, 148 }, {  18, 124, 151 }, {  19, 132, 152 }, {  24, 139, 154 },
    {  32, 146, 155 }, {  39, 154, 155 }, {  46, 161, 156 }, {  53, 168, 155 },
    {  60, 176, 154 }, {  68, 183, 152 }, {  75, 191, 149 }, {  83, 198, 144 },
    {  92, 206, 135 }, { 102, 214, 122 }, { 118, 220, 106 }, { 140, 225,  88 },
    { 164, 229,  75 }, { 188, 231,  64 }, { 210, 234,  55 }, { 231, 236,  48 },
    { 252, 238,  42 },
};

/* A colour per direction code, round the compass: N blue, E green,
 * S amber, W red, and the diagonals between them. */
const uint8_t ff_direction_colour[8][3] = {
    { 40, 100, 220 },  /* N */
    { 40, 170, 60 },   /* E */
    { 250, 190, 0 },   /* S */
    { 220, 40, 40 },   /* W */
    { 0, 170, 190 },   /* NE */
    { 160, 200, 20 },  /* SE */
    { 250, 120, 0 },   /* SW */
    { 150, 60, 190 },  /* NW */
};

/* Terrain classes other than ground (0) on the map layer: water, trees,
 * then whatever a map brings, in turn. */
const uint8_t ff_class_colour[4][3] = {
    { 150, 190, 235 }, { 150, 200, 140 }, { 215, 195, 150 }, { 200, 170, 215 },
};

/* The hues the ramp leaves out (reds, oranges, violets, pinks) and a cyan
 * far lighter than the ramp's teal. */
const uint8_t ff_path_colour[FF_PALETTE_SIZE][3] = {
    { 255, 40, 40 }, { 170, 60, 255 }, { 255, 120, 0 }, { 0, 255, 255 },
};

const uint8_t ff_points_colour[FF_PALETTE_SIZE][3] = {
    { 0, 255, 255 }, { 255, 120, 0 }, { 255, 90, 160 }, { 170, 60, 255 },
};

/* moving cyan, waiting orange, stuck red, deadlocked violet, arrived pink. */
const uint8_t ff_state_colour[FF_TRACE_STATES][3] = {
    { 0, 255, 255 }, { 255, 120, 0 }, { 255, 40, 40 }, { 170, 60, 255 }, { 255, 90, 160 },
};

void ff_ramp_at(double t, uint8_t out[3])
{
    double p = (t < 0 ? 0 : t > 1 ? 1 : t) * (FF_RAMP_STOPS - 1);
    int i = (int)p, c;
    double f;

    if (i >= FF_RAMP_STOPS - 1)
        i = FF_RAMP_STOPS - 2;
    f = p - i;
    for (c = 0; c < 3; c++)
        out[c] = (uint8_t)lround(ff_ramp[i][c] + (ff_ramp[i + 1][c] - ff_ramp[i][c]) * f);
}

void ff_pastel(uint8_t rgb[3])
{
    int c;

    for (c = 0; c < 3; c++)
        rgb[c] = (uint8_t)((rgb[c] + 255) / 2);
}

void ff_cost_grey(double t, uint8_t out[3])
{
    out[0] = out[1] = out[2] = (uint8_t)(FF_COST_LIGHT - lround(t * (FF_COST_LIGHT - FF_COST_DARK)));
}
