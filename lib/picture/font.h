/* font.h - the pictures' built-in bitmap font: printable ASCII in 5 x 9
 * dots (7 above the baseline, 2 for descenders), drawn a pixel row at a
 * time, k x k pixels a dot (man 1 ffpng, "The key").
 */
#ifndef FF_FONT_H
#define FF_FONT_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FF_FONT_WIDTH 5    /* dots of a glyph, across */
#define FF_FONT_ROWS 9     /* dots of a line of text, down */
#define FF_FONT_ADVANCE 6  /* dots from one glyph to the next */

/* Row gy (0..FF_FONT_ROWS-1) of character c's glyph, bit 4 the leftmost
 * dot; a character outside ' '..'~' draws as '?'. */
uint8_t ff_font_row(unsigned char c, int gy);

/* Width of s in pixels at k pixels a dot (no trailing gap). */
uint64_t ff_text_width(const char *s, int k);

/* Draw row gy (0..FF_FONT_ROWS-1) of the text s, its left edge at column
 * x0, k pixels a dot, in rgb, into row (width pixels; dots outside are
 * clipped). */
void ff_text_row(uint8_t *row, uint32_t width, const char *s, int64_t x0, int k, int gy,
                 const uint8_t *rgb);

#ifdef __cplusplus
}
#endif

#endif
