/* query.h - questions asked of a direction field (man 1 ffquery): the
 * direction at a stream of world positions (smoothed or raw, text or
 * binary), the cell path from a cell to a goal, whether a cell can reach a
 * goal, and whether a field was made from a given map.
 *
 * The directions themselves come from sample.h; this module reads the
 * questions, writes the answers and follows the field.
 */
#ifndef FF_QUERY_H
#define FF_QUERY_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "stream.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What ff_query_stream answers for each position. */
typedef struct {
    int raw;       /* 1: the cell's own direction (ff_sample_raw), 0: smoothed */
    int distance;  /* 1: append the distance of the cell the position is in */
    int binary;    /* 1: little-endian f64 pairs in, f64 records out;
                      0: text lines `x y` in, `dx dy [dist]` out */
    const uint8_t *heading_planes; /* NULL, or on a turn-cost field each
                      heading's directions, heading h's w*h codes at
                      h*w*h (ff_heading_plane): then a text line may be
                      `x y H`, asking for the state of heading H */
    const float *vectors; /* NULL, or an any-angle field's vector channel
                      (ff_field_vectors): the directions come from it
                      (ff_sample_smooth_vector, ff_sample_raw_vector) */
} ff_query_options;

/* The answer for world position (px, py) of field f (which must have a
 * direction channel, or o->vectors, and a distance channel), as o->raw and
 * o->distance ask:
 * ans[0], ans[1] the unit direction (or 0 0); ans[2] the distance of the
 * cell the position lies in (+inf when unreachable, blocked or outside the
 * map), or 0 when o->distance is 0. */
void ff_query_point(const ff_field *f, const ff_query_options *o, double px, double py,
                    double ans[3]);

/* The same for the state of heading h (0..7) of a turn-cost field, with
 * o->heading_planes set: the direction sampled from heading h's
 * directions, the distance of the state (heading_distance); h < 0 is
 * ff_query_point(). */
void ff_query_state(const ff_field *f, const ff_query_options *o, double px, double py, int h,
                    double ans[3]);

/* Read positions from file descriptor fd until its end and write one answer
 * per position to out, in order.  Text: one `x y` a line (or, with
 * o->heading_planes, `x y H`, H a heading code 0 to 7: ff_query_state) (blank lines and
 * `#` comments skipped, as records.h reads them); each answer is `dx dy`
 * (plus ` dist` with o->distance) and a newline, numbers as ff_format_g9
 * prints them.  Binary: 16-byte records (x, y as little-endian IEEE 754
 * doubles); answers are 16 or 24 bytes (dx, dy [, dist]).
 * Answers are written in large blocks, and out is flushed before every read
 * of fd that may block, so that a caller talking through a pipe gets each
 * answer before it sends the next question.
 * name names the input in messages.  Returns FF_OK at the end of input,
 * FF_EINPUT for a malformed line (its line and column) or record (its byte
 * offset), FF_EIO for a read or write failure.  Answers to the positions
 * before a malformed one have already been written. */
ff_status ff_query_stream(const ff_field *f, const ff_query_options *o, int fd,
                          const char *name, FILE *out, ff_error *err);

/* Why a cell can or cannot reach a goal. */
typedef enum {
    FF_REACH_OK = 0,       /* open, and following the field ends at a goal */
    FF_REACH_BLOCKED,      /* a wall, or closed by the clearance radius */
    FF_REACH_UNREACHABLE,  /* open, but no path to any goal */
    FF_REACH_OUTSIDE       /* not a cell of the map */
} ff_reach;

/* Whether cell (x, y) of f (direction channel required) can reach a goal. */
ff_reach ff_query_reach(const ff_field *f, long long x, long long y);

/* The same for the cell that world position (px, py) lies in, which it
 * stores in *x, *y (floored, as ff_world_to_cell does; FF_REACH_OUTSIDE
 * when it is not in the map). */
ff_reach ff_query_reach_world(const ff_field *f, double px, double py, long long *x,
                              long long *y);

/* "ok", "blocked", "unreachable", "outside". */
const char *ff_reach_name(ff_reach r);

/* Read places from in until its end and write each one that cannot reach
 * a goal to out as `x y reason`, reason as ff_reach_name.  A line of two
 * integers (sign and digits only, records.h's integers) is a cell, written
 * back as its integers; any other two numbers are a world position, whose
 * cell is checked, written back in the shortest form that reads back to
 * the same doubles, with ".0" after an integer (5.0, not 5).  *unreached
 * counts them.  Returns FF_OK, FF_EINPUT for a malformed line or an input
 * without any place (a check of nothing must not pass), FF_EIO on a read
 * or write failure. */
ff_status ff_query_check(const ff_field *f, FILE *in, const char *name, FILE *out,
                         size_t *unreached, ff_error *err);

/* The cell path from cell (x, y) to a goal, following the direction codes:
 * *path gets the cell indices (y * w + x), start and goal included, in
 * *ncells (malloc'd; the caller frees it).  Each step is checked to be a
 * legal move (ff_grid_step_ok), so a damaged field can neither leave the
 * map nor loop.  Returns FF_OK; FF_ENOTFOUND when the start is blocked or
 * cannot reach a goal; FF_EUSAGE when it is outside the map; FF_EINPUT when
 * the field is inconsistent; FF_ENOMEM.  file names the field in
 * messages. */
ff_status ff_query_trace(const ff_field *f, long long x, long long y, const char *file,
                         uint32_t **path, size_t *ncells, ff_error *err);

/* The same from state (x, y, heading) of a turn-cost field (heading
 * 0..7), following its heading_direction channel: each step's direction
 * is the next state's heading.  heading < 0 is ff_query_trace(). */
ff_status ff_query_trace_state(const ff_field *f, long long x, long long y, int heading,
                               const char *file, uint32_t **path, size_t *ncells,
                               ff_error *err);

/* World position of the center of cell index i. */
void ff_cell_center(const ff_grid *g, size_t i, double *wx, double *wy);

/* Write the centers of the n cells of path, `x y` a line, with the fewest
 * of 15, 16 or 17 significant digits that read back to the same double.
 * Returns FF_EIO on a write error. */
ff_status ff_query_write_path(FILE *out, const ff_grid *g, const uint32_t *path, size_t n,
                              ff_error *err);

/* The same for n world points, x y pairs in xy (an any-angle field's
 * corner path, ff_anyangle_corner_path). */
ff_status ff_query_write_points(FILE *out, const double *xy, size_t n, ff_error *err);

/* The map id (ff_grid_id) that the map read from in would have under the
 * rules of field f: the map read as ffbuild reads it (ff_map_read), with
 * f's moves, corner rule and clearance radius applied.  A field whose
 * map_id differs was built from another map or with other options. */
ff_status ff_query_map_id(FILE *in, const char *name, const ff_field *f, uint64_t *id,
                          ff_error *err);

/* Longest text ff_format_g9 writes, with its terminating NUL. */
#define FF_G9_MAX 32

/* Write v into buf (at least FF_G9_MAX bytes) exactly as printf("%.9g")
 * would, except that -0 is written "0"; returns the length.  The common
 * magnitudes (1e-4 to 1e9) take a fast path that needs no printf. */
size_t ff_format_g9(double v, char *buf);

/* Parse a decimal number that starts at s and ends before end (no leading
 * blank): an optional sign, digits with an optional point, an optional
 * exponent.  Returns the end of the number and sets *v, or NULL when the
 * text is not in that form or the number needs more than this fast path
 * (more than 19 significant digits, or a value that one multiplication or
 * division by an exact power of ten cannot round exactly): the caller then
 * asks strtod.  Where the number is followed by a blank or the end, strtod
 * reads the same double and stops at the same place. */
const char *ff_parse_decimal(const char *s, const char *end, double *v);

/* Little-endian IEEE 754 doubles, byte by byte; where the compiler says
 * the machine is little-endian, a copy is the same bytes, and compilers
 * make it one load or store (the shifts they do not always merge). */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FF_HOST_LITTLE_ENDIAN 1
#else
#define FF_HOST_LITTLE_ENDIAN 0
#endif

static inline double ff_get_f64le(const unsigned char *p)
{
    uint64_t bits = 0;
    double v;
    int k;

    if (FF_HOST_LITTLE_ENDIAN) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    for (k = 7; k >= 0; k--)
        bits = bits << 8 | p[k];
    memcpy(&v, &bits, sizeof v);
    return v;
}

static inline void ff_put_f64le(unsigned char *p, double v)
{
    uint64_t bits;
    int k;

    if (FF_HOST_LITTLE_ENDIAN) {
        memcpy(p, &v, sizeof v);
        return;
    }
    memcpy(&bits, &v, sizeof bits);
    for (k = 0; k < 8; k++)
        p[k] = (unsigned char)(bits >> (8 * k));
}

#ifdef __cplusplus
}
#endif

#endif
